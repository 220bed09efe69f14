package dev.idiom.events;

import dev.idiom.db.TimeSource;
import dev.idiom.db.DbTime;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * Group commit in front of any event store: one writer thread takes whatever appends are waiting
 * (up to {@code maxBatch}), writes them with {@link EventStore#appendAll} in one transaction and
 * one durable commit, then answers each caller. Concurrent writers to different entities share
 * a redo-log flush instead of queueing behind each other's (the sequence row that keeps positions
 * in commit order is locked once per batch, not once per append). A stale append is refused
 * alone; its batch-mates commit. Reads go straight to the store.
 *
 * <p>A single caller pays one thread hand-off (tens of microseconds); a caller whose append was
 * acknowledged has it on disk, as without batching.
 */
public final class GroupCommit implements EventStore, AutoCloseable {
    private record Pending(Append append, CompletableFuture<AppendOutcome> done) {}

    /** Batches and appends written so far, and the largest batch: the measure of how much commits are shared. */
    public record Stats(long batches, long appends, long largestBatch) {
        public double meanBatch() {
            return batches == 0 ? 0 : (double) appends / batches;
        }
    }

    private final EventStore store;
    private final int maxBatch;
    private final BlockingQueue<Pending> waiting = new LinkedBlockingQueue<>();
    private final Thread writer;
    private final AtomicLong batches = new AtomicLong();
    private final AtomicLong appends = new AtomicLong();
    private final AtomicLong largest = new AtomicLong();
    private volatile boolean closed;
    private final CommitAnnouncements announcements = new CommitAnnouncements();

    public GroupCommit(EventStore store, int maxBatch) {
        if (maxBatch < 1) {
            throw new IllegalArgumentException("a batch holds at least one append");
        }
        this.store = store;
        this.maxBatch = maxBatch;
        this.writer = Thread.ofPlatform().name("idiom-group-commit").daemon().start(this::write);
    }

    @Override
    public List<AppendOutcome> appendAll(List<Append> requests) {
        if (closed) {
            throw new EventStoreException("the event store is closing; nothing was written", null);
        }
        List<CompletableFuture<AppendOutcome>> futures = new ArrayList<>(requests.size());
        for (Append a : requests) {
            Pending p = new Pending(a, new CompletableFuture<>());
            futures.add(p.done());
            waiting.add(p); // one caller's appends stay in order: chained appends to one entity work
        }
        List<AppendOutcome> out = new ArrayList<>(futures.size());
        long start = TimeSource.nanoTime();
        try {
            for (CompletableFuture<AppendOutcome> f : futures) {
                try {
                    out.add(f.join());
                } catch (CompletionException e) {
                    throw e.getCause() instanceof RuntimeException r ? r : e;
                }
            }
        } finally {
            DbTime.since(start); // the writer's commit, on the caller's account
        }
        announcements.announce(out); // on the caller's thread: the one writer thread does no listener's work
        return out;
    }

    /** Listeners of this store's commits (not the wrapped store's, which commits on the writer thread and has none). */
    @Override
    public void onCommit(CommitListener listener) {
        announcements.add(listener);
    }

    private void write() {
        List<Pending> batch = new ArrayList<>(maxBatch);
        while (!closed || !waiting.isEmpty()) {
            try {
                Pending first = waiting.poll(100, TimeUnit.MILLISECONDS);
                if (first == null) {
                    continue;
                }
                batch.add(first);
                waiting.drainTo(batch, maxBatch - 1);
                commit(batch);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            } catch (Error fatal) {
                closed = true; // the writer is gone: refuse appends rather than let callers wait forever
                failWaiting("the event store's writer failed (" + fatal + "); nothing was written");
                throw fatal;
            } finally {
                batch.clear();
            }
        }
        failWaiting("the event store closed; nothing was written");
    }

    private void failWaiting(String why) {
        Pending left;
        while ((left = waiting.poll()) != null) {
            left.done().completeExceptionally(new EventStoreException(why, null));
        }
    }

    private void commit(List<Pending> batch) {
        List<AppendOutcome> outcomes;
        try {
            outcomes = store.appendAll(batch.stream().map(Pending::append).toList());
        } catch (RuntimeException failed) {
            batch.forEach(p -> p.done().completeExceptionally(failed));
            return;
        } catch (Error fatal) {
            batch.forEach(p -> p.done().completeExceptionally(fatal));
            throw fatal;
        }
        batches.incrementAndGet();
        appends.addAndGet(batch.size());
        largest.accumulateAndGet(batch.size(), Math::max);
        for (int i = 0; i < batch.size(); i++) {
            batch.get(i).done().complete(outcomes.get(i));
        }
    }

    public Stats stats() {
        return new Stats(batches.get(), appends.get(), largest.get());
    }

    /** Stops taking appends, writes those already waiting, and stops the writer. */
    @Override
    public void close() {
        closed = true;
        try {
            writer.join(30_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public Optional<DigitalEntity> load(UUID entityId) {
        return store.load(entityId);
    }

    @Override
    public Optional<String> loadStored(UUID entityId) {
        return store.loadStored(entityId);
    }

    @Override
    public List<RecordedEvent> history(UUID entityId) {
        return store.history(entityId);
    }

    @Override
    public List<RecordedEvent> historyUpTo(UUID entityId, int maxVersion, Instant until) {
        return store.historyUpTo(entityId, maxVersion, until);
    }

    @Override
    public List<RecordedEvent> after(long after, int limit) {
        return store.after(after, limit);
    }

    @Override
    public List<FeedEntry> feedAfter(long after, int limit) {
        return store.feedAfter(after, limit);
    }

    @Override
    public List<RecordedEvent> ofType(String type, long before, int limit) {
        return store.ofType(type, before, limit);
    }

    @Override
    public long headPosition() {
        return store.headPosition();
    }

    @Override
    public long foldRange(String from, String to, Consumer<DigitalEntity> each) {
        return store.foldRange(from, to, each);
    }

    @Override
    public Optional<String> entityIdOfEvent(long n) {
        return store.entityIdOfEvent(n);
    }

    @Override
    public Map<MatchKeys.Key, List<UUID>> findKeys(Collection<MatchKeys.Key> keys) {
        return store.findKeys(keys);
    }

    @Override
    public Map<UUID, DigitalEntity> loadAll(Collection<UUID> entityIds) {
        return store.loadAll(entityIds);
    }

    @Override
    public RebuildReport verifyProjections() {
        return store.verifyProjections();
    }
}
