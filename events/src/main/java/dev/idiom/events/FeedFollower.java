package dev.idiom.events;

import dev.idiom.db.TimeSource;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The one mechanism by which a read model or a background job follows the store: a thread of its
 * own that runs a {@link Step} every interval, again at once while a step takes a full batch (it is
 * behind), sooner when {@link #nudge nudged} (a commit on this node), and, after a failure, with a
 * backoff that doubles — so a database that is down is
 * not hammered (but never waits more than the longer of its interval and {@link #MAX_BACKOFF}), and
 * the follower resumes from where its step stands once it is back. The lag it
 * reports is measured on the injected clock, from each followed event's commit time.
 */
public final class FeedFollower implements AutoCloseable {
    private static final Logger LOG = Logger.getLogger(FeedFollower.class.getName());
    /** The longest wait after failures, unless the interval itself is longer. */
    static final Duration MAX_BACKOFF = Duration.ofSeconds(30);

    /** One round of work: reads from where the follower stands and returns how many it took (at least {@code batch}: it runs again at once). */
    @FunctionalInterface
    public interface Step {
        int run();
    }

    private final String name;
    private final Duration interval;
    private final int batch;
    private final Clock clock;
    private final Step step;
    private final Object bell = new Object();
    private volatile boolean rung;
    /** The least time from a round's start to the next (a burst of nudges runs one round, not one each). */
    private volatile long leastGapNanos;
    private volatile long lastRoundAt = -1;
    private volatile boolean closed;
    private volatile Thread thread;
    private final AtomicLong followed = new AtomicLong();
    private final AtomicLong lastLag = new AtomicLong();
    private final AtomicLong maxLag = new AtomicLong();
    private final AtomicLong failures = new AtomicLong();

    private FeedFollower(String name, Duration interval, int batch, Clock clock, Step step) {
        if (interval.isZero() || interval.isNegative()) {
            throw new IllegalArgumentException(name + ": a follower's interval is positive, got " + interval);
        }
        this.name = name;
        this.interval = interval;
        this.batch = batch;
        this.clock = clock;
        this.step = step;
    }

    /** A follower not started yet (its owner finishes setting up first); {@link #start} starts it. */
    public static FeedFollower of(String name, Duration interval, int batch, Clock clock, Step step) {
        return new FeedFollower(name, interval, batch, clock, step);
    }

    /** At least {@code gap} from one round's start to the next's, however often it is nudged; before {@link #start}. */
    public FeedFollower leastGap(Duration gap) {
        this.leastGapNanos = gap.toNanos();
        return this;
    }

    public String name() {
        return name;
    }

    /** When its last round ended, on the injected clock (-1: none yet). */
    public long lastRoundAtMillis() {
        return lastRoundAt;
    }

    /** Starts the thread; the first round runs after {@code firstAfter}. */
    public FeedFollower start(Duration firstAfter) {
        if (thread == null) {
            thread = Thread.ofPlatform().daemon().name(name).start(() -> loop(firstAfter));
        }
        return this;
    }

    private void loop(Duration firstAfter) {
        try {
            rest(firstAfter.toNanos());
            while (!closed) {
                long wait = interval.toNanos();
                long roundStart = TimeSource.nanoTime();
                try {
                    while (!closed && step.run() >= batch) {
                        // behind: a full batch, and more may be waiting
                    }
                    failures.set(0);
                    lastRoundAt = clock.millis();
                } catch (RuntimeException e) {
                    long n = failures.incrementAndGet();
                    wait = Math.min(interval.toNanos() << Math.min(20, n - 1), Math.max(interval.toNanos(), MAX_BACKOFF.toNanos()));
                    LOG.log(n == 1 ? Level.WARNING : Level.FINE, name + " failed (" + n + " in a row); it tries again in " + wait / 1_000_000 + " ms: "
                            + e.getMessage(), e);
                }
                rest(wait);
                long gap = roundStart + leastGapNanos - TimeSource.nanoTime();
                if (gap > 0 && !closed) {
                    TimeSource.sleep(gap / 1_000_000, (int) (gap % 1_000_000));
                }
            }
        } catch (InterruptedException stop) {
            Thread.currentThread().interrupt();
        }
    }

    /** Waits {@code nanos}, or until nudged. */
    private void rest(long nanos) throws InterruptedException {
        long until = TimeSource.nanoTime() + nanos;
        synchronized (bell) {
            long left;
            while (!rung && !closed && (left = until - TimeSource.nanoTime()) > 0) {
                bell.wait(Math.max(1, left / 1_000_000));
            }
            rung = false;
        }
    }

    /** Runs a round now rather than at the end of the interval (a failing follower keeps its backoff only until nudged). */
    public void nudge() {
        if (rung) {
            return; // rung already since it last rested: a burst of commits takes no lock each
        }
        synchronized (bell) {
            rung = true;
            bell.notifyAll();
        }
    }

    /** The step followed an event committed at {@code recordedAt}: counted, and its lag measured. */
    public void followed(Instant recordedAt) {
        followed(1, recordedAt);
    }

    /** The step followed {@code events} events at once (an index refreshed), the oldest committed at {@code oldestRecordedAt}: its lag is that one's. */
    public void followed(long events, Instant oldestRecordedAt) {
        followed.addAndGet(events);
        long lag = Math.max(0, clock.millis() - oldestRecordedAt.toEpochMilli());
        lastLag.set(lag);
        maxLag.accumulateAndGet(lag, Math::max);
    }

    /** Commit-to-follow lag of the last event followed. */
    public long lagMillis() {
        return lastLag.get();
    }

    public long maxLagMillis() {
        return maxLag.get();
    }

    public long eventsFollowed() {
        return followed.get();
    }

    /** Failed rounds in a row (0 while it keeps up). */
    public long failures() {
        return failures.get();
    }

    /** Stops after the round in hand, which is never interrupted (an index's IO is not), and waits for it briefly. */
    @Override
    public void close() {
        closed = true;
        nudge();
        Thread t = thread;
        if (t != null) {
            try {
                t.join(5_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
