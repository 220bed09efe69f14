package dev.idiom.services.app;

import dev.idiom.cache.EntityCache;
import dev.idiom.cache.SearchFeed;
import dev.idiom.events.DigitalEntity;
import dev.idiom.events.EntitySnapshot;
import dev.idiom.events.EventCodec;
import dev.idiom.events.EventStore;
import dev.idiom.events.InvalidValueException;
import dev.idiom.events.RecordedEvent;
import dev.idiom.events.SearchPage;
import dev.idiom.events.SearchQuery;
import dev.idiom.events.UnknownEntityException;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/** The read use cases: MoreInfo (from cache or database), history, as-of, search, change feed. */
public final class EntityReads {
    private final EventStore store;
    private final EntityCache cache;
    private final SearchFeed search;
    private final EventCodec codec;

    public EntityReads(EventStore store, EntityCache cache, SearchFeed search, EventCodec codec) {
        this.store = store;
        this.cache = cache;
        this.search = search;
        this.codec = codec;
    }

    /** MoreInfo: the current DE. The cache path reads through; the DB path bypasses the cache. */
    public EntitySnapshot describe(UUID id, ReadPath path) {
        if (path == ReadPath.CACHE) {
            Optional<EntitySnapshot> hit = cache.get(id);
            if (hit.isPresent()) {
                return hit.get();
            }
        }
        EntitySnapshot snapshot = EntitySnapshot.of(store.loadStored(id).orElseThrow(() -> new UnknownEntityException(id)), codec);
        if (path == ReadPath.CACHE) {
            cache.offer(snapshot);
        }
        return snapshot;
    }

    public DigitalEntity asOfVersion(UUID id, int version) {
        return store.asOfVersion(id, version);
    }

    public DigitalEntity asOfTime(UUID id, Instant time) {
        return store.asOfTime(id, time);
    }

    public List<RecordedEvent> history(UUID id) {
        List<RecordedEvent> events = store.history(id);
        if (events.isEmpty()) {
            throw new UnknownEntityException(id);
        }
        return events;
    }

    /** Ranked search with facets, from the search index, which has this node's writes (see {@link SearchFeed}). */
    public SearchPage search(SearchQuery query) {
        return search.search(query);
    }

    /** The change feed: events after a position, at most {@code limit} (1–1000). */
    public List<RecordedEvent> changes(long after, int limit) {
        if (after < 0) {
            throw new InvalidValueException("after must be 0 or a position this service gave out, got " + after);
        }
        if (limit < 1 || limit > 1000) {
            throw new InvalidValueException("limit must be between 1 and 1000, got " + limit);
        }
        return store.after(after, limit);
    }

    /** The change feed's last position: a peer whose cursor is beyond it is talking to another instance. */
    public long head() {
        return store.headPosition();
    }

    /** The saturation baseline: does nothing. */
    public void empty() {}
}
