package dev.idiom.wrappers.bibtex;

import dev.idiom.events.Metadata;
import dev.idiom.events.Normalized;
import dev.idiom.wrappers.BibTeXMapping;
import java.util.function.Predicate;
import java.util.regex.Pattern;

/**
 * The key of an entry Idiom writes: the record's citation key when the file does not use it yet
 * (a key Better BibTeX or another file gave it), else JabRef's style — first author's family name
 * and year, then a, b, c… if taken.
 */
final class CitationKeys {
    /** A key BibTeX can read back as written: no spaces, braces, commas, quotes, #, % or ~. */
    private static final Pattern CITATION_KEY = Pattern.compile("[^\\s{}(),\"#%~\\\\]+");
    /**
     * The longest citation key a new entry takes from its record (a key is a copy's remote id, which
     * the outbox holds in 700 characters), and the longest name a generated key starts with.
     */
    private static final int MAX_KEY = 200;
    private static final int MAX_KEY_NAME = 40;

    private CitationKeys() {
    }

    /** A key for a new entry from {@code m} that is not {@code taken} (by the file's entries or those added beside it). */
    static String newKey(Metadata m, Predicate<String> taken) {
        if (m.citationKey() != null && m.citationKey().length() <= MAX_KEY && CITATION_KEY.matcher(m.citationKey()).matches()
                && !taken.test(m.citationKey())) {
            return m.citationKey();
        }
        // ASCII, as Better BibTeX's keys: a key with other letters breaks BibTeX 0.99 and many styles
        String family = m.authors().isEmpty() ? "" : BibTeXMapping.keyPart(m.authors().getFirst().family());
        String name = family.isEmpty() ? BibTeXMapping.keyPart(Normalized.fold(m.title()).split(" ")[0]) : family;
        name = name.substring(0, Math.min(name.length(), MAX_KEY_NAME)); // a title's first word may be any length
        String base = (name.isEmpty() ? "idiom" : name) + (m.year() == null ? "" : m.year()); // a key starts with a letter
        String key = base;
        for (int n = 1; taken.test(key); n++) {
            key = base + suffix(n);
        }
        return key;
    }

    /**
     * The {@code n}th suffix that tells apart keys of one author and year, as JabRef and Better
     * BibTeX write them: a … z, then aa … az, ba …, so any number of them stay letters a key may hold.
     */
    static String suffix(int n) {
        StringBuilder s = new StringBuilder();
        for (int left = n; left > 0; left = (left - 1) / 26) {
            s.append((char) ('a' + (left - 1) % 26));
        }
        return s.reverse().toString();
    }
}
