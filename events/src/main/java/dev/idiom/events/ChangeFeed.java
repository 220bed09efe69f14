package dev.idiom.events;

import java.util.List;

/** Every event in one global order that follows commit order: what read models and the engine follow. */
public interface ChangeFeed {
    /**
     * The change feed: up to {@code limit} events with a position greater than {@code after}, in
     * position order. Positions follow commit order, so a reader that continues from the last
     * position it saw never skips an event.
     */
    List<RecordedEvent> after(long after, int limit);

    /** The change feed as {@link #after}, without the events themselves: for followers that need only which entity moved. */
    default List<FeedEntry> feedAfter(long after, int limit) {
        return after(after, limit).stream().map(FeedEntry::of).toList();
    }

    /**
     * Events of one type, newest first: up to {@code limit} with a position below {@code before}
     * (read by the (type, position) index; the overall conflict listing).
     */
    List<RecordedEvent> ofType(String type, long before, int limit);

    /** The highest position committed so far (0 when the store is empty). */
    long headPosition();
}
