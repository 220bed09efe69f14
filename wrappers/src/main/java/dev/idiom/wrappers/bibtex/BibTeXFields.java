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

    /** A jbibtex entry as the shared mapping sees it; a change of type replaces the entry (jbibtex types are fixed). */
    private static final class View implements BibTeXMapping.Entry {
        private BibTeXEntry e;

        View(BibTeXEntry e) {
            this.e = e;
        }

        @Override
        public String type() {
            return e.getType().getValue();
        }

        @Override
        public void type(String entryType) {
            BibTeXEntry retyped = new BibTeXEntry(new Key(entryType), e.getKey());
            e.getFields().forEach(retyped::addField);
            e = retyped;
        }

        /** Moves the value as written (its LaTeX kept), not its plain text. */
        @Override
        public void move(String from, String to) {
            Value v = e.getField(new Key(from));
            e.removeField(new Key(from));
            e.addField(new Key(to), v);
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
        View target = new View(e);
        BibTeXMapping.applyChanges(target, before, after);
        if (!java.util.Objects.equals(before.notes(), after.notes())) {
            target.set("note", after.notes());
        }
        if (!before.tags().equals(after.tags())) {
            target.set("keywords", after.tags().isEmpty() ? null : String.join(", ", after.tags()));
        }
        return target.e;
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
