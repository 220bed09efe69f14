package dev.idiom.events;

import java.time.Instant;
import java.util.UUID;

/**
 * One entry of the change feed without its event: which entity reached which version, where and
 * when. What a follower that only marks or re-reads entities needs (the cache, the search index):
 * reading and decoding every payload to learn this cost an import a second read of everything it wrote.
 *
 * @param position its place in the global order (follows commit order)
 */
public record FeedEntry(long position, UUID entityId, int version, Instant recordedAt) {
    public static FeedEntry of(RecordedEvent e) {
        return new FeedEntry(e.position(), e.entityId(), e.version(), e.recordedAt());
    }
}
