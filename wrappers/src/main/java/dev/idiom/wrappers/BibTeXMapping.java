package dev.idiom.wrappers;

import dev.idiom.events.Author;
import dev.idiom.events.Field;
import dev.idiom.events.Metadata;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The one mapping between BibTeX entries and Idiom's canonical metadata, used by every adapter
 * that speaks BibTeX (BibTeX files, BibSonomy's posts): which canonical type an entry type is,
 * where an entry type keeps its venue, how authors and years are read, and how a change is
 * written — only the fields that changed, in the entry's own type, everything else left as it was
 * (editor, number, month, series, edition, keys, unknown fields).
 */
public final class BibTeXMapping {
    private BibTeXMapping() {}

    /** One entry as an adapter holds it: its type and its fields by BibTeX name. */
    public interface Entry {
        String type();

        void type(String entryType);

        /** The field's plain-text value, or null. */
        String get(String field);

        /** Sets the field; null or empty removes it. */
        void set(String field, String value);

        /** Moves a field's value, as written, to another field (a venue when the entry type changes). */
        default void move(String from, String to) {
            String v = get(from);
            set(from, null);
            set(to, v);
        }
    }

    private static final Map<String, String> CANONICAL = Map.ofEntries(Map.entry("article", "article"),
            Map.entry("inproceedings", "inproceedings"), Map.entry("conference", "inproceedings"), Map.entry("book", "book"),
            Map.entry("inbook", "book"), Map.entry("incollection", "book"), Map.entry("booklet", "book"), Map.entry("proceedings", "book"),
            Map.entry("phdthesis", "thesis"), Map.entry("mastersthesis", "thesis"), Map.entry("thesis", "thesis"),
            Map.entry("techreport", "report"), Map.entry("report", "report"), Map.entry("online", "webpage"),
            Map.entry("electronic", "webpage"), Map.entry("www", "webpage"));

    /** Where each entry type keeps its venue (any other type: howpublished). */
    private static final Map<String, String> VENUE = Map.ofEntries(Map.entry("article", "journal"), Map.entry("inproceedings", "booktitle"),
            Map.entry("conference", "booktitle"), Map.entry("incollection", "booktitle"), Map.entry("book", "publisher"),
            Map.entry("inbook", "publisher"), Map.entry("booklet", "howpublished"), Map.entry("proceedings", "publisher"),
            Map.entry("phdthesis", "school"), Map.entry("mastersthesis", "school"), Map.entry("thesis", "institution"),
            Map.entry("techreport", "institution"), Map.entry("report", "institution"));

    /** The fields a venue may be read from when the type's own venue field is empty, the most specific first. */
    private static final List<String> VENUE_FIELDS = List.of("journal", "booktitle", "publisher", "school", "institution", "howpublished");

    /** The canonical fields held in one plain BibTeX field each. */
    private static final Map<Field, String> PLAIN = Map.of(Field.TITLE, "title", Field.VOLUME, "volume", Field.PAGES, "pages",
            Field.DOI, "doi", Field.URL, "url", Field.ABSTRACT, "abstract");

    private static final Pattern YEAR = Pattern.compile("(?<!\\d)(\\d{4})(?!\\d)");

    /** The canonical type of a BibTeX entry type ({@code misc} for any other). */
    public static String canonicalType(String entryType) {
        return CANONICAL.getOrDefault(lower(entryType), "misc");
    }

    /** The BibTeX entry type a canonical type is written as when an entry is created or changes type. */
    public static String entryType(String canonicalType) {
        return switch (canonicalType == null ? "misc" : canonicalType) {
            case "article" -> "article";
            case "inproceedings" -> "inproceedings";
            case "book" -> "book";
            case "thesis" -> "phdthesis";
            case "report" -> "techreport";
            case "webpage" -> "online";
            default -> "misc";
        };
    }

    /** The field that holds an entry type's venue. */
    public static String venueField(String entryType) {
        return VENUE.getOrDefault(lower(entryType), "howpublished");
    }

    private static String lower(String s) {
        return s == null ? "" : s.toLowerCase(Locale.ROOT);
    }

    /** The canonical fields an entry holds (type, title, authors, year, venue, volume, pages, DOI, URL, abstract). */
    public static Metadata metadata(Entry e) {
        Metadata m = Metadata.EMPTY.with(Field.TYPE, canonicalType(e.type()));
        for (Map.Entry<Field, String> f : PLAIN.entrySet()) {
            m = set(m, f.getKey(), e.get(f.getValue()));
        }
        String authors = e.get("author");
        if (authors != null) {
            m = m.with(Field.AUTHORS, authors(authors));
        }
        String year = e.get("year") != null ? e.get("year") : e.get("date");
        if (year != null) {
            Matcher y = YEAR.matcher(year);
            if (y.find()) {
                m = m.with(Field.YEAR, Integer.parseInt(y.group(1)));
            }
        }
        String venue = e.get(venueField(e.type()));
        for (int i = 0; venue == null && i < VENUE_FIELDS.size(); i++) {
            venue = e.get(VENUE_FIELDS.get(i));
        }
        return set(m, Field.VENUE, venue);
    }

    private static Metadata set(Metadata m, Field f, String v) {
        return v == null || v.isBlank() ? m : m.with(f, f.fromText(v));
    }

    /**
     * Writes into {@code e} the fields that differ between {@code before} (as last synced) and
     * {@code after}, and nothing else. The entry type changes only when the entry's type does not
     * already read as the new canonical type (an incollection stays one while it is a "book"); its
     * venue then moves to the new type's venue field.
     */
    public static void applyChanges(Entry e, Metadata before, Metadata after) {
        String oldVenueField = venueField(e.type());
        boolean typeChanged = !Objects.equals(before.type(), after.type()) && !canonicalType(e.type()).equals(after.type());
        if (typeChanged) {
            e.type(entryType(after.type()));
        }
        for (Map.Entry<Field, String> f : PLAIN.entrySet()) {
            if (changed(before, after, f.getKey())) {
                e.set(f.getValue(), text(after.get(f.getKey())));
            }
        }
        if (changed(before, after, Field.AUTHORS)) {
            e.set("author", after.authors().isEmpty() ? null : authorList(after.authors()));
        }
        if (changed(before, after, Field.YEAR)) {
            String date = e.get("date");
            Matcher y = date == null ? null : YEAR.matcher(date);
            if (e.get("year") == null && y != null && y.find() && after.year() != null) {
                e.set("date", date.substring(0, y.start(1)) + after.year() + date.substring(y.end(1))); // biblatex: keep month and day
            } else {
                e.set("year", text(after.year()));
            }
        }
        String venueField = venueField(e.type());
        if (!venueField.equals(oldVenueField) && e.get(oldVenueField) != null && Objects.equals(e.get(oldVenueField), before.venue())) {
            e.move(oldVenueField, venueField);
        }
        if (changed(before, after, Field.VENUE)) {
            e.set(venueField, text(after.venue()));
        }
    }

    private static boolean changed(Metadata before, Metadata after, Field f) {
        return !Objects.equals(before.get(f), after.get(f));
    }

    private static String text(Object v) {
        return v == null ? null : v.toString();
    }

    /** "Family, Given and Family2, Given2" (a family name alone stays alone). */
    public static String authorList(List<Author> authors) {
        return String.join(" and ", authors.stream().map(a -> a.given().isEmpty() ? a.family() : a.family() + ", " + a.given()).toList());
    }

    /** A BibTeX name list: "Family, Given" or "Given Family", joined by "and"; "others" dropped. */
    public static List<Author> authors(String bibtex) {
        List<Author> authors = new ArrayList<>();
        for (String name : bibtex.split("\\s+and\\s+")) {
            String n = name.strip();
            if (n.isEmpty() || n.equalsIgnoreCase("others")) {
                continue;
            }
            int comma = n.indexOf(',');
            if (comma >= 0) {
                authors.add(new Author(n.substring(0, comma), n.substring(comma + 1)));
            } else {
                int space = n.lastIndexOf(' ');
                authors.add(space < 0 ? new Author(n, "") : new Author(n.substring(space + 1), n.substring(0, space)));
            }
        }
        return authors;
    }
}
