package dev.idiom.events.accounts;

import java.time.Instant;

/**
 * The consistency engine's state of one tool account (kind + account, as its replicas name it).
 *
 * @param paused no pull or push runs for the account (a curator paused it, or a hold did)
 * @param held why the account is held, for a curator to read (a mass deletion, a changed identity), null if not
 * @param divergent replicas the last anti-entropy pass found different from what Idiom last synced
 */
public record SyncState(String kind, String account, boolean paused, String held, Instant lastPullAt, Instant lastPushAt,
        Instant lastCheckAt, int divergent) {

    public static SyncState initial(String kind, String account) {
        return new SyncState(kind, account == null ? "" : account, false, null, null, null, null, 0);
    }

    public SyncState paused(boolean p) {
        return new SyncState(kind, account, p, p ? held : null, lastPullAt, lastPushAt, lastCheckAt, divergent);
    }

    public SyncState held(String why) {
        return new SyncState(kind, account, true, why, lastPullAt, lastPushAt, lastCheckAt, divergent);
    }

    public SyncState pulled(Instant at) {
        return new SyncState(kind, account, paused, held, at, lastPushAt, lastCheckAt, divergent);
    }

    public SyncState pushed(Instant at) {
        return new SyncState(kind, account, paused, held, lastPullAt, at, lastCheckAt, divergent);
    }

    public SyncState checked(Instant at, int found) {
        return new SyncState(kind, account, paused, held, lastPullAt, lastPushAt, at, found);
    }
}
