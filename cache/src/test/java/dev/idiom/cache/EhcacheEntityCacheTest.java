package dev.idiom.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idiom.cache.ehcache.EhcacheEntityCache;
import dev.idiom.events.DigitalEntity;
import dev.idiom.events.EntitySnapshot;
import dev.idiom.events.EventCodec;
import dev.idiom.events.Field;
import dev.idiom.events.Metadata;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class EhcacheEntityCacheTest {
    private final EventCodec codec = new EventCodec();
    private final UUID id = UUID.randomUUID();

    private EntitySnapshot at(UUID id, int version) {
        Instant t = Instant.parse("2026-01-01T00:00:00Z");
        DigitalEntity de = new DigitalEntity(id, version, Metadata.EMPTY.with(Field.TITLE, "v" + version), java.util.List.of(), t, t.plusSeconds(version));
        return new EntitySnapshot(de, codec.entity(de).getBytes(StandardCharsets.UTF_8));
    }

    private static Optional<Integer> version(EntityCache cache, UUID id) {
        return cache.get(id).map(EntitySnapshot::version);
    }

    @Test
    void anOlderSnapshotNeverReplacesANewerOne() {
        try (EntityCache cache = new EhcacheEntityCache(CacheSettings.DEFAULTS)) {
            cache.offer(at(id, 2));
            cache.offer(at(id, 1));
            assertEquals(Optional.of(2), version(cache, id));
            cache.offer(at(id, 3));
            assertEquals(Optional.of(3), version(cache, id));
        }
    }

    @Test
    void anInvalidatedEntryIsNotServedAndRefusesOlderSnapshots() {
        try (EntityCache cache = new EhcacheEntityCache(CacheSettings.DEFAULTS)) {
            cache.offer(at(id, 2));
            cache.invalidate(id, 3);
            assertEquals(Optional.empty(), version(cache, id));
            cache.offer(at(id, 2)); // a slow reader that read version 2 before the write
            assertEquals(Optional.empty(), version(cache, id));
            cache.offer(at(id, 3));
            assertEquals(Optional.of(3), version(cache, id));
            cache.invalidate(id, 3); // the feed reporting what we already hold changes nothing
            assertEquals(Optional.of(3), version(cache, id));
        }
    }

    @Test
    void statisticsCountHitsMissesAndEvictions() {
        try (EntityCache cache = new EhcacheEntityCache(new CacheSettings(true, 5, 0, 3600, null))) {
            // hit and miss first: a 5-entry heap may evict any entry, even the one just offered
            cache.offer(at(id, 1));
            cache.get(id);
            cache.get(UUID.randomUUID());
            for (int i = 0; i < 50; i++) {
                cache.offer(at(UUID.randomUUID(), 1));
            }
            CacheStatistics s = cache.statistics();
            assertEquals(1, s.hits());
            assertEquals(1, s.misses());
            assertTrue(s.evictions() > 0, "a 5-entry heap evicted: " + s);
            assertTrue(s.size() <= 5, "size " + s.size());
        }
    }

    @Test
    void anOffHeapTierHoldsCopiesThatStillCompareByContent() {
        try (EntityCache cache = new EhcacheEntityCache(new CacheSettings(true, 2, 8, 3600, null))) {
            for (int i = 0; i < 20; i++) {
                cache.offer(at(UUID.randomUUID(), 1));
            }
            cache.offer(at(id, 1));
            for (int i = 0; i < 20; i++) {
                cache.offer(at(UUID.randomUUID(), 1)); // push ours down to off-heap
            }
            cache.offer(at(id, 2));
            assertEquals(Optional.of(2), version(cache, id));
        }
    }

    @Test
    void theNoOpTwinAlwaysMisses() {
        try (EntityCache cache = new NoEntityCache()) {
            cache.offer(at(id, 1));
            assertEquals(Optional.empty(), cache.get(id));
            assertEquals(1, cache.statistics().misses());
        }
    }
}
