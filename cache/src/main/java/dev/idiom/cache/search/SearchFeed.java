package dev.idiom.cache.search;

import dev.idiom.db.TimeSource;
import dev.idiom.events.DigitalEntity;
import dev.idiom.events.EventStore;
import dev.idiom.events.FeedEntry;
import dev.idiom.events.FeedFollower;
import dev.idiom.events.SearchPage;
import dev.idiom.events.SearchQuery;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.HdrHistogram.Histogram;

/**
 * Keeps the search index a projection of the event store: follows the change feed, re-indexes
 * each changed DE at its current state (idempotent, so replaying a stretch of the feed is
 * harmless), and rebuilds from events into a fresh index while the current one keeps answering.
 *
 * <p>Freshness: a write on this node reports its position ({@link #written}); the follower indexes
 * it at its next poll, with every other write of that interval (one feed read, one load, one
 * refresh for all of them: indexing each write as it came cost UpdateDE half its rate,
 * perf/RESULTS.md). A search that needs a write not yet indexed wakes the follower at once and
 * waits, at most {@code freshWait}, until the index has reached the last position this node
 * wrote, so a caller sees its own write. Writes on other nodes arrive within one poll interval. The index's lag (commit to searchable) is kept as a distribution over
 * the last 30–60 seconds.
 */
public final class SearchFeed implements AutoCloseable {
    private static final Logger LOG = Logger.getLogger(SearchFeed.class.getName());
    private static final int BATCH = 1000;
    /**
     * A commit fsyncs, and a refresh waits for a commit under way (measured: a 5 s interval put
     * ~1.4 s stalls into the lag's p99). The index is derived: after a crash it resumes from the
     * last commit and replays the feed from there, so commits can be rare.
     */
    private static final Duration COMMIT_EVERY = Duration.ofMinutes(5);
    private static final Duration OLD_INDEX_GRACE = Duration.ofSeconds(10);

    private final EventStore store;
    private final SearchIndex.Home home;
    private final Clock clock;
    private final Duration freshWait;
    private final FeedFollower follower;
    private final Set<SearchIndex> retired = ConcurrentHashMap.newKeySet();
    private final ExecutorService rebuilder;
    private final ScheduledExecutorService committer;
    private volatile SearchIndex current;
    /** A rebuilt index waiting for the follower to catch it up and swap it in; its rebuild completes then. */
    private final AtomicReference<Built> rebuilt = new AtomicReference<>();
    private final AtomicReference<CompletableFuture<Rebuild>> rebuilding = new AtomicReference<>();
    private final AtomicLong written = new AtomicLong();
    private final Object reached = new Object();
    private volatile long searchable;
    /** Lag over the last 30–60 s: this window and the one before, so a figure read after a load run shows that run. */
    private Histogram lag = new Histogram(3_600_000L, 2);
    private Histogram lagBefore = new Histogram(3_600_000L, 2);
    private long windowStart;
    private static final long WINDOW_MILLIS = 30_000;
    private volatile Rebuild lastRebuild;
    private final AtomicLong lastLag = new AtomicLong();
    private final AtomicLong freshWaitsTimedOut = new AtomicLong();

    private record Built(SearchIndex index, Rebuild rebuild, CompletableFuture<Rebuild> done) {}

    /** What a rebuild did. */
    public record Rebuild(long entities, long millis, long position) {
        public double perSecond() {
            return millis == 0 ? entities : entities * 1000.0 / millis;
        }
    }

    /** Without following, the follower runs only when a search on this node waits for this node's writes. */
    private static final Duration ONLY_WHEN_NUDGED = Duration.ofDays(3650);

    private SearchFeed(EventStore store, SearchIndex.Home home, Clock clock, Duration interval, Duration freshWait) {
        this.store = store;
        this.home = home;
        this.clock = clock;
        this.freshWait = freshWait;
        this.follower = FeedFollower.of("search-feed", interval, BATCH, clock, this::round);
        this.rebuilder = Executors.newSingleThreadExecutor(r -> daemon(r, "search-rebuild"));
        java.util.concurrent.ScheduledThreadPoolExecutor commits = new java.util.concurrent.ScheduledThreadPoolExecutor(1, r -> daemon(r, "search-commit"));
        commits.setExecuteExistingDelayedTasksAfterShutdownPolicy(false); // an old index waiting to retire is closed by close() itself
        this.committer = commits;
    }

    /**
     * Opens the current index and follows the feed from where it left off, polling every
     * {@code interval}. An index that is empty while the store is not, or that is ahead of the
     * store (another database), is rebuilt from events in the background.
     */
    public static SearchFeed start(EventStore store, SearchIndex.Home home, Clock clock, Duration interval, Duration freshWait) {
        return start(store, home, clock, interval, freshWait, true);
    }

    /**
     * @param follow false for a batch command (an import) that answers no searches: the index
     *     is opened but not kept up with its writes, which the server indexes from the feed when it
     *     next runs (from the index's position), so the command's cores go to its own work; a search
     *     made anyway indexes what it needs first
     */
    public static SearchFeed start(EventStore store, SearchIndex.Home home, Clock clock, Duration interval, Duration freshWait, boolean follow) {
        SearchFeed f = new SearchFeed(store, home, clock, follow ? interval : ONLY_WHEN_NUDGED, freshWait);
        f.current = home.openCurrent();
        long head = store.headPosition();
        if (f.current.position() > head) {
            // an index of another database: never answer from it, start empty and rebuild
            LOG.warning("search index at position " + f.current.position() + " is ahead of the event store (" + head + "): discarding it");
            f.current.close();
            f.current = home.createNext();
            home.promote(f.current);
        }
        f.searchable = f.current.position();
        if (!follow) {
            f.follower.start(ONLY_WHEN_NUDGED);
            return f;
        }
        if (f.current.position() == 0 && head > 0) {
            LOG.info("search index empty, event store at position " + head + ": building it from events in the background");
            f.rebuild();
        } else if (f.current.outdated()) {
            LOG.info("search index built by an older version: rebuilding it from events in the background; it answers meanwhile");
            f.rebuild();
        }
        f.follower.start(Duration.ZERO);
        // the fsync of a commit takes its time off the follower's thread, so indexing never waits for it
        f.committer.scheduleWithFixedDelay(f::commitSafely, COMMIT_EVERY.toMillis(), COMMIT_EVERY.toMillis(), TimeUnit.MILLISECONDS);
        return f;
    }

    /** Searches the current index, after it has reached every write this node made (bounded wait). */
    public SearchPage search(SearchQuery query) {
        long want = written.get();
        if (searchable < want) {
            nudge();
            awaitSearchable(want);
        }
        return current.search(query);
    }

    /** A write on this node committed up to {@code position}: a search on this node waits for it (the next poll indexes it). */
    public void written(long position) {
        written.accumulateAndGet(position, Math::max);
    }

    /** Polls now rather than at the next interval (at most one poll waiting; once closed, the next start indexes it from the feed). */
    private void nudge() {
        follower.nudge();
    }

    private void awaitSearchable(long want) {
        long deadline = TimeSource.nanoTime() + freshWait.toNanos();
        synchronized (reached) {
            while (searchable < want) {
                long left = deadline - TimeSource.nanoTime();
                if (left <= 0) {
                    freshWaitsTimedOut.incrementAndGet();
                    LOG.warning("a search answered before this node's writes up to position " + want + " were searchable (indexed up to " + searchable
                            + " after " + freshWait.toMillis() + " ms): the index is behind");
                    return; // answer from what is indexed rather than fail the search
                }
                try {
                    reached.wait(Math.max(1, left / 1_000_000));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }

    /**
     * Rebuilds the index from events into a fresh one; searches use the current one until it is
     * ready. Completes once the new index answers searches.
     */
    public CompletableFuture<Rebuild> rebuild() {
        CompletableFuture<Rebuild> started = new CompletableFuture<>();
        CompletableFuture<Rebuild> running = rebuilding.compareAndExchange(null, started);
        if (running != null) {
            return running; // one rebuild at a time; asking again joins it
        }
        rebuilder.execute(() -> {
            try {
                rebuildNow(started);
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "search index rebuild failed: " + e.getMessage(), e);
                rebuilding.set(null);
                started.completeExceptionally(e);
            }
        });
        return started;
    }

    private void rebuildNow(CompletableFuture<Rebuild> swapped) {
        long t0 = TimeSource.nanoTime();
        long head = store.headPosition(); // the fold reads at least this much; the follower catches up the rest
        SearchIndex next = home.createNext();
        // two halves of the entity ids folded side by side (each reading and decoding its own stream of events), and
        // indexed meanwhile on two more threads (the writer takes documents from several at once), a few batches between
        ExecutorService indexer = Executors.newFixedThreadPool(2, r -> daemon(r, "search-rebuild-index"));
        ExecutorService otherHalf = Executors.newSingleThreadExecutor(r -> daemon(r, "search-rebuild-fold"));
        Semaphore inFlight = new Semaphore(8);
        List<Future<?>> pending = java.util.Collections.synchronizedList(new ArrayList<>());
        AtomicLong folded = new AtomicLong();
        long entities;
        try {
            // the entity of the middle event: ids are time-ordered, so only the store knows where its halves meet
            String split = store.entityIdOfEvent(head / 2).orElse(null);
            if (split == null) {
                entities = foldInto(null, null, next, head, indexer, inFlight, pending, folded);
            } else {
                Future<Long> high = otherHalf.submit(() -> foldInto(split, null, next, head, indexer, inFlight, pending, folded));
                entities = foldInto(null, split, next, head, indexer, inFlight, pending, folded) + high.get();
            }
            for (Future<?> f : List.copyOf(pending)) {
                f.get();
            }
            next.refresh();
        } catch (RuntimeException | InterruptedException | ExecutionException e) {
            next.close(); // its directory is not current and goes at the next start
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            Throwable cause = e instanceof ExecutionException ? e.getCause() : e;
            throw cause instanceof RuntimeException r ? r : new IllegalStateException("search index rebuild failed: " + cause.getMessage(), cause);
        } finally {
            otherHalf.shutdownNow();
            indexer.shutdown();
        }
        long millis = (TimeSource.nanoTime() - t0) / 1_000_000;
        Rebuild r = new Rebuild(entities, millis, head);
        LOG.info(String.format("search index rebuilt from events: %,d DEs in %,d ms (%,.0f DEs/s)", entities, millis, r.perSecond()));
        rebuilt.set(new Built(next, r, swapped));
        follower.nudge(); // catch up and swap on the follower's thread
    }

    /** Folds the entities with ids in [from, to) and hands them to the indexer in batches; how many. */
    @SuppressWarnings("unchecked")
    private long foldInto(String from, String to, SearchIndex into, long head, ExecutorService indexer, Semaphore inFlight, List<Future<?>> pending,
                          AtomicLong folded) {
        List<DigitalEntity>[] batch = new List[] {new ArrayList<>(BATCH)};
        long n = store.foldRange(from, to, de -> {
            batch[0].add(de);
            if (batch[0].size() == BATCH) {
                pending.add(handOff(indexer, inFlight, into, batch[0], head));
                batch[0] = new ArrayList<>(BATCH);
                if (folded.addAndGet(BATCH) % (100L * BATCH) == 0) {
                    LOG.info("search index rebuild: " + folded.get() + " DEs folded");
                }
            }
        });
        pending.add(handOff(indexer, inFlight, into, batch[0], head));
        return n;
    }

    private static Future<?> handOff(ExecutorService indexer, Semaphore inFlight, SearchIndex into, List<DigitalEntity> batch, long head) {
        inFlight.acquireUninterruptibly();
        return indexer.submit(() -> {
            try {
                into.add(batch, head); // a fresh index, and the fold yields each DE once
            } finally {
                inFlight.release();
            }
        });
    }

    /** One round of the follower: a rebuilt index caught up and swapped in, then the current one caught up (a failure: the follower's backoff). */
    private int round() {
        Built built = rebuilt.get();
        if (built != null) {
            SearchIndex next = built.index();
            catchUp(next); // should this fail, the next poll tries again
            home.promote(next);
            SearchIndex old = current;
            current = next;
            reached(next.position()); // caught up and refreshed above
            rebuilt.set(null);
            lastRebuild = built.rebuild();
            rebuilding.set(null);
            built.done().complete(built.rebuild());
            retired.add(old);
            committer.schedule(() -> retire(old), OLD_INDEX_GRACE.toMillis(), TimeUnit.MILLISECONDS); // searches still on it finish
        }
        if (current.position() > 0 || rebuilding.get() == null) { // while the first build runs, it alone indexes
            catchUp(current);
        }
        return 0; // a catch-up reads to the head itself
    }

    private void commitSafely() {
        try {
            current.commit();
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "search index commit failed; retrying next interval", e);
        }
    }

    /** Follows the feed into {@code index} up to the head, then makes it searchable. */
    private void catchUp(SearchIndex index) {
        long oldest = Long.MAX_VALUE;
        int read;
        long indexed = 0;
        do {
            List<FeedEntry> events = store.feedAfter(index.position(), BATCH);
            read = events.size();
            indexed += read;
            if (read == 0) {
                break;
            }
            Set<UUID> changed = new LinkedHashSet<>();
            for (FeedEntry e : events) {
                changed.add(e.entityId());
                oldest = Math.min(oldest, e.recordedAt().toEpochMilli());
            }
            index.put(store.loadAll(changed).values(), events.getLast().position());
        } while (read == BATCH);
        if (oldest == Long.MAX_VALUE) {
            return;
        }
        long upTo = index.refresh();
        if (index == current) {
            long late = Math.max(0, clock.millis() - oldest);
            lastLag.set(late);
            follower.followed(indexed, java.time.Instant.ofEpochMilli(oldest));
            synchronized (this) {
                rotateWindows();
                lag.recordValue(Math.min(late, lag.getHighestTrackableValue()));
            }
            reached(upTo);
        }
    }

    /** Starts a new window once this one is 30 s old; after a quiet minute, neither window holds anything older. */
    private void rotateWindows() {
        long now = clock.millis();
        if (now - windowStart >= WINDOW_MILLIS) {
            Histogram old = lagBefore;
            lagBefore = lag;
            old.reset();
            lag = old;
            if (now - windowStart >= 2 * WINDOW_MILLIS) {
                lagBefore.reset();
            }
            windowStart = now;
        }
    }

    private void reached(long position) {
        synchronized (reached) {
            searchable = position;
            reached.notifyAll();
        }
    }

    /** Its follower, for the node's registry of followers. */
    public FeedFollower follower() {
        return follower;
    }

    /** The feed position every search on this node sees (the index's, as last refreshed). */
    public long searchablePosition() {
        return searchable;
    }

    /** What an operator wants to know about the index. */
    public record Figures(long documents, long position, long lastLagMillis, long p50LagMillis, long p99LagMillis, long maxLagMillis,
                          long freshWaitsTimedOut, boolean rebuilding, long lastRebuildEntities, long lastRebuildMillis, boolean merging) {}

    public Figures figures() {
        Histogram window = new Histogram(3_600_000L, 2);
        synchronized (this) {
            rotateWindows();
            window.add(lag);
            window.add(lagBefore);
        }
        Rebuild r = lastRebuild;
        return new Figures(current.documents(), searchable, lastLag.get(), window.getValueAtPercentile(50), window.getValueAtPercentile(99),
                window.getMaxValue(), freshWaitsTimedOut.get(), rebuilding.get() != null, r == null ? 0 : r.entities(), r == null ? 0 : r.millis(), current.merging());
    }

    private void retire(SearchIndex old) {
        if (retired.remove(old)) {
            old.close();
        }
    }

    @Override
    public void close() {
        rebuilder.shutdownNow();
        committer.shutdown(); // never interrupt Lucene's IO: a commit under way finishes
        follower.close(); // the round in hand finishes, never interrupted
        try {
            committer.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        List.copyOf(retired).forEach(this::retire);
        current.close();
        Built half = rebuilt.getAndSet(null);
        if (half != null) {
            half.index().close();
            half.done().completeExceptionally(new IllegalStateException("search index closed before the rebuilt index was swapped in"));
        }
    }

    private static Thread daemon(Runnable r, String name) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        return t;
    }
}
