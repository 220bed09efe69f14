package dev.idiom.services.app;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Is Idiom well, part by part: the database answers; the change feed and the search feed follow
 * the store (behind is fine while they move; stalled is not); each tool account has nothing parked
 * and no mass deletion held for review. Each check says why, in words an admin can act on.
 */
public final class HealthChecks {
    /** How long a feed may stay behind without moving before it counts as stalled. */
    static final Duration STALL = Duration.ofSeconds(30);

    private final Administration administration;
    private final ReplicaSync sync;
    private final Clock clock;
    private final Map<String, Seen> seen = new ConcurrentHashMap<>();

    /** One part's health. */
    public record Check(String name, boolean healthy, String message) {}

    /** Every part's; healthy when each is. */
    public record Result(boolean healthy, List<Check> checks) {}

    private record Seen(long position, Instant at) {}

    public HealthChecks(Administration administration, ReplicaSync sync, Clock clock) {
        this.administration = administration;
        this.sync = sync;
        this.clock = clock;
    }

    public Result run() {
        List<Check> checks = new ArrayList<>();
        Administration.Figures f;
        try {
            f = administration.figures();
        } catch (RuntimeException e) {
            checks.add(new Check("database", false, "the database does not answer: " + e.getMessage()));
            return new Result(false, checks); // the feeds and accounts cannot be read without it
        }
        long head = f.feed().headPosition();
        checks.add(new Check("database", true, "answers; head position " + head + "; connections " + f.pool().active() + " in use of "
                + f.pool().max() + ", " + f.pool().waiting() + " waiting"));
        checks.add(f.feed().followed() ? following("changeFeed", f.feed().followedPosition(), head)
                : new Check("changeFeed", true, "not followed on this node (the cache is off)"));
        checks.add(following("searchFeed", f.search().position(), head));
        try {
            for (dev.idiom.consistency.report.AccountConsistency a : sync.report()) {
                checks.add(account(a));
            }
        } catch (RuntimeException e) {
            checks.add(new Check("toolAccounts", false, "the accounts' state cannot be read: " + e.getMessage()));
        }
        return new Result(checks.stream().allMatch(Check::healthy), checks);
    }

    private Check following(String name, long position, long head) {
        Instant now = clock.instant();
        Seen s = seen.compute(name, (k, old) -> old == null || old.position() != position ? new Seen(position, now) : old);
        long behind = Math.max(0, head - position);
        if (behind == 0) {
            return new Check(name, true, "up to date at position " + position);
        }
        Duration still = Duration.between(s.at(), now);
        if (still.compareTo(STALL) > 0) {
            return new Check(name, false, behind + " events behind the store and not moved for " + still.toSeconds() + " s (stalled at position "
                    + position + "); the node's log says why");
        }
        return new Check(name, true, behind + " events behind the store, following (position " + position + ")");
    }

    private static Check account(dev.idiom.consistency.report.AccountConsistency a) {
        String name = "tool:" + a.name();
        if (a.held() != null) {
            return new Check(name, false, "held for review: " + a.held() + "; once reviewed, POST /api/tools/" + a.name() + "/resume?allowDeletions=true applies it");
        }
        if (a.parked() > 0) {
            return new Check(name, false, a.parked() + " pushes parked (the tool refused them); fix the records or retry (POST /api/tools/" + a.name()
                    + "/retry)");
        }
        String state = a.paused() ? "paused by a curator; " : "";
        return new Check(name, true, state + a.inSync() + " of " + a.replicas() + " replicas in sync, " + a.pending() + " pushes pending"
                + (a.divergent() > 0 ? ", " + a.divergent() + " divergent at the last check" : ""));
    }
}
