/**
 * Read models, kept current from the event store's change feed: the DE view cache (a port,
 * {@link dev.idiom.cache.EntityCache}, with an Ehcache 3 adapter and a no-op twin, and the
 * follower that keeps other nodes' caches correct) and the search index
 * ({@link dev.idiom.cache.search}).
 */
package dev.idiom.cache;
