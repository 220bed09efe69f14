package dev.idiom.services.app;

import dev.idiom.services.citations.CitationFormat;
import dev.idiom.services.citations.Citations;
import dev.idiom.cache.EntityCache;
import dev.idiom.cache.search.SearchFeed;
import dev.idiom.events.DigitalEntity;
import dev.idiom.events.EntitySnapshot;
import dev.idiom.events.EventCodec;
import dev.idiom.events.EventStore;
import dev.idiom.events.InvalidValueException;
import dev.idiom.events.RecordedEvent;
import dev.idiom.events.SearchPage;
import dev.idiom.events.SearchQuery;
import dev.idiom.events.UnknownEntityException;
import dev.idiom.events.Visibility;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/** The read use cases: MoreInfo (from cache or database), history, as-of, search, change feed. */
public final class EntityReads {
    private final EventStore store;
    private final EntityCache cache;
    private final SearchFeed search;
    private final EventCodec codec;

    private final Citations citations = new Citations();
    private final BibliographyFormatting bibliographies;

    public EntityReads(EventStore store, EntityCache cache, SearchFeed search, EventCodec codec, BibliographyFormatting bibliographies) {
        this.store = store;
        this.cache = cache;
        this.search = search;
        this.codec = codec;
        this.bibliographies = bibliographies;
    }

    public EntityReads(EventStore store, EntityCache cache, SearchFeed search, EventCodec codec) {
        this(store, cache, search, codec, null);
    }

    /**
     * DEs the caller was shown (by {@link #describe}, {@link #asOf} or {@link #search}) as citations
     * in {@code format}; {@code single}: the answer about one DE. A bibliography is formatted within
     * the caller's share ({@link BibliographyFormatting}).
     *
     * @param style and {@code locale}: a CSL style and locale for a bibliography (null: apa, en-US)
     */
    /**
     * The caller's turn at formatting a bibliography, taken before the search that leads to one so a
     * refused request costs nothing (see {@link BibliographyFormatting#turn}); for other formats, none.
     */
    public BibliographyFormatting.Held formattingTurn(CitationFormat format, Caller caller) {
        return format == CitationFormat.BIBLIOGRAPHY && bibliographies != null ? bibliographies.turn(caller) : () -> { };
    }

    public String cite(List<DigitalEntity> shown, boolean single, CitationFormat format, String style, String locale, Caller caller) {
        if (format == CitationFormat.BIBLIOGRAPHY && bibliographies != null) {
            return bibliographies.format(shown, style, locale, caller);
        }
        return citations.render(format, shown, single, style, locale);
    }

    /**
     * MoreInfo as {@code caller} may see it ({@link Visibility}): a DE hidden from the caller does
     * not exist; one with private parts shows only its public ones.
     */
    public EntitySnapshot describe(UUID id, ReadPath path, Caller caller) {
        EntitySnapshot whole = describe(id, path);
        refuseUnlessShown(whole.entity(), caller);
        EntityLifecycle.refuseUnlessLive(whole.entity()); // in the trash or purged: gone; merged: answered by its winner
        if (caller.seesPrivate() || !Visibility.restricted(whole.entity())) {
            return whole;
        }
        return EntitySnapshot.of(Visibility.publicView(whole.entity()), codec);
    }

    /**
     * A DE hidden from the caller does not exist, whatever its state: one answer (404, the body of an
     * id never given out) for a hidden DE live, in the trash, purged, merged away, or merged into one
     * hidden from the caller — no dates, versions or winner's id to tell it from none.
     */
    private void refuseUnlessShown(DigitalEntity de, Caller caller) {
        if (caller.seesPrivate()) {
            return;
        }
        DigitalEntity at = de;
        for (int hops = 0; hops < 32; hops++) { // merges chain; a winner is always older than its loser's merge, so the chain ends
            if (Visibility.hidden(at)) {
                throw new UnknownEntityException(de.id());
            }
            if (at.lifecycle().mergedInto() == null) {
                return;
            }
            at = describe(at.lifecycle().mergedInto(), ReadPath.CACHE).entity();
        }
    }

    /** A past state as {@code caller} may see it: nothing of a DE hidden from the caller now or then. */
    public DigitalEntity asOf(UUID id, Integer version, Instant time, Caller caller) {
        refuseUnlessShown(describe(id, ReadPath.CACHE).entity(), caller); // before the store says which versions there are
        DigitalEntity past = version != null ? store.asOfVersion(id, version) : store.asOfTime(id, time);
        if (caller.seesPrivate()) {
            return Visibility.withoutShadows(past);
        }
        if (Visibility.hidden(past)) {
            throw new UnknownEntityException(id);
        }
        return Visibility.publicView(past);
    }

    /**
     * The DE's events as {@code caller} may see them: none of a DE hidden from the caller; of a DE
     * with private parts, when and of which kind each event was, but neither its content nor its source.
     */
    public List<FeedEvent> history(UUID id, Caller caller) {
        List<RecordedEvent> events = history(id);
        Disclosure disclosure = disclosure(id, caller);
        if (disclosure == Disclosure.NONE) {
            throw new UnknownEntityException(id);
        }
        return events.stream().map(e -> new FeedEvent(e, disclosure == Disclosure.OUTLINE)).toList();
    }

    /** How much of a DE's events a caller may see. */
    private enum Disclosure { WHOLE, OUTLINE, NONE }

    private Disclosure disclosure(UUID id, Caller caller) {
        if (caller.seesPrivate()) {
            return Disclosure.WHOLE;
        }
        DigitalEntity now;
        try {
            now = describe(id, ReadPath.CACHE).entity();
            refuseUnlessShown(now, caller);
        } catch (UnknownEntityException gone) {
            return Disclosure.NONE;
        }
        return Visibility.restricted(now) ? Disclosure.OUTLINE : Disclosure.WHOLE;
    }

    /**
     * One event as a caller may see it.
     *
     * @param withheld its content and source are not for this caller (the DE has private parts)
     */
    public record FeedEvent(RecordedEvent event, boolean withheld) {}

    /** A page of the change feed: the events the caller may see, and where the next page starts (past those it may not). */
    public record FeedPage(List<FeedEvent> events, long next) {}

    /**
     * The change feed as {@code caller} may see it: events of DEs hidden from the caller are left
     * out, those of DEs with private parts carry no content.
     */
    public FeedPage changes(long after, int limit, Caller caller) {
        List<RecordedEvent> events = changes(after, limit);
        long next = events.isEmpty() ? after : events.getLast().position();
        Map<UUID, Disclosure> seen = new HashMap<>();
        List<FeedEvent> shown = new ArrayList<>();
        for (RecordedEvent e : events) {
            Disclosure d = seen.computeIfAbsent(e.entityId(), id -> disclosure(id, caller));
            if (d != Disclosure.NONE) {
                shown.add(new FeedEvent(e, d == Disclosure.OUTLINE));
            }
        }
        return new FeedPage(shown, next);
    }

    /** Conflicts and provenance of a DE as {@code caller} may see them: only about fields it is shown. */
    public DigitalEntity shownTo(UUID id, Caller caller) {
        return describe(id, ReadPath.CACHE, caller).entity();
    }

    /** MoreInfo of the whole DE, whoever asks (the engine's and the writers' view). */
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

    /** Ranked search with facets, from the search index, which has this node's writes (see {@link SearchFeed}); the query says whether it may see private DEs. */
    public SearchPage search(SearchQuery query) {
        return search.search(query);
    }

    /** A search as {@code caller} may see it: DEs hidden from it are not found, counted or faceted. */
    public SearchPage search(SearchQuery query, Caller caller) {
        return search.search(query.seeingPrivate(caller.seesPrivate()));
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
