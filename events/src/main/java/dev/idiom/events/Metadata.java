package dev.idiom.events;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.io.Serializable;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * The canonical record of a publication, immutable; absent fields are null (empty for names and
 * tags). It follows CSL-JSON ({@link Field} names the CSL variable of each field). The fields the
 * record had before are first and keep their JSON form; the later ones are written only when set,
 * so the stored form of a DE that has none of them is byte for byte what it was. A former type is
 * read as the CSL type it became ({@link Field#currentType}): events written before fold into the
 * new model.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonPropertyOrder({"type", "title", "authors", "year", "venue", "volume", "pages", "doi", "url", "abstract", "tags", "notes",
        "editors", "translators", "month", "day", "collectionTitle", "collectionNumber", "publisher", "publisherPlace", "issue", "number",
        "edition", "isbn", "issn", "pmid", "pmcid", "arxiv", "language", "event", "genre", "accessed", "citationKey",
        "shortTitle", "journalAbbreviation", "archive", "archiveLocation", "callNumber", "source", "license", "dimensions", "medium",
        "versionNumber", "numberOfPages", "numberOfVolumes", "eventPlace", "authority", "section", "status", "scale", "chapterNumber",
        "partNumber", "partTitle", "originalPublisher", "originalPublisherPlace", "references",
        "zoteroExtras", "bibtexExtras"})
public record Metadata(
        String type,
        String title,
        List<Author> authors,
        Integer year,
        String venue,
        String volume,
        String pages,
        String doi,
        String url,
        @JsonProperty("abstract") String abstractText,
        SortedSet<String> tags,
        String notes,
        @JsonInclude(JsonInclude.Include.NON_EMPTY) List<Author> editors,
        @JsonInclude(JsonInclude.Include.NON_EMPTY) List<Author> translators,
        Integer month,
        Integer day,
        String collectionTitle,
        String collectionNumber,
        String publisher,
        String publisherPlace,
        String issue,
        String number,
        String edition,
        String isbn,
        String issn,
        String pmid,
        String pmcid,
        String arxiv,
        String language,
        String event,
        String genre,
        String accessed,
        String citationKey,
        String shortTitle,
        String journalAbbreviation,
        String archive,
        String archiveLocation,
        String callNumber,
        String source,
        String license,
        String dimensions,
        String medium,
        String versionNumber,
        String numberOfPages,
        String numberOfVolumes,
        String eventPlace,
        String authority,
        String section,
        String status,
        String scale,
        String chapterNumber,
        String partNumber,
        String partTitle,
        String originalPublisher,
        String originalPublisherPlace,
        String references,
        SortedMap<String, String> zoteroExtras,
        SortedMap<String, String> bibtexExtras) implements Serializable {

    public static final Metadata EMPTY = new Metadata(new Object[Field.values().length]);

    public Metadata {
        type = Field.currentType(type);
        authors = authors == null ? List.of() : List.copyOf(authors);
        editors = editors == null ? List.of() : List.copyOf(editors);
        translators = translators == null ? List.of() : List.copyOf(translators);
        tags = Collections.unmodifiableSortedSet(tags == null ? new TreeSet<>() : new TreeSet<>(tags));
        zoteroExtras = Field.extras(zoteroExtras);
        bibtexExtras = Field.extras(bibtexExtras);
    }

    /** The record from one value per field, in {@link Field}'s order. */
    static Metadata fromValues(Object[] v) {
        return new Metadata(v);
    }

    @SuppressWarnings("unchecked")
    private Metadata(Object[] v) {
        this((String) v[0], (String) v[1], (List<Author>) v[2], (Integer) v[3], (String) v[4], (String) v[5], (String) v[6],
                (String) v[7], (String) v[8], (String) v[9], (SortedSet<String>) v[10], (String) v[11], (List<Author>) v[12],
                (List<Author>) v[13], (Integer) v[14], (Integer) v[15], (String) v[16], (String) v[17], (String) v[18], (String) v[19],
                (String) v[20], (String) v[21], (String) v[22], (String) v[23], (String) v[24], (String) v[25], (String) v[26],
                (String) v[27], (String) v[28], (String) v[29], (String) v[30], (String) v[31], (String) v[32],
                (String) v[33], (String) v[34], (String) v[35], (String) v[36], (String) v[37], (String) v[38], (String) v[39],
                (String) v[40], (String) v[41], (String) v[42], (String) v[43], (String) v[44], (String) v[45], (String) v[46],
                (String) v[47], (String) v[48], (String) v[49], (String) v[50], (String) v[51], (String) v[52], (String) v[53],
                (String) v[54], (String) v[55],
                (SortedMap<String, String>) v[56], (SortedMap<String, String>) v[57]);
    }

    /** The current value of {@code field}. */
    public Object get(Field field) {
        return switch (field) {
            case TYPE -> type;
            case TITLE -> title;
            case AUTHORS -> authors;
            case YEAR -> year;
            case VENUE -> venue;
            case VOLUME -> volume;
            case PAGES -> pages;
            case DOI -> doi;
            case URL -> url;
            case ABSTRACT -> abstractText;
            case TAGS -> tags;
            case NOTES -> notes;
            case EDITORS -> editors;
            case TRANSLATORS -> translators;
            case MONTH -> month;
            case DAY -> day;
            case COLLECTION_TITLE -> collectionTitle;
            case COLLECTION_NUMBER -> collectionNumber;
            case PUBLISHER -> publisher;
            case PUBLISHER_PLACE -> publisherPlace;
            case ISSUE -> issue;
            case NUMBER -> number;
            case EDITION -> edition;
            case ISBN -> isbn;
            case ISSN -> issn;
            case PMID -> pmid;
            case PMCID -> pmcid;
            case ARXIV -> arxiv;
            case LANGUAGE -> language;
            case EVENT -> event;
            case GENRE -> genre;
            case ACCESSED -> accessed;
            case CITATION_KEY -> citationKey;
            case TITLE_SHORT -> shortTitle;
            case CONTAINER_TITLE_SHORT -> journalAbbreviation;
            case ARCHIVE -> archive;
            case ARCHIVE_LOCATION -> archiveLocation;
            case CALL_NUMBER -> callNumber;
            case SOURCE -> source;
            case LICENSE -> license;
            case DIMENSIONS -> dimensions;
            case MEDIUM -> medium;
            case VERSION -> versionNumber;
            case NUMBER_OF_PAGES -> numberOfPages;
            case NUMBER_OF_VOLUMES -> numberOfVolumes;
            case EVENT_PLACE -> eventPlace;
            case AUTHORITY -> authority;
            case SECTION -> section;
            case STATUS -> status;
            case SCALE -> scale;
            case CHAPTER_NUMBER -> chapterNumber;
            case PART_NUMBER -> partNumber;
            case PART_TITLE -> partTitle;
            case ORIGINAL_PUBLISHER -> originalPublisher;
            case ORIGINAL_PUBLISHER_PLACE -> originalPublisherPlace;
            case REFERENCES -> references;
            case ZOTERO_EXTRAS -> zoteroExtras;
            case BIBTEX_EXTRAS -> bibtexExtras;
        };
    }

    /** A copy with {@code field} set to an already-validated value. */
    public Metadata with(Field field, Object v) {
        Field[] fields = Field.values();
        Object[] values = new Object[fields.length];
        for (Field f : fields) {
            values[f.ordinal()] = f == field ? v : get(f);
        }
        return new Metadata(values);
    }

    /**
     * This metadata with every empty field taken from {@code other} and the tags of both: what an
     * import that matched this DE contributes. Values this metadata has are never overwritten.
     */
    public Metadata withGapsFilledFrom(Metadata other) {
        Metadata m = this;
        for (Field f : Field.values()) {
            Object mine = get(f);
            Object theirs = other.get(f);
            if (f == Field.TAGS) {
                SortedSet<String> union = new TreeSet<>(tags);
                union.addAll(other.tags());
                m = m.with(f, union);
            } else if (f.kind() == Field.Kind.EXTRAS && mine != null && theirs != null) { // entry by entry, this one's first
                java.util.Map<String, String> both = new java.util.TreeMap<>(other.extras(f));
                both.putAll(extras(f));
                m = m.with(f, Field.extras(both));
            } else if (empty(mine) && !empty(theirs)) {
                m = m.with(f, theirs);
            }
        }
        return m;
    }

    /** One extras part ({@link Field#EXTRAS}), empty when absent. */
    @SuppressWarnings("unchecked")
    public java.util.Map<String, String> extras(Field part) {
        Object v = get(part);
        return v == null ? java.util.Map.of() : (java.util.Map<String, String>) v;
    }

    private static boolean empty(Object v) {
        return v == null || (v instanceof Collection<?> c && c.isEmpty());
    }

    public Metadata withTag(String tag) {
        SortedSet<String> t = new TreeSet<>(tags);
        t.add(tag);
        return with(Field.TAGS, t);
    }

    public Metadata withoutTag(String tag) {
        SortedSet<String> t = new TreeSet<>(tags);
        t.remove(tag);
        return with(Field.TAGS, t);
    }
}
