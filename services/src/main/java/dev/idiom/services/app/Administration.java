package dev.idiom.services.app;

import dev.idiom.cache.CacheStatistics;
import dev.idiom.cache.ChangeFeedInvalidation;
import dev.idiom.cache.search.SearchFeed;
import dev.idiom.cache.EntityCache;
import dev.idiom.events.EventStore;
import dev.idiom.events.GroupCommit;
import dev.idiom.events.RebuildReport;
import dev.idiom.db.Database;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * What admins and operators ask of the running system: its figures (cache, change feed, group
 * commit, search index), the store's head, the rebuild check and the search index rebuild. The admin pages and the command line come
 * here instead of reaching the store, cache or feed themselves.
 */
public final class Administration {
    private final EventStore store;
    private final EntityCache cache;
    private final ChangeFeedInvalidation feed;
    private final SearchFeed search;
    private final Supplier<Database.PoolFigures> pool;

    /**
     * @param feed null when this node follows no change feed (cache off)
     * @param pool the connection pool's figures
     */
    public Administration(EventStore store, EntityCache cache, ChangeFeedInvalidation feed, SearchFeed search, Supplier<Database.PoolFigures> pool) {
        this.search = search;
        this.pool = pool;
        this.store = store;
        this.cache = cache;
        this.feed = feed;
    }

    /** The DE cache: which implementation, and its counters. */
    public record CacheFigures(String implementation, long hits, long misses, double hitRatio, long evictions, long size, long invalidations) {}

    /** The change feed: the store's head and, when this node follows it, how far and how late. */
    public record FeedFigures(long headPosition, boolean followed, long followedPosition, long eventsFollowed, long lastLagMillis, long maxLagMillis) {}

    /** Group commit: how many appends shared each durable commit (null figures when the store does not batch). */
    public record CommitFigures(long batches, long appends, double meanBatch, long largestBatch) {}

    /** The database connection pool: in use, idle, open, its maximum, and requests waiting for a connection. */
    public record PoolFigures(int active, int idle, int total, int max, int waiting) {}

    /** Every figure at once, for the admin pages. */
    public record Figures(CacheFigures cache, FeedFigures feed, CommitFigures commits, SearchFeed.Figures search, PoolFigures pool) {
        /** DEs in the search index (for the protocol adapters, which do not reach the cache module's types). */
        public long searchDocuments() {
            return search.documents();
        }

        /** Commit to searchable, p99 over the search feed's window, ms. */
        public long searchLagP99Millis() {
            return search.p99LagMillis();
        }
    }

    public Figures figures() {
        CacheStatistics c = cache.statistics();
        CacheFigures cacheFigures = new CacheFigures(cache.name(), c.hits(), c.misses(), c.hitRatio(), c.evictions(), c.size(), c.invalidations());
        FeedFigures feedFigures = feed == null ? new FeedFigures(store.headPosition(), false, 0, 0, 0, 0)
                : new FeedFigures(store.headPosition(), true, feed.position(), feed.eventsFollowed(), feed.lagMillis(), feed.maxLagMillis());
        CommitFigures commits = null;
        if (store instanceof GroupCommit g) {
            GroupCommit.Stats s = g.stats();
            commits = new CommitFigures(s.batches(), s.appends(), s.meanBatch(), s.largestBatch());
        }
        Database.PoolFigures p = pool.get();
        return new Figures(cacheFigures, feedFigures, commits, search.figures(), new PoolFigures(p.active(), p.idle(), p.total(), p.max(), p.waiting()));
    }

    /** The highest position committed to the store. */
    public long headPosition() {
        return store.headPosition();
    }

    /** Rebuilds the search index from events while the current one keeps answering; completes when the new one is in use. */
    public CompletableFuture<SearchFeed.Rebuild> rebuildSearchIndex() {
        return search.rebuild();
    }

    /** Refolds every DE from its events and compares with the stored projection. */
    public RebuildReport verifyProjections() {
        return store.verifyProjections();
    }
}
