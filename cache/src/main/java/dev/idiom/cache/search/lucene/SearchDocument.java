package dev.idiom.cache.search.lucene;

import dev.idiom.events.Author;
import dev.idiom.events.DigitalEntity;
import dev.idiom.events.EventCodec;
import dev.idiom.events.Metadata;
import dev.idiom.events.Normalized;
import dev.idiom.events.Replica;
import dev.idiom.events.Visibility;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.FieldType;
import org.apache.lucene.document.IntField;
import org.apache.lucene.document.LongField;
import org.apache.lucene.document.SortedDocValuesField;
import org.apache.lucene.document.SortedSetDocValuesField;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.IndexOptions;
import org.apache.lucene.util.BytesRef;

/**
 * A DE as the index holds it: ranked text fields, exact keys for the filters (folded as the old
 * SQL keys were, so {@code tag=} and {@code author=} keep their meaning), facet values, the id for
 * the stable order, and the DE's JSON so a page needs no database read.
 */
final class SearchDocument {
    static final String ID = "id";
    static final String JSON = "json";
    /**
     * The id's first 64 bits, sign bit flipped so signed order is the id's order (a point and a doc value):
     * sorting by it, then by the id, gives the id order, and Lucene can skip documents that cannot reach a
     * page by a numeric sort key, which it cannot by a string one.
     */
    static final String ID_HIGH = "id_high";
    static final String TITLE = "title";
    static final String AUTHORS = "authors";
    static final String VENUE = "venue";
    static final String ABSTRACT = "abstract";
    static final String TAGS = "tags";
    static final String NOTES = "notes";
    /** Title, authors, tags and venue in one field: typos and prefixes expand against one term dictionary, not four. */
    static final String SHORT = "short";
    /**
     * The title's neighbouring words, two at a time, one term each ("optimistic replication"): the query's words in
     * that order in the title rank higher, found by term lookups instead of a phrase query's position checks (which
     * cost a two-word search at a million DEs more than all else).
     */
    static final String TITLE_PAIRS = "title_pairs";
    private static final FieldType PAIRS = pairs();
    /** The whole title folded, one term: an exact title match ranks first. */
    static final String TITLE_EXACT = "title_exact";
    static final String TAG_KEY = "tag_key";
    static final String AUTHOR_KEY = "author_key";
    static final String VENUE_KEY = "venue_key";
    static final String TYPE_KEY = "type_key";
    static final String TOOL_KEY = "tool_key";

    static final String YEAR = "year";
    /** Facet values (doc values), keyed by the facet's name in the answer. */
    static final String FACET_PREFIX = "facet_";
    /** Lucene's limit on one indexed term or doc value is 32,766 bytes; keys beyond this are clipped alike at query time. */
    private static final int MAX_KEY = 1000;

    /**
     * Who a document is for: a DE with nothing private has one document, for everyone; a DE hidden from
     * keys without the private right has one, for keys with it; a DE with private parts has two — the
     * whole DE for keys with the right, its public view ({@link Visibility#publicView}) for the others —
     * so that a search by either finds, counts and facets exactly what that key may see.
     */
    static final String AUDIENCE = "audience";
    static final String EVERYONE = "all";
    static final String PRIVATE_RIGHT = "private";
    static final String PUBLIC_ONLY = "public";

    private SearchDocument() {}

    /** The documents of one DE (see {@link #AUDIENCE}); the stored JSON is the view an answer gives, without shadows. */
    static List<Document> of(DigitalEntity de, EventCodec codec) {
        if (!Visibility.restricted(de)) {
            return List.of(of(de, codec.view(de), EVERYONE));
        }
        Document whole = of(de, codec.view(de), PRIVATE_RIGHT);
        if (Visibility.hidden(de)) {
            return List.of(whole);
        }
        DigitalEntity shown = Visibility.publicView(de);
        return List.of(whole, of(shown, codec.view(shown), PUBLIC_ONLY));
    }

    private static Document of(DigitalEntity de, String json, String audience) {
        Metadata m = de.metadata();
        Document d = new Document();
        String id = de.id().toString();
        d.add(new StringField(AUDIENCE, audience, Field.Store.NO));
        d.add(new StringField(ID, id, Field.Store.NO));
        d.add(new SortedDocValuesField(ID, new BytesRef(id)));
        d.add(new LongField(ID_HIGH, high(de.id()), Field.Store.NO));
        d.add(new StoredField(JSON, json.getBytes(StandardCharsets.UTF_8)));
        text(d, TITLE, m.title());
        if (m.title() != null && !m.title().isBlank()) {
            d.add(new Field(TITLE_PAIRS, m.title(), PAIRS));
        }
        for (Author a : m.authors()) {
            text(d, AUTHORS, (a.given() == null ? "" : a.given() + " ") + a.family());
            key(d, AUTHOR_KEY, a.family());
        }
        text(d, VENUE, m.venue());
        text(d, ABSTRACT, m.abstractText());
        text(d, NOTES, m.notes());
        for (String tag : m.tags()) {
            text(d, TAGS, tag);
            key(d, TAG_KEY, tag);
            facet(d, "tag", tag);
        }
        key(d, TITLE_EXACT, m.title());
        key(d, VENUE_KEY, m.venue());
        facet(d, "venue", m.venue());
        key(d, TYPE_KEY, m.type());
        facet(d, "type", m.type());
        if (m.year() != null) {
            d.add(new IntField(YEAR, m.year(), Field.Store.NO)); // a point and a doc value: a range checks whichever is cheaper
            facet(d, "year", m.year().toString());
        }
        Set<String> tools = new LinkedHashSet<>();
        for (Replica r : de.replicas()) {
            tools.add(r.tool());
            tools.add(dev.idiom.events.SearchQuery.toolAccount(r.tool(), r.account())); // the tool filter takes an account too
        }
        tools.forEach(t -> key(d, TOOL_KEY, t));
        return d;
    }

    /** Word pairs need no positions: a pair is already a phrase. */
    private static FieldType pairs() {
        FieldType t = new FieldType(TextField.TYPE_NOT_STORED);
        t.setIndexOptions(IndexOptions.DOCS_AND_FREQS);
        t.freeze();
        return t;
    }

    /** The id's sort key: its first 64 bits, ordered as the id's text is. */
    static long high(UUID id) {
        return id.getMostSignificantBits() ^ Long.MIN_VALUE;
    }

    /** An exact key as stored and as asked for: folded like {@link Normalized#fold}, clipped. */
    static String key(String value) {
        String folded = Normalized.fold(value);
        return folded.length() > MAX_KEY ? folded.substring(0, MAX_KEY) : folded;
    }

    private static void text(Document d, String field, String value) {
        if (value != null && !value.isBlank()) {
            d.add(new TextField(field, value, Field.Store.NO));
            if (!field.equals(ABSTRACT) && !field.equals(NOTES)) {
                d.add(new TextField(SHORT, value, Field.Store.NO));
            }
        }
    }

    private static void key(Document d, String field, String value) {
        if (value != null && !key(value).isEmpty()) {
            d.add(new StringField(field, key(value), Field.Store.NO));
        }
    }

    private static void facet(Document d, String facet, String value) {
        if (value != null && !value.isBlank()) {
            String v = value.strip();
            d.add(new SortedSetDocValuesField(FACET_PREFIX + facet, new BytesRef(v.length() > MAX_KEY ? v.substring(0, MAX_KEY) : v)));
        }
    }
}
