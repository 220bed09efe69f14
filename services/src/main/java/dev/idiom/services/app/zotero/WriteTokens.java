package dev.idiom.services.app.zotero;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * {@code Zotero-Write-Token}: a client's token for one write request, so that a request retried
 * after a lost answer is refused (412) instead of written twice. Kept 12 hours per key and token,
 * in this process's memory as the dataserver keeps them in its cache (a node that restarts forgets them).
 */
final class WriteTokens {
    static final Duration KEPT = Duration.ofHours(12);
    private static final int MOST = 100_000;

    private final Clock clock;
    private final Map<String, Instant> used = new ConcurrentHashMap<>();

    WriteTokens(Clock clock) {
        this.clock = clock;
    }

    /** Refuses a token that is not 5–32 characters (400) or was used with this key in the last 12 hours (412). */
    void check(String keyHash, String token) {
        if (token == null || token.isEmpty()) {
            return;
        }
        if (token.length() < 5 || token.length() > 32) {
            throw new ZoteroApiException(400, "Write token must be 5-32 characters in length");
        }
        Instant at = used.get(keyHash + "\n" + token);
        if (at != null && at.plus(KEPT).isAfter(clock.instant())) {
            throw new ZoteroApiException(412, "Write token already used");
        }
    }

    /** Records a token whose request was written. */
    void written(String keyHash, String token) {
        if (token == null || token.isEmpty()) {
            return;
        }
        Instant now = clock.instant();
        if (used.size() >= MOST) {
            used.values().removeIf(at -> at.plus(KEPT).isBefore(now));
        }
        used.put(keyHash + "\n" + token, now);
    }
}
