package dev.idiom.events.accounts;

import java.time.Instant;

/**
 * An API key as stored: its name, role, the SHA-256 of the key (hex), who created it, and when it
 * was revoked (null while it works).
 */
public record StoredApiKey(String name, String role, String keyHash, Instant createdAt, String createdBy, Instant revokedAt, boolean seesPrivate) {
    public StoredApiKey(String name, String role, String keyHash, Instant createdAt, String createdBy, Instant revokedAt) {
        this(name, role, keyHash, createdAt, createdBy, revokedAt, false);
    }

    public boolean active() {
        return revokedAt == null;
    }
}
