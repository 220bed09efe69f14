package dev.idiom.events.accounts;

import java.time.Instant;

/**
 * A tool account as stored: where the tool is, which account, its secret sealed (never in
 * clear; null when there is none), and whether records Idiom creates there are "private" or "public".
 */
public record StoredToolAccount(String name, String kind, String baseUrl, String account, String sealedSecret, String newRecords,
        Instant updatedAt) {}
