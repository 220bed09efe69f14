package dev.idiom.events;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * Every follower of this node, where each stands, and where its position is kept. A position is
 * kept with the work it marks, committed together, so the two never disagree after a crash (the
 * rule Axon's token store follows when it shares the projection's transaction): the search
 * index's in its Lucene commit, the mirror planner's in the {@code mirror_plan} rows it advances
 * with the outbox rows it plans, the cache's and the live console's in memory (they start at the
 * head: an empty cache needs no replay). This registry reads them all, for
 * {@code GET /api/consistency}; a new reader is a {@link FeedFollower} and one {@link #add}.
 */
public final class Followers {
    /**
     * One follower as it stands.
     *
     * @param position the feed position it has followed to (null: it follows no feed position — the outbox, a clock)
     * @param behind events committed past its position (null as above)
     * @param keptIn where its position survives a restart
     */
    public record Standing(String name, String keptIn, Long position, Long behind, long eventsFollowed, long lastLagMillis, long maxLagMillis,
                           long failures, long lastRoundAtMillis) {}

    private record Entry(FeedFollower follower, String keptIn, Supplier<Long> position) {}

    private final LongSupplier head;
    private final List<Entry> all = new CopyOnWriteArrayList<>();

    /** @param head the store's head position, that {@code behind} is counted from */
    public Followers(LongSupplier head) {
        this.head = head;
    }

    /** Registers {@code follower}, whose feed position {@code position} reads (null, or null read: it follows none), kept in {@code keptIn}. */
    public FeedFollower add(FeedFollower follower, String keptIn, Supplier<Long> position) {
        all.add(new Entry(follower, keptIn, position));
        return follower;
    }

    /** Each follower, in the order they were added. */
    public List<Standing> standings() {
        long h = head.getAsLong();
        return all.stream().map(e -> {
            Long at = e.position() == null ? null : e.position().get();
            FeedFollower f = e.follower();
            return new Standing(f.name(), e.keptIn(), at, at == null ? null : Math.max(0, h - at), f.eventsFollowed(), f.lagMillis(), f.maxLagMillis(),
                    f.failures(), f.lastRoundAtMillis());
        }).toList();
    }
}
