package dev.idiom.consistency.report;

import java.time.Instant;

/** The consistency of one tool account, as admins read it. */
public record AccountConsistency(String name, String kind, String account, boolean paused, String held, int replicas, int inSync, int pending,
        int parked, int divergent, Instant lastPullAt, Instant lastPushAt, Instant lastCheckAt, Instant oldestOwed, Lag lag) {

    /** Propagation lag of one account in ms (commit of a change to the tool's acknowledgement) over the last {@code windowMinutes}, this node's pushes. */
    public record Lag(int samples, long p50, long p99, long max, long windowMinutes) {}
}
