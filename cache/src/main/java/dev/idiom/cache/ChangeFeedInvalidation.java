package dev.idiom.cache;

import dev.idiom.events.ChangeFeed;
import dev.idiom.events.FeedEntry;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Keeps this node's cache correct when other nodes write: follows the change feed from the head
 * at start-up and marks every changed entity stale at its new version. A write on another node is
 * visible here within one poll interval plus one poll's query time (measured: {@link #lagMillis}).
 * The feed's positions follow commit order, so following from the last position never skips.
 */
public final class ChangeFeedInvalidation implements AutoCloseable {
    private static final Logger LOG = Logger.getLogger(ChangeFeedInvalidation.class.getName());
    private static final int BATCH = 1000;

    private final ChangeFeed store;
    private final EntityCache cache;
    private final Clock clock;
    private final ScheduledExecutorService poller;
    private final AtomicLong position = new AtomicLong();
    private final AtomicLong lastLagMillis = new AtomicLong();
    private final AtomicLong maxLagMillis = new AtomicLong();
    private final AtomicLong seen = new AtomicLong();

    private ChangeFeedInvalidation(ChangeFeed store, EntityCache cache, Clock clock) {
        this.store = store;
        this.cache = cache;
        this.clock = clock;
        this.poller = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "cache-change-feed");
            t.setDaemon(true);
            return t;
        });
    }

    /** Starts following from the current head, polling every {@code interval}. */
    public static ChangeFeedInvalidation start(ChangeFeed store, EntityCache cache, Clock clock, Duration interval) {
        ChangeFeedInvalidation f = new ChangeFeedInvalidation(store, cache, clock);
        f.position.set(store.headPosition());
        f.poller.scheduleWithFixedDelay(f::pollSafely, interval.toMillis(), interval.toMillis(), TimeUnit.MILLISECONDS);
        return f;
    }

    private void pollSafely() {
        try {
            while (poll() == BATCH) {
                // catch up in full batches before sleeping again
            }
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "change feed poll failed; retrying next interval", e);
        }
    }

    /** One read of the feed; returns how many events it applied. */
    int poll() {
        List<FeedEntry> events = store.feedAfter(position.get(), BATCH);
        for (FeedEntry e : events) {
            cache.invalidate(e.entityId(), e.version());
            position.set(e.position());
            seen.incrementAndGet();
            long lag = Math.max(0, clock.millis() - e.recordedAt().toEpochMilli());
            lastLagMillis.set(lag);
            maxLagMillis.accumulateAndGet(lag, Math::max);
        }
        return events.size();
    }

    public long position() {
        return position.get();
    }

    /** Commit-to-invalidation lag of the last event followed, and the largest seen. */
    public long lagMillis() {
        return lastLagMillis.get();
    }

    public long maxLagMillis() {
        return maxLagMillis.get();
    }

    public long eventsFollowed() {
        return seen.get();
    }

    @Override
    public void close() {
        poller.shutdownNow();
    }
}
