package dev.idiom.events.accounts;

import java.time.Instant;

/**
 * A tool account as stored: where the tool is, which account, and its secret sealed (never in
 * clear; null when there is none).
 */
public record StoredToolAccount(String name, String kind, String baseUrl, String account, String sealedSecret, Instant updatedAt) {}
