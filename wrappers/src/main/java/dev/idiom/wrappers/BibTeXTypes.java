package dev.idiom.wrappers;

import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The one mapping between BibTeX entry types and fields and Idiom's canonical metadata, used by
 * every adapter that speaks BibTeX (BibTeX files, BibSonomy's posts): which canonical type an
 * entry type is, which entry type a canonical type is written as, and where its venue lives.
 */
public final class BibTeXTypes {
    private BibTeXTypes() {}

    private static final Map<String, String> CANONICAL = Map.ofEntries(Map.entry("article", "article"),
            Map.entry("inproceedings", "inproceedings"), Map.entry("conference", "inproceedings"), Map.entry("book", "book"),
            Map.entry("inbook", "book"), Map.entry("incollection", "book"), Map.entry("phdthesis", "thesis"),
            Map.entry("mastersthesis", "thesis"), Map.entry("thesis", "thesis"), Map.entry("techreport", "report"),
            Map.entry("report", "report"), Map.entry("online", "webpage"), Map.entry("electronic", "webpage"), Map.entry("www", "webpage"));

    /** The fields a venue may be read from, the most specific first. */
    public static final List<String> VENUE_FIELDS = List.of("journal", "booktitle", "publisher", "school", "institution", "howpublished");

    /** The canonical type of a BibTeX entry type ({@code misc} for any other). */
    public static String canonicalType(String entryType) {
        return CANONICAL.getOrDefault(entryType == null ? "" : entryType.toLowerCase(Locale.ROOT), "misc");
    }

    /** The BibTeX entry type a canonical type is written as. */
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

    /** The field that holds the venue of a canonical type. */
    public static String venueField(String canonicalType) {
        return switch (canonicalType == null ? "misc" : canonicalType) {
            case "article" -> "journal";
            case "inproceedings" -> "booktitle";
            case "book" -> "publisher";
            case "thesis" -> "school";
            case "report" -> "institution";
            default -> "howpublished";
        };
    }
}
