package dev.idiom.events.accounts;

import java.time.Instant;

/**
 * A tool account as stored: where the tool is, which account, its secret sealed (never in
 * clear; null when there is none), whether records Idiom creates there are "private" or "public",
 * which side wins a conflict with its replicas (a policy name, see the consistency module), and its
 * replication rule: which DEs it should hold ({@code mirror}, the rule's JSON; null: none) and which
 * way copies flow ({@code direction}: both, receive-only, send-only), and whether deletions in Idiom
 * reach its copies ({@code deletions}: keep, propagate).
 */
public record StoredToolAccount(String name, String kind, String baseUrl, String account, String sealedSecret, String newRecords,
        String conflictPolicy, Instant updatedAt, boolean privateLibrary, String mirror, String direction, String deletions) {
    public StoredToolAccount(String name, String kind, String baseUrl, String account, String sealedSecret, String newRecords,
                             String conflictPolicy, Instant updatedAt, boolean privateLibrary, String mirror, String direction) {
        this(name, kind, baseUrl, account, sealedSecret, newRecords, conflictPolicy, updatedAt, privateLibrary, mirror, direction, "keep");
    }

    public StoredToolAccount(String name, String kind, String baseUrl, String account, String sealedSecret, String newRecords,
                             String conflictPolicy, Instant updatedAt, boolean privateLibrary) {
        this(name, kind, baseUrl, account, sealedSecret, newRecords, conflictPolicy, updatedAt, privateLibrary, null, "both");
    }

    public StoredToolAccount(String name, String kind, String baseUrl, String account, String sealedSecret, String newRecords,
                             String conflictPolicy, Instant updatedAt) {
        this(name, kind, baseUrl, account, sealedSecret, newRecords, conflictPolicy, updatedAt, false);
    }

    /** What its sealed secret is bound to (see {@link SecretBox}): its name, kind, address and library, as stored. */
    public String binding() {
        return binding(name, kind, baseUrl, account);
    }

    public static String binding(String name, String kind, String baseUrl, String account) {
        return name + "\n" + kind + "\n" + baseUrl + "\n" + account;
    }

    /** Whether records Idiom creates in the tool are private there ({@code newRecords} is not "public"). */
    public boolean createsPrivate() {
        return !"public".equals(newRecords);
    }
}
