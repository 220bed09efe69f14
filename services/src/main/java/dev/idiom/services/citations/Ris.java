package dev.idiom.services.citations;

import dev.idiom.events.Author;
import dev.idiom.events.Metadata;
import java.util.List;
import java.util.Map;

/**
 * A record as an RIS reference (Research Information Systems' tagged format, as EndNote, Zotero and
 * Mendeley read it): {@code TY} by the CSL type, one tag a line, {@code ER} last.
 */
final class Ris {
    private Ris() {}

    /** RIS reference types of Idiom's (CSL) types; any other is GEN. */
    private static final Map<String, String> TYPES = Map.ofEntries(Map.entry("article-journal", "JOUR"), Map.entry("article-magazine", "MGZN"),
            Map.entry("article-newspaper", "NEWS"), Map.entry("paper-conference", "CPAPER"), Map.entry("book", "BOOK"), Map.entry("chapter", "CHAP"),
            Map.entry("thesis", "THES"), Map.entry("report", "RPRT"), Map.entry("webpage", "ELEC"), Map.entry("post-weblog", "BLOG"),
            Map.entry("dataset", "DATA"), Map.entry("software", "COMP"), Map.entry("patent", "PAT"), Map.entry("manuscript", "MANSCPT"),
            Map.entry("map", "MAP"), Map.entry("legal_case", "CASE"), Map.entry("bill", "BILL"), Map.entry("legislation", "STAT"),
            Map.entry("entry-encyclopedia", "ENCYC"), Map.entry("entry-dictionary", "DICT"), Map.entry("motion_picture", "VIDEO"),
            Map.entry("song", "SOUND"), Map.entry("graphic", "ART"), Map.entry("standard", "STAND"), Map.entry("preprint", "EJOUR"),
            Map.entry("pamphlet", "PAMP"), Map.entry("speech", "SLIDE"));

    static String reference(Metadata m) {
        StringBuilder b = new StringBuilder();
        line(b, "TY", TYPES.getOrDefault(m.type(), "GEN"));
        line(b, "TI", m.title());
        names(b, "AU", m.authors());
        names(b, "ED", m.editors());
        names(b, "A4", m.translators());
        if (m.year() != null) {
            line(b, "PY", m.year().toString());
            line(b, "DA", String.format("%04d/%s/%s/", m.year(), m.month() == null ? "" : String.format("%02d", m.month()),
                    m.day() == null ? "" : String.format("%02d", m.day())));
        }
        line(b, "chapter".equals(m.type()) || "paper-conference".equals(m.type()) ? "BT" : "T2", m.venue());
        line(b, "T3", m.collectionTitle());
        line(b, "PB", m.publisher());
        line(b, "CY", m.publisherPlace());
        line(b, "VL", m.volume());
        line(b, "IS", m.issue() != null ? m.issue() : m.number());
        line(b, "ET", m.edition());
        if (m.pages() != null) {
            String[] range = m.pages().split("-+", 2);
            line(b, "SP", range[0].strip());
            line(b, "EP", range.length > 1 ? range[1].strip() : null);
        }
        line(b, "SN", m.isbn() != null ? m.isbn() : m.issn());
        line(b, "DO", m.doi());
        line(b, "UR", m.url());
        line(b, "LA", m.language());
        line(b, "AB", m.abstractText());
        line(b, "N1", m.notes());
        line(b, "Y2", m.accessed());
        line(b, "ID", m.citationKey());
        m.tags().forEach(t -> line(b, "KW", t));
        b.append("ER  - \r\n");
        return b.toString();
    }

    private static void names(StringBuilder b, String tag, List<Author> names) {
        names.forEach(a -> line(b, tag, a.given().isEmpty() ? a.family() : a.family() + ", " + a.given()));
    }

    /** One tag line; a value is one line (line breaks become spaces), as RIS readers expect. */
    private static void line(StringBuilder b, String tag, String value) {
        if (value != null && !value.isBlank()) {
            b.append(tag).append("  - ").append(value.replaceAll("\\s*\\R\\s*", " ").strip()).append("\r\n");
        }
    }
}
