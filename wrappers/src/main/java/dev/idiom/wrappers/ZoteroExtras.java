package dev.idiom.wrappers;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.idiom.events.Author;
import dev.idiom.events.Field;
import dev.idiom.events.Metadata;
import dev.idiom.events.ZoteroCslMapping;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A record's Zotero extras part ({@link Field#ZOTERO_EXTRAS}) as other tools read it: the
 * {@code extra} text as Better BibTeX reads it when it exports an item — the lines it takes as data
 * (a Zotero field or creator role by name, a CSL variable, {@code tex.}/{@code bibtex.}/
 * {@code biblatex.}/{@code csl.} lines, citeproc's {@code {:key: value}}, the citation key, an LCCN,
 * arXiv or PubMed id) and the free text it leaves, which it writes as an entry's {@code annotation}
 * (checked against Better BibTeX's {@code content/extra.ts}) — and the creators of roles the record
 * keeps no list for. Neutral ground: the Zotero adapter writes this part, the file adapter reads it.
 */
public final class ZoteroExtras {
    /** The key of the part that holds the creators of other roles, as Zotero item JSON. */
    public static final String CREATORS = "creators";
    private static final ObjectMapper JSON = new ObjectMapper();

    private ZoteroExtras() {}

    /** citeproc-js's older form: {@code {:original-date: 1987}}. */
    private static final Pattern OLD = Pattern.compile("^\\{:(?<key>[^:]+):\\s*(?<value>[^}]+)}$", Pattern.DOTALL);
    /** {@code key: value}, {@code tex.key= value}, {@code csl.key: value}, a key in quotes. */
    private static final Pattern LINE = Pattern.compile("^(?:(?<tex>(?:bib(?:la)?)?tex\\.)|(?<csl>csl\\.))?(?:\"(?<quoted>[^\"]+)\"|(?<key>[^:=]+))\\s*(?<assign>[:=])\\s*(?<value>.*)$",
            Pattern.CASE_INSENSITIVE | Pattern.DOTALL);
    private static final Pattern CITATION_KEY = Pattern.compile("^(citation[ -]?key|bibtex):.*", Pattern.CASE_INSENSITIVE);
    /** Keys Better BibTeX writes as fields of their own ({@code tex.lccn}, an eprint), however written ("LCCN", "arXiv"). */
    private static final Set<String> OTHER_FIELDS = Set.of("lccn", "mr", "zbl", "arxiv", "jstor", "hdl", "googlebooksid");
    /** Every CSL variable and the Zotero fields and creator roles Zotero's CSL mapping names, as a label ("publication title", "container title"). */
    private static final Set<String> LABELS = labels();


    /** The free text Better BibTeX leaves of {@code extra} (its {@code annotation}): every line it does not read as data, trimmed; "" if none. */
    public static String freeText(String extra) {
        return freeText(extra, false);
    }

    /**
     * As above, as Idiom read it before it wrote an {@code event-date} line as the entry's
     * {@code eventdate} ({@code formerly}): such a line was text. A copy written then keeps its annotation.
     */
    public static String freeText(String extra, boolean formerly) {
        if (extra == null) {
            return "";
        }
        return String.join("\n", extra.lines().filter(l -> !dataLine(l) || formerly && eventDate(l) != null).toList()).strip();
    }

    /** CSL's event date in an {@code extra} line ({@code event-date: 1888-08-28}, citeproc's {@code {:event-date: …}}): the date as typed, or null. */
    public static String eventDate(String line) {
        Matcher m = OLD.matcher(line);
        if (!m.matches()) {
            m = LINE.matcher(line);
            if (!m.matches() || m.group("tex") != null || m.group("quoted") != null || m.group("assign").equals("=")) {
                return null;
            }
        }
        return label(m.group("key").strip()).equals("event date") && !m.group("value").isBlank() ? m.group("value").strip() : null;
    }

    /** Whether Better BibTeX reads {@code line} as data rather than text. */
    static boolean dataLine(String line) {
        if (eventDate(line) != null) {
            return true;
        }
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
        JsonNode csl = ZoteroCslMapping.csl();
        for (String kind : List.of("text", "date")) {
            csl.path("fields").path(kind).properties().forEach(v -> {
                out.add(label(v.getKey()));
                if (v.getValue().isArray()) {
                    v.getValue().forEach(field -> out.add(label(field.asText())));
                } else {
                    out.add(label(v.getValue().asText()));
                }
            });
        }
        csl.path("names").properties().forEach(v -> {
            out.add(label(v.getKey()));
            out.add(label(v.getValue().asText()));
        });
        for (String role : List.of("author", "editor", "translator", "contributor", "seriesEditor", "bookAuthor", "reviewedAuthor")) {
            out.add(label(role));
        }
        out.add("access date");
        for (dev.idiom.events.Field f : dev.idiom.events.Field.values()) {
            if (f.cslName() != null) {
                out.add(label(f.cslName()));
            }
        }
        return Set.copyOf(out);
    }

    /** One creator: its Zotero creator type and its name (a single-field name is a family name alone). */
    public record Creator(String role, Author name) {}

    /** The creators of roles the record keeps no list for (cast members, contributors, a patent's assignee…), in the item's order. */
    public static List<Creator> otherCreators(Metadata m) {
        String json = m.extras(Field.ZOTERO_EXTRAS).get(CREATORS);
        List<Creator> out = new ArrayList<>();
        if (json == null) {
            return out;
        }
        try {
            for (JsonNode c : JSON.readTree(json)) {
                String family = c.has("name") ? c.path("name").asText() : c.path("lastName").asText();
                if (!family.isBlank() && !c.path("creatorType").asText().isBlank()) {
                    out.add(new Creator(c.path("creatorType").asText(), new Author(family, c.has("name") ? "" : c.path("firstName").asText(""))));
                }
            }
        } catch (java.io.IOException | RuntimeException unreadable) {
            return List.of(); // not creators as Idiom writes them: nothing to say of them
        }
        return out;
    }
}
