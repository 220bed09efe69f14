package dev.idiom.wrappers.bibtex;

import dev.idiom.wrappers.BibTeXMapping;
import java.util.HashSet;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The dialect of a file, from its entries' text as it is read: the entry types, and whether a
 * field only BibLaTeX reads ({@link BibTeXMapping#BIBLATEX_FIELDS}) appears
 * ({@link BibTeXMapping#bibtexDialect}). A listing and a whole read see the same text, so they agree.
 */
final class FileDialect {
    private static final Pattern TYPE = Pattern.compile("^\\s*@\\s*([A-Za-z]+)");
    private static final Pattern BIBLATEX_FIELD = Pattern.compile("(?i)[,\\s](" + String.join("|", BibTeXMapping.BIBLATEX_FIELDS) + ")\\s*=");
    private static final Pattern URL_FIELD = Pattern.compile("(?i)[,\\s]url\\s*=");
    private static final Pattern URL_NOTE = Pattern.compile("(?i)[,\\s](?:note|howpublished)\\s*=\\s*[{\"]\\s*\\\\url\\s*\\{");
    private static final Set<String> NO_ENTRY = Set.of("string", "comment", "preamble");
    private final Set<String> types = new HashSet<>();
    private final Set<String> fields = new HashSet<>();
    private boolean urlFields;
    private boolean urlNotes;

    void see(String entryText) {
        Matcher t = TYPE.matcher(entryText);
        if (t.find() && !NO_ENTRY.contains(t.group(1).toLowerCase(Locale.ROOT))) {
            types.add(t.group(1));
            Matcher f = BIBLATEX_FIELD.matcher(entryText);
            if (f.find()) {
                fields.add(f.group(1));
            }
            urlFields |= URL_FIELD.matcher(entryText).find();
            urlNotes |= URL_NOTE.matcher(entryText).find();
        }
    }

    /** BibTeX's own dialect (no {@code @online}, no {@code date}), else BibLaTeX's (an empty file too). */
    boolean bibtex() {
        return BibTeXMapping.bibtexDialect(types, fields);
    }

    /** An address in a note (<code>&#92;url{…}</code>) somewhere, and no {@code url} field anywhere: a new entry's goes there too. */
    boolean urlsAsNotes() {
        return urlNotes && !urlFields;
    }
}
