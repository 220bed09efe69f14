package dev.idiom.events;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.io.Serializable;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.SortedSet;
import java.util.TreeSet;

/** The canonical metadata of a publication (DESIGN.md), immutable; absent fields are null. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonPropertyOrder({"type", "title", "authors", "year", "venue", "volume", "pages", "doi", "url", "abstract", "tags", "notes"})
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
        String notes) implements Serializable {

    public static final Metadata EMPTY = new Metadata(null, null, List.of(), null, null, null, null, null, null, null, new TreeSet<>(), null);

    public Metadata {
        authors = authors == null ? List.of() : List.copyOf(authors);
        tags = Collections.unmodifiableSortedSet(tags == null ? new TreeSet<>() : new TreeSet<>(tags));
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
        };
    }

    /** A copy with {@code field} set to an already-validated value. */
    @SuppressWarnings("unchecked")
    public Metadata with(Field field, Object v) {
        return new Metadata(
                field == Field.TYPE ? (String) v : type,
                field == Field.TITLE ? (String) v : title,
                field == Field.AUTHORS ? (List<Author>) v : authors,
                field == Field.YEAR ? (Integer) v : year,
                field == Field.VENUE ? (String) v : venue,
                field == Field.VOLUME ? (String) v : volume,
                field == Field.PAGES ? (String) v : pages,
                field == Field.DOI ? (String) v : doi,
                field == Field.URL ? (String) v : url,
                field == Field.ABSTRACT ? (String) v : abstractText,
                field == Field.TAGS ? (SortedSet<String>) v : tags,
                field == Field.NOTES ? (String) v : notes);
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
            } else if (empty(mine) && !empty(theirs)) {
                m = m.with(f, theirs);
            }
        }
        return m;
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
