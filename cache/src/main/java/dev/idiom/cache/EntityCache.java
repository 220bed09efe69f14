package dev.idiom.cache;

import dev.idiom.events.EntitySnapshot;
import java.util.Optional;
import java.util.UUID;

/**
 * The DE view cache. Versions only move forward: an entry is replaced only by a newer version,
 * and {@link #invalidate} leaves a marker of the version that made it stale, so a slow reader can
 * never put back an older state than one already seen.
 */
public interface EntityCache extends AutoCloseable {

    /** The cached snapshot, if one is held and not marked stale. */
    Optional<EntitySnapshot> get(UUID id);

    /** Offers a snapshot read from the database or just written; kept only if newer. */
    void offer(EntitySnapshot snapshot);

    /** Marks the entry stale: anything older than {@code version} is not served or kept. */
    void invalidate(UUID id, int version);

    CacheStatistics statistics();

    /** "ehcache" or "none". */
    String name();

    @Override
    void close();
}
