package dev.idiom.cache.ehcache;

import dev.idiom.cache.CacheSettings;
import dev.idiom.cache.CacheStatistics;
import dev.idiom.cache.EntityCache;
import dev.idiom.events.EntitySnapshot;
import java.net.MalformedURLException;
import java.net.URL;
import java.time.Duration;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.atomic.LongAdder;
import org.ehcache.Cache;
import org.ehcache.CacheManager;
import org.ehcache.config.builders.CacheConfigurationBuilder;
import org.ehcache.config.builders.CacheManagerBuilder;
import org.ehcache.config.builders.ExpiryPolicyBuilder;
import org.ehcache.config.builders.ResourcePoolsBuilder;
import org.ehcache.config.units.EntryUnit;
import org.ehcache.config.units.MemoryUnit;
import org.ehcache.core.internal.statistics.DefaultStatisticsService;
import org.ehcache.core.spi.service.StatisticsService;
import org.ehcache.core.statistics.TierStatistics;
import org.ehcache.xml.XmlConfiguration;

/** The DE view cache on Ehcache 3, configured from XML (template "de-view"). */
public final class EhcacheEntityCache implements EntityCache {
    private static final String CACHE = "de-views";

    private final CacheManager manager;
    private final Cache<UUID, CachedEntity> cache;
    private final StatisticsService statistics;
    private final LongAdder hits = new LongAdder();
    private final LongAdder misses = new LongAdder();
    private final LongAdder invalidations = new LongAdder();

    public EhcacheEntityCache(CacheSettings settings) {
        try {
            URL xmlUrl = settings.xml() != null ? settings.xml().toUri().toURL() : EhcacheEntityCache.class.getResource("/idiom-ehcache.xml");
            XmlConfiguration xml = new XmlConfiguration(xmlUrl);
            CacheConfigurationBuilder<UUID, CachedEntity> config =
                    xml.newCacheConfigurationBuilderFromTemplate("de-view", UUID.class, CachedEntity.class);
            if (config == null) {
                throw new IllegalArgumentException("the Ehcache XML " + xmlUrl + " has no cache-template named de-view");
            }
            if (settings.xml() == null) {
                ResourcePoolsBuilder pools = ResourcePoolsBuilder.newResourcePoolsBuilder().heap(settings.heapEntries(), EntryUnit.ENTRIES);
                if (settings.offHeapMb() > 0) {
                    pools = pools.offheap(settings.offHeapMb(), MemoryUnit.MB);
                }
                config = config.withResourcePools(pools)
                        .withExpiry(ExpiryPolicyBuilder.timeToLiveExpiration(Duration.ofSeconds(settings.ttlSeconds())));
            }
            statistics = new DefaultStatisticsService();
            manager = CacheManagerBuilder.newCacheManagerBuilder().using(statistics).withCache(CACHE, config).build(true);
            cache = manager.getCache(CACHE, UUID.class, CachedEntity.class);
        } catch (MalformedURLException | ReflectiveOperationException e) {
            throw new IllegalArgumentException("cannot configure the DE cache: " + e.getMessage(), e);
        }
    }

    @Override
    public Optional<EntitySnapshot> get(UUID id) {
        CachedEntity entry = cache.get(id);
        if (entry == null || entry.snapshot() == null) {
            misses.increment();
            return Optional.empty();
        }
        hits.increment();
        return Optional.of(entry.snapshot());
    }

    @Override
    public void offer(EntitySnapshot snapshot) {
        UUID id = snapshot.entity().id();
        CachedEntity fresh = new CachedEntity(snapshot.version(), snapshot);
        // compare-and-set until we either stored it or saw something at least as new
        for (int attempt = 0; attempt < 8; attempt++) {
            CachedEntity current = cache.get(id);
            if (current == null) {
                if (cache.putIfAbsent(id, fresh) == null) {
                    return;
                }
            } else if (current.version() > snapshot.version()
                    || (current.version() == snapshot.version() && current.snapshot() != null)) {
                return;
            } else if (cache.replace(id, current, fresh)) {
                return;
            }
        }
    }

    @Override
    public void invalidate(UUID id, int version) {
        invalidations.increment();
        CachedEntity marker = CachedEntity.staleAt(version);
        for (int attempt = 0; attempt < 8; attempt++) {
            CachedEntity current = cache.get(id);
            if (current == null) {
                if (cache.putIfAbsent(id, marker) == null) {
                    return;
                }
            } else if (current.version() >= version) {
                return;
            } else if (cache.replace(id, current, marker)) {
                return;
            }
        }
        cache.remove(id); // contended: dropping the entry is always safe for this node's next read
    }

    @Override
    public CacheStatistics statistics() {
        org.ehcache.core.statistics.CacheStatistics s = statistics.getCacheStatistics(CACHE);
        long size = 0;
        for (TierStatistics tier : s.getTierStatistics().values()) {
            size = Math.max(size, tier.getMappings());
        }
        return new CacheStatistics(hits.sum(), misses.sum(), s.getCacheEvictions(), size, invalidations.sum());
    }

    @Override
    public String name() {
        return "ehcache";
    }

    @Override
    public void close() {
        manager.close();
    }
}
