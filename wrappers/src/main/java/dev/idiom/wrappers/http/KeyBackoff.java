package dev.idiom.wrappers.http;

import java.time.Instant;

/**
 * A tool's {@code Backoff} as Zotero means it: of the API key, not of one library. Every account
 * called with the same key at the same service shares one, so a backoff asked of one account's
 * call holds the calls of the others too.
 */
public final class KeyBackoff {
    private Instant until = Instant.EPOCH;

    /** No call with the key before {@code t} (an earlier time than one already asked changes nothing). */
    synchronized void until(Instant t) {
        if (t.isAfter(until)) {
            until = t;
        }
    }

    /** The time before which no call with the key may be made. */
    synchronized Instant until() {
        return until;
    }
}
