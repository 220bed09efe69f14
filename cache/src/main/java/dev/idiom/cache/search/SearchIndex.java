package dev.idiom.cache.search;

import dev.idiom.events.DigitalEntity;
import dev.idiom.events.SearchPage;
import dev.idiom.events.SearchQuery;
import java.util.Collection;

/**
 * A ranked full-text index of DEs: a read model of the event store, fed from the change feed by
 * {@link SearchFeed} and rebuilt from events on demand. It remembers the feed position it holds.
 */
public interface SearchIndex extends AutoCloseable {

    /** One page of matches, best first, with the facets of all matches. */
    SearchPage search(SearchQuery query);

    /** Replaces these DEs' documents; with them the index holds every change up to {@code position}. */
    void put(Collection<DigitalEntity> entities, long position);

    /**
     * {@link #put} of DEs this index does not hold yet (a rebuild filling a fresh index, each DE
     * once): added without looking for an older copy to replace.
     */
    default void add(Collection<DigitalEntity> entities, long position) {
        put(entities, position);
    }

    /** The change-feed position of what was put (searchable after the next {@link #refresh}). */
    long position();

    /** Whether this index was built by an older Idiom, in a shape that still answers but slower: rebuild it. */
    default boolean outdated() {
        return false;
    }

    /** Makes what was put searchable; returns the position searches now see. */
    long refresh();

    /** Writes what was put to disk with its position, so a restart resumes from there. */
    void commit();

    /** How many DEs searches see. */
    long documents();

    /** Whether segments are being merged in the background (after a rebuild, for a while): searches cost more meanwhile. */
    default boolean merging() {
        return false;
    }

    @Override
    void close();

    /**
     * Where indexes live: the current one, and the next one a rebuild fills while the current one
     * keeps answering, until it is promoted.
     */
    interface Home {
        /** The index searches use, as the last run left it (empty at first). */
        SearchIndex openCurrent();

        /** A new, empty index beside the current one. */
        SearchIndex createNext();

        /** Makes {@code next} the one {@link #openCurrent} opens from now on. */
        void promote(SearchIndex next);
    }
}
