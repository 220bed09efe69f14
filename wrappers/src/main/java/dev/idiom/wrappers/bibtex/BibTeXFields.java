package dev.idiom.wrappers.bibtex;

import dev.idiom.events.Author;
import dev.idiom.events.Field;
import dev.idiom.events.Metadata;
import dev.idiom.wrappers.BibTeXTypes;
import java.util.ArrayList;
import java.util.List;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jbibtex.BibTeXEntry;
import org.jbibtex.Key;
import org.jbibtex.LaTeXObject;
import org.jbibtex.LaTeXParser;
import org.jbibtex.LaTeXPrinter;
import org.jbibtex.StringValue;
import org.jbibtex.Value;

/** Between a BibTeX entry's fields and canonical metadata. */
final class BibTeXFields {
    private static final Pattern YEAR = Pattern.compile("(\\d{4})");

    private BibTeXFields() {}

    static Metadata metadata(BibTeXEntry e) {
        String type = BibTeXTypes.canonicalType(e.getType().getValue());
        Metadata m = Metadata.EMPTY.with(Field.TYPE, type);
        m = set(m, Field.TITLE, text(e, "title"));
        String authors = text(e, "author");
        if (authors != null) {
            m = m.with(Field.AUTHORS, authors(authors));
        }
        String year = text(e, "year") != null ? text(e, "year") : text(e, "date");
        if (year != null) {
            Matcher y = YEAR.matcher(year);
            if (y.find()) {
                m = m.with(Field.YEAR, Integer.parseInt(y.group(1)));
            }
        }
        m = set(m, Field.VENUE, text(e, BibTeXTypes.venueField(type)));
        m = set(m, Field.VOLUME, text(e, "volume"));
        m = set(m, Field.PAGES, text(e, "pages"));
        m = set(m, Field.DOI, text(e, "doi"));
        m = set(m, Field.URL, text(e, "url"));
        m = set(m, Field.ABSTRACT, text(e, "abstract"));
        m = set(m, Field.NOTES, text(e, "note"));
        String keywords = text(e, "keywords");
        if (keywords != null) {
            SortedSet<String> tags = new TreeSet<>();
            for (String k : keywords.split("[,;]")) {
                if (!k.isBlank()) {
                    tags.add(k.strip());
                }
            }
            m = m.with(Field.TAGS, tags);
        }
        return m;
    }

    private static Metadata set(Metadata m, Field f, String value) {
        return value == null ? m : m.with(f, f.fromText(value));
    }

    /** Writes the modelled fields of {@code m} into {@code e}, leaving every other field alone. */
    static void write(Metadata m, BibTeXEntry e) {
        String type = m.type() == null ? "misc" : m.type();
        // only the fields this type's mapping reads: a "journal" on a misc entry is not ours to drop
        for (String f : List.of("title", "author", "year", "volume", "pages", "doi", "url", "abstract", "keywords", "note", BibTeXTypes.venueField(type))) {
            e.removeField(new Key(f));
        }
        put(e, "title", m.title());
        if (!m.authors().isEmpty()) {
            put(e, "author", String.join(" and ", m.authors().stream()
                    .map(a -> a.given().isEmpty() ? a.family() : a.family() + ", " + a.given()).toList()));
        }
        if (m.year() != null) {
            e.removeField(new Key("date"));
            put(e, "year", m.year().toString());
        }
        put(e, BibTeXTypes.venueField(type), m.venue());
        put(e, "volume", m.volume());
        put(e, "pages", m.pages());
        put(e, "doi", m.doi());
        put(e, "url", m.url());
        put(e, "abstract", m.abstractText());
        put(e, "note", m.notes());
        if (!m.tags().isEmpty()) {
            put(e, "keywords", String.join(", ", m.tags()));
        }
    }

    private static void put(BibTeXEntry e, String field, String value) {
        if (value != null) {
            e.addField(new Key(field), new StringValue(escape(value), StringValue.Style.BRACED));
        }
    }

    /** Braces must balance inside a braced value; unbalanced ones are escaped. */
    private static String escape(String v) {
        int depth = 0;
        for (char c : v.toCharArray()) {
            depth += c == '{' ? 1 : c == '}' ? -1 : 0;
            if (depth < 0) {
                break;
            }
        }
        return depth == 0 ? v : v.replace("{", "\\{").replace("}", "\\}");
    }

    /** A field's value as plain text: LaTeX accents and braces resolved. */
    static String text(BibTeXEntry e, String field) {
        Value v = e.getField(new Key(field));
        if (v == null) {
            return null;
        }
        String raw = v.toUserString();
        String plain;
        if (raw.indexOf('\\') < 0 && raw.indexOf('{') < 0) {
            // plain text stays as written: "42--81" is not LaTeX's en dash to us
            plain = raw;
        } else try {
            List<LaTeXObject> parsed = new LaTeXParser().parse(raw);
            plain = new LaTeXPrinter().print(parsed);
        } catch (Exception | Error unparsable) {
            plain = raw.replace("{", "").replace("}", "");
        }
        plain = plain.replaceAll("\\s+", " ").strip();
        return plain.isEmpty() ? null : plain;
    }

    static List<Author> authors(String bibtex) {
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
