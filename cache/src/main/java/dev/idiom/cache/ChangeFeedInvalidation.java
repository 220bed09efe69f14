package dev.idiom.cache;

import dev.idiom.events.ChangeFeed;
import dev.idiom.events.FeedFollower;
import dev.idiom.events.FeedEntry;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Keeps this node's cache correct when other nodes write: follows the change feed from the head
 * at start-up and marks every changed entity stale at its new version. A write on another node is
 * visible here within one poll interval plus one poll's query time (measured: {@link #lagMillis}).
 * The feed's positions follow commit order, so following from the last position never skips.
 */
public final class ChangeFeedInvalidation implements AutoCloseable {
    private static final int BATCH = 1000;

    private final ChangeFeed store;
    private final EntityCache cache;
    private final AtomicLong position = new AtomicLong();
    private final FeedFollower follower;

    private ChangeFeedInvalidation(ChangeFeed store, EntityCache cache, Clock clock, Duration interval) {
        this.store = store;
        this.cache = cache;
        this.follower = FeedFollower.of("cache-change-feed", interval, BATCH, clock, this::poll);
    }

    /** Starts following from the current head, polling every {@code interval}. */
    public static ChangeFeedInvalidation start(ChangeFeed store, EntityCache cache, Clock clock, Duration interval) {
        ChangeFeedInvalidation f = new ChangeFeedInvalidation(store, cache, clock, interval);
        f.position.set(store.headPosition());
        f.follower.start(interval);
        return f;
    }

    /** One read of the feed; returns how many events it applied. */
    int poll() {
        List<FeedEntry> events = store.feedAfter(position.get(), BATCH);
        for (FeedEntry e : events) {
            cache.invalidate(e.entityId(), e.version());
            position.set(e.position());
            follower.followed(e.recordedAt());
        }
        return events.size();
    }

    public long position() {
        return position.get();
    }

    /** Its follower, for the node's registry of followers. */
    public FeedFollower follower() {
        return follower;
    }

    /** Commit-to-invalidation lag of the last event followed, and the largest seen. */
    public long lagMillis() {
        return follower.lagMillis();
    }

    public long maxLagMillis() {
        return follower.maxLagMillis();
    }

    public long eventsFollowed() {
        return follower.eventsFollowed();
    }

    @Override
    public void close() {
        follower.close();
    }
}
