package dev.idiom.consistency;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Deque;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Propagation lag per tool account over a recent window: for each acknowledged push, the time from
 * the commit of the oldest change it carried (the outbox row's enqueue time, written by that
 * commit) to the tool's acknowledgement. Kept in memory by the node that pushed.
 */
public final class PropagationLag {
    /** Samples older than this leave the window. */
    public static final Duration WINDOW = Duration.ofMinutes(15);
    private static final int MAX_SAMPLES = 10_000;

    /** Lag figures of one account, in milliseconds, over the samples in the window. */
    public record Figures(int samples, long p50, long p99, long max) {
        public static final Figures NONE = new Figures(0, 0, 0, 0);
    }

    private record Sample(Instant at, long millis) {}

    private final Clock clock;
    private final Map<String, Deque<Sample>> byAccount = new ConcurrentHashMap<>();

    public PropagationLag(Clock clock) {
        this.clock = clock;
    }

    public void acknowledged(String accountKey, Instant changeCommittedAt) {
        Instant now = clock.instant();
        Deque<Sample> q = byAccount.computeIfAbsent(accountKey, k -> new ArrayDeque<>());
        synchronized (q) {
            q.addLast(new Sample(now, Math.max(0, Duration.between(changeCommittedAt, now).toMillis())));
            trim(q, now);
        }
    }

    public Figures of(String accountKey) {
        Deque<Sample> q = byAccount.get(accountKey);
        if (q == null) {
            return Figures.NONE;
        }
        long[] ms;
        synchronized (q) {
            trim(q, clock.instant());
            ms = q.stream().mapToLong(Sample::millis).toArray();
        }
        if (ms.length == 0) {
            return Figures.NONE;
        }
        Arrays.sort(ms);
        return new Figures(ms.length, rank(ms, 0.50), rank(ms, 0.99), ms[ms.length - 1]);
    }

    private static long rank(long[] sorted, double q) {
        return sorted[Math.min(sorted.length - 1, (int) Math.ceil(q * sorted.length) - 1)];
    }

    private static void trim(Deque<Sample> q, Instant now) {
        Instant oldest = now.minus(WINDOW);
        while (!q.isEmpty() && (q.size() > MAX_SAMPLES || q.peekFirst().at().isBefore(oldest))) {
            q.removeFirst();
        }
    }
}
