/**
 * The search index, a read model of the DEs: its port ({@link dev.idiom.cache.search.SearchIndex}),
 * the change-feed follower that keeps it current and answers a search only once the index holds
 * the caller's own writes ({@link dev.idiom.cache.search.SearchFeed}), and the Lucene adapter.
 */
package dev.idiom.cache.search;
