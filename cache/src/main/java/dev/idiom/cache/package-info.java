/**
 * The read cache of DE views: a port ({@link dev.idiom.cache.EntityCache}) with an Ehcache 3
 * adapter and a no-op twin, and the change-feed follower that keeps other nodes' caches correct.
 */
package dev.idiom.cache;
