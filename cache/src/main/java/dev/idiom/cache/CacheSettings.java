package dev.idiom.cache;

import java.nio.file.Path;

/**
 * How the DE cache is sized. Configuration keys (docs/operations.md, "Configuration"):
 *
 * @param enabled {@code cache.enabled}, default true; false uses {@link NoEntityCache}
 * @param heapEntries {@code cache.heapEntries}, default 10000 DE views on the heap
 * @param offHeapMb {@code cache.offHeapMb}, default 0 (no off-heap tier)
 * @param ttlSeconds {@code cache.ttlSeconds}, default 3600: an entry expires this long after it was written
 * @param xml {@code cache.xml}, an Ehcache XML file whose "de-view" template replaces the built-in one; null for the built-in
 */
public record CacheSettings(boolean enabled, long heapEntries, long offHeapMb, long ttlSeconds, Path xml) {
    public static final CacheSettings DEFAULTS = new CacheSettings(true, 10_000, 0, 3600, null);

    public CacheSettings {
        if (heapEntries < 1) {
            throw new IllegalArgumentException("cache.heapEntries must be at least 1, got " + heapEntries);
        }
        if (offHeapMb < 0 || ttlSeconds < 1) {
            throw new IllegalArgumentException("cache.offHeapMb must be >= 0 and cache.ttlSeconds >= 1");
        }
    }
}
