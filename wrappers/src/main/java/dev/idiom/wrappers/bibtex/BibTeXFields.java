package dev.idiom.wrappers.bibtex;

import dev.idiom.events.Field;
import dev.idiom.events.Metadata;
import dev.idiom.wrappers.BibTeXMapping;
import java.util.List;
import java.util.SortedSet;
import java.util.TreeSet;
import org.jbibtex.BibTeXEntry;
import org.jbibtex.Key;
import org.jbibtex.LaTeXObject;
import org.jbibtex.LaTeXParser;
import org.jbibtex.LaTeXPrinter;
import org.jbibtex.StringValue;
import org.jbibtex.Value;

/**
 * Between a BibTeX file's entries and canonical metadata: the shared {@link BibTeXMapping} over
 * jbibtex entries, plus what a file keeps that BibSonomy keeps elsewhere (tags in
 * {@code keywords}, notes in {@code note}).
 */
final class BibTeXFields {
    private BibTeXFields() {}

    /** A jbibtex entry as the shared mapping sees it. */
    private record View(BibTeXEntry e) implements BibTeXMapping.Entry {
        @Override
        public String type() {
            return e.getType().getValue();
        }

        @Override
        public void type(String entryType) {
            // jbibtex entries cannot change type: the file adapter replaces the entry (see retyped)
            throw new UnsupportedOperationException("retype through BibTeXFields.retyped");
        }

        @Override
        public String get(String field) {
            return text(e, field);
        }

        @Override
        public void set(String field, String value) {
            e.removeField(new Key(field));
            put(e, field, value == null || value.isEmpty() ? null : value);
        }
    }

    static Metadata metadata(BibTeXEntry e) {
        Metadata m = BibTeXMapping.metadata(new View(e));
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

    /**
     * {@code e}, or a copy of it under a new entry type when the change of canonical type needs
     * one (every field and the key carried over), with the fields that changed between
     * {@code before} and {@code after} written and every other field left alone.
     */
    static BibTeXEntry withChanges(BibTeXEntry e, Metadata before, Metadata after) {
        BibTeXEntry target = e;
        if (!java.util.Objects.equals(before.type(), after.type()) && !BibTeXMapping.canonicalType(e.getType().getValue()).equals(after.type())) {
            target = new BibTeXEntry(new Key(BibTeXMapping.entryType(after.type())), e.getKey());
            for (var f : e.getFields().entrySet()) {
                target.addField(f.getKey(), f.getValue());
            }
            String oldVenue = BibTeXMapping.venueField(e.getType().getValue());
            String newVenue = BibTeXMapping.venueField(target.getType().getValue());
            if (!oldVenue.equals(newVenue) && target.getField(new Key(oldVenue)) != null && java.util.Objects.equals(text(e, oldVenue), before.venue())) {
                target.addField(new Key(newVenue), target.getField(new Key(oldVenue)));
                target.removeField(new Key(oldVenue));
            }
        }
        Metadata typed = before.with(Field.TYPE, after.type()); // the type is settled above
        BibTeXMapping.applyChanges(new View(target), typed, after);
        if (!java.util.Objects.equals(before.notes(), after.notes())) {
            new View(target).set("note", after.notes());
        }
        if (!before.tags().equals(after.tags())) {
            new View(target).set("keywords", after.tags().isEmpty() ? null : String.join(", ", after.tags()));
        }
        return target;
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
}
