package dev.idiom.cache;

/** Counters of a cache since start. */
public record CacheStatistics(long hits, long misses, long evictions, long size, long invalidations) {
    public double hitRatio() {
        long all = hits + misses;
        return all == 0 ? 0 : (double) hits / all;
    }
}
