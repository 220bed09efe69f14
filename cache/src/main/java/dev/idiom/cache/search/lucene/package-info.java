/** The search index on Lucene: documents by audience, the folding analyzer, ranked queries and facet counts. */
package dev.idiom.cache.search.lucene;
