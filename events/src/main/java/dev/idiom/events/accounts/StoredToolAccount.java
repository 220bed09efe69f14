package dev.idiom.events.accounts;

import java.time.Instant;

/**
 * A tool account as stored: where the tool is, which account, its secret sealed (never in
 * clear; null when there is none), whether records Idiom creates there are "private" or "public", and
 * which side wins a conflict with its replicas (a policy name, see the consistency module).
 */
public record StoredToolAccount(String name, String kind, String baseUrl, String account, String sealedSecret, String newRecords,
        String conflictPolicy, Instant updatedAt, boolean privateLibrary) {
    public StoredToolAccount(String name, String kind, String baseUrl, String account, String sealedSecret, String newRecords,
                             String conflictPolicy, Instant updatedAt) {
        this(name, kind, baseUrl, account, sealedSecret, newRecords, conflictPolicy, updatedAt, false);
    }
}
