package dev.idiom.wrappers.zotero;

import com.fasterxml.jackson.databind.JsonNode;
import dev.idiom.events.ZoteroCslMapping;
import java.util.HashSet;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A Zotero item's {@code extra} as Better BibTeX reads it when it exports the item: the lines it
 * takes as data (a Zotero field or creator role by name, a CSL variable, {@code tex.}/{@code bibtex.}/
 * {@code biblatex.}/{@code csl.} lines, citeproc's {@code {:key: value}}, the citation key, an
 * LCCN, arXiv or PubMed id) and the free text it leaves, which it writes as the entry's
 * {@code annotation}. Checked against Better BibTeX's {@code content/extra.ts}.
 */
public final class ExtraLines {
    /** citeproc-js's older form: {@code {:original-date: 1987}}. */
    private static final Pattern OLD = Pattern.compile("^\\{:(?<key>[^:]+):\\s*(?<value>[^}]+)}$", Pattern.DOTALL);
    /** {@code key: value}, {@code tex.key= value}, {@code csl.key: value}, a key in quotes. */
    private static final Pattern LINE = Pattern.compile("^(?:(?<tex>(?:bib(?:la)?)?tex\\.)|(?<csl>csl\\.))?(?:\"(?<quoted>[^\"]+)\"|(?<key>[^:=]+))\\s*(?<assign>[:=])\\s*(?<value>.*)$",
            Pattern.CASE_INSENSITIVE | Pattern.DOTALL);
    private static final Pattern CITATION_KEY = Pattern.compile("^(citation[ -]?key|bibtex):.*", Pattern.CASE_INSENSITIVE);
    /** Keys Better BibTeX writes as fields of their own ({@code tex.lccn}, an eprint), however written ("LCCN", "arXiv"). */
    private static final Set<String> OTHER_FIELDS = Set.of("lccn", "mr", "zbl", "arxiv", "jstor", "hdl", "googlebooksid");
    /** Every Zotero field, base field and creator role, and every CSL variable, as a label ("publication title", "container title"). */
    private static final Set<String> LABELS = labels();

    private ExtraLines() {}

    /** The free text Better BibTeX leaves of {@code extra} (its {@code annotation}): every line it does not read as data, trimmed; "" if none. */
    public static String freeText(String extra) {
        if (extra == null) {
            return "";
        }
        return String.join("\n", extra.lines().filter(l -> !data(l)).toList()).strip();
    }

    /** Whether Better BibTeX reads {@code line} as data rather than text. */
    static boolean data(String line) {
        if (CITATION_KEY.matcher(line).matches()) {
            return true;
        }
        Matcher m = OLD.matcher(line);
        boolean old = m.matches();
        if (!old) {
            m = LINE.matcher(line);
            if (!m.matches()) {
                return false;
            }
            if (m.group("csl") != null) {
                return true;
            }
            String key = m.group("quoted") != null ? m.group("quoted") : m.group("key");
            if (m.group("tex") != null) {
                return !key.strip().contains(" ");
            }
            if (m.group("assign").equals("=")) {
                return false; // "key= LaTeX" is only a tex. line's form
            }
        }
        String key = (old || m.group("quoted") == null ? m.group("key") : m.group("quoted")).strip();
        String label = label(key);
        return LABELS.contains(label) || label.equals("citation key alias") || key.equals("_eprint")
                || OTHER_FIELDS.contains(label.replace(" ", "").replace("-", ""));
    }

    /** A key as Better BibTeX compares them: dashes and underscores (but a leading one) as spaces, camel case split, lower case. */
    private static String label(String key) {
        return (key.isEmpty() ? key : key.charAt(0) + key.substring(1).replaceAll("[-_]", " ")).replaceAll("([a-z])([A-Z])", "$1 $2").toLowerCase(Locale.ROOT);
    }

    private static Set<String> labels() {
        Set<String> out = new HashSet<>();
        ZoteroSchema schema = ZoteroSchema.published();
        for (String name : schema.names()) {
            ZoteroSchema.ItemType t = schema.type(name);
            t.fields().forEach((field, base) -> {
                out.add(label(field));
                if (base != null) {
                    out.add(label(base));
                }
            });
            t.creatorTypes().forEach(c -> out.add(label(c)));
        }
        out.add("access date");
        JsonNode csl = ZoteroCslMapping.csl();
        csl.path("fields").path("text").fieldNames().forEachRemaining(v -> out.add(label(v)));
        csl.path("fields").path("date").fieldNames().forEachRemaining(v -> out.add(label(v)));
        csl.path("names").fieldNames().forEachRemaining(v -> out.add(label(v)));
        csl.path("names").forEach(v -> out.add(label(v.asText())));
        for (dev.idiom.events.Field f : dev.idiom.events.Field.values()) {
            if (f.cslName() != null) {
                out.add(label(f.cslName()));
            }
        }
        return Set.copyOf(out);
    }
}
