package dev.idiom.events;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * The fields of a DE's canonical record, which follows CSL-JSON (the data model Zotero, Pandoc and
 * citeproc share): each field names the CSL variable it is, and this enum is the one definition
 * of what a valid value of each is. Values are {@code String}, {@code Integer} (year, month, day),
 * {@code List<Author>} (names by role) or {@code SortedSet<String>} (tags); {@code null} clears a
 * field. The first twelve are the fields of the record before it followed CSL, in their order.
 */
public enum Field {
    TYPE("type", "type", Kind.TYPE), TITLE("title", "title", Kind.TEXT), AUTHORS("authors", "author", Kind.NAMES),
    YEAR("year", "issued", Kind.YEAR), VENUE("venue", "container-title", Kind.TEXT), VOLUME("volume", "volume", Kind.TEXT),
    PAGES("pages", "page", Kind.TEXT), DOI("doi", "DOI", Kind.TEXT), URL("url", "URL", Kind.TEXT),
    ABSTRACT("abstract", "abstract", Kind.LONG_TEXT), TAGS("tags", null, Kind.TAGS), NOTES("notes", "note", Kind.LONG_TEXT),
    EDITORS("editors", "editor", Kind.NAMES), TRANSLATORS("translators", "translator", Kind.NAMES),
    MONTH("month", "issued", Kind.MONTH), DAY("day", "issued", Kind.DAY),
    COLLECTION_TITLE("collectionTitle", "collection-title", Kind.TEXT), COLLECTION_NUMBER("collectionNumber", "collection-number", Kind.TEXT),
    PUBLISHER("publisher", "publisher", Kind.TEXT), PUBLISHER_PLACE("publisherPlace", "publisher-place", Kind.TEXT),
    ISSUE("issue", "issue", Kind.TEXT), NUMBER("number", "number", Kind.TEXT), EDITION("edition", "edition", Kind.TEXT),
    ISBN("isbn", "ISBN", Kind.TEXT), ISSN("issn", "ISSN", Kind.TEXT), PMID("pmid", "PMID", Kind.TEXT), PMCID("pmcid", "PMCID", Kind.TEXT),
    ARXIV("arxiv", null, Kind.TEXT), LANGUAGE("language", "language", Kind.TEXT), EVENT("event", "event-title", Kind.TEXT),
    GENRE("genre", "genre", Kind.TEXT), ACCESSED("accessed", "accessed", Kind.DATE), CITATION_KEY("citationKey", "citation-key", Kind.TEXT),
    // more CSL 1.0.2 variables: what Zotero and BibTeX hold beside the above
    // (from here on, fields that copies synced before they were added hold unread: wrappers' UnreadValues)
    TITLE_SHORT("shortTitle", "title-short", Kind.TEXT), CONTAINER_TITLE_SHORT("journalAbbreviation", "container-title-short", Kind.TEXT),
    ARCHIVE("archive", "archive", Kind.TEXT), ARCHIVE_LOCATION("archiveLocation", "archive_location", Kind.TEXT),
    CALL_NUMBER("callNumber", "call-number", Kind.TEXT), SOURCE("source", "source", Kind.TEXT), LICENSE("license", "license", Kind.TEXT),
    DIMENSIONS("dimensions", "dimensions", Kind.TEXT), MEDIUM("medium", "medium", Kind.TEXT), VERSION("versionNumber", "version", Kind.TEXT),
    NUMBER_OF_PAGES("numberOfPages", "number-of-pages", Kind.TEXT), NUMBER_OF_VOLUMES("numberOfVolumes", "number-of-volumes", Kind.TEXT),
    EVENT_PLACE("eventPlace", "event-place", Kind.TEXT), AUTHORITY("authority", "authority", Kind.TEXT),
    SECTION("section", "section", Kind.TEXT), STATUS("status", "status", Kind.TEXT), SCALE("scale", "scale", Kind.TEXT),
    CHAPTER_NUMBER("chapterNumber", "chapter-number", Kind.TEXT), PART_NUMBER("partNumber", "part-number", Kind.TEXT),
    PART_TITLE("partTitle", "part-title", Kind.TEXT), ORIGINAL_PUBLISHER("originalPublisher", "original-publisher", Kind.TEXT),
    ORIGINAL_PUBLISHER_PLACE("originalPublisherPlace", "original-publisher-place", Kind.TEXT),
    REFERENCES("references", "references", Kind.TEXT),
    /** A Zotero item's fields no CSL variable holds, as Zotero holds them: they travel whole between Zotero libraries. */
    ZOTERO_EXTRAS("zoteroExtras", null, Kind.EXTRAS),
    /** A BibTeX entry's fields no CSL variable holds, as the file has them: they travel whole between .bib files. */
    BIBTEX_EXTRAS("bibtexExtras", null, Kind.EXTRAS);

    /** What a field's values are, and so how they are checked and written. */
    public enum Kind { TYPE, TEXT, LONG_TEXT, NAMES, YEAR, MONTH, DAY, DATE, TAGS, EXTRAS }

    /**
     * The per-tool-kind parts of the record: one tool kind's own fields by their names in that tool
     * (values as text, a list of creators as JSON), held for copies of the same kind only. Empty is absent (null).
     */
    public static final Set<Field> EXTRAS = java.util.EnumSet.of(Field.ZOTERO_EXTRAS, Field.BIBTEX_EXTRAS);
    /** Most entries one extras part holds. */
    public static final int MAX_EXTRAS = 200;
    private static final Pattern EXTRA_NAME = Pattern.compile("[A-Za-z@][A-Za-z0-9_.:@+-]{0,63}");

    /**
     * The work types a DE can have: CSL 1.0.2's types, and {@code preprint} (CSL-JSON writes it as
     * {@code article}, as Zotero does, because the record's {@code article} means a journal article).
     */
    public static final Set<String> TYPES = Set.of("article-journal", "article-magazine", "article-newspaper", "bill", "book", "broadcast",
            "chapter", "classic", "collection", "dataset", "document", "entry", "entry-dictionary", "entry-encyclopedia", "event", "figure",
            "graphic", "hearing", "interview", "legal_case", "legislation", "manuscript", "map", "motion_picture", "musical_score", "pamphlet",
            "paper-conference", "patent", "performance", "periodical", "personal_communication", "post", "post-weblog", "preprint",
            "regulation", "report", "review", "review-book", "software", "song", "speech", "standard", "thesis", "treaty", "webpage");

    /** The types of the record before it followed CSL, and the CSL type each one is now (the others kept their names). */
    public static final Map<String, String> FORMER_TYPES = Map.of("article", "article-journal", "inproceedings", "paper-conference",
            "misc", "document");

    private static final int MAX_TEXT = 20_000;
    private static final int MAX_SHORT = 1_000;
    private static final Pattern ISO_DATE = Pattern.compile("\\d{4}(-(0[1-9]|1[0-2])(-(0[1-9]|[12]\\d|3[01]))?)?");
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
    /** Reads an extras part typed as a form's JSON. */
    private static final com.fasterxml.jackson.databind.ObjectMapper FORM_JSON = new com.fasterxml.jackson.databind.ObjectMapper();

    private final String jsonName;
    private final String cslName;
    private final Kind kind;

    Field(String jsonName, String cslName, Kind kind) {
        this.jsonName = jsonName;
        this.cslName = cslName;
        this.kind = kind;
    }

    public String jsonName() {
        return jsonName;
    }

    /** The CSL variable this field is (year, month and day are parts of {@code issued}), or null (tags, arXiv id). */
    public String cslName() {
        return cslName;
    }

    public Kind kind() {
        return kind;
    }

    /** True for the fields that hold a list of names (authors, editors, translators). */
    public boolean names() {
        return kind == Kind.NAMES;
    }

    public static Field named(String name) {
        for (Field f : values()) {
            if (f.jsonName.equals(name)) {
                return f;
            }
        }
        throw new InvalidValueException("unknown field '" + name + "'; fields are " + Arrays.stream(values()).map(Field::jsonName).toList());
    }

    /** The type as the record holds it: a former type read as the CSL type it became, any other as it is. */
    public static String currentType(String type) {
        return type == null ? null : FORMER_TYPES.getOrDefault(type, type);
    }

    /** Validates and converts a JSON value (null or JSON null clears the field). */
    public Object fromJson(JsonNode node) {
        if (node == null || node.isNull()) {
            return kind == Kind.TAGS ? new TreeSet<String>() : kind == Kind.NAMES ? List.of() : null;
        }
        return switch (kind) {
            case EXTRAS -> {
                java.util.SortedMap<String, String> extras = new java.util.TreeMap<>();
                if (node.isArray()) { // the API's form: [{"name": …, "value": …}], a name given twice taking its last value
                    for (JsonNode pair : node) {
                        if (!pair.isObject() || !pair.path("name").isTextual() || !(pair.path("value").isTextual() || pair.path("value").isNumber())) {
                            throw new InvalidValueException("each of " + jsonName + " must be {\"name\": \"…\", \"value\": \"…\"}, got " + pair);
                        }
                        extras.put(pair.path("name").asText(), pair.path("value").asText());
                    }
                } else if (node.isObject()) { // a form's text: {"name": "value", …}
                    for (Map.Entry<String, JsonNode> e : node.properties()) {
                        if (!e.getValue().isTextual() && !e.getValue().isNumber()) {
                            throw new InvalidValueException("each value of " + jsonName + " must be a string, got " + e.getValue().getNodeType()
                                    + " for '" + e.getKey() + "'");
                        }
                        extras.put(e.getKey(), e.getValue().asText());
                    }
                } else {
                    throw new InvalidValueException(jsonName + " must be an array of {\"name\": \"…\", \"value\": \"…\"}");
                }
                yield extras(extras);
            }
            case YEAR, MONTH, DAY -> {
                if (!node.isIntegralNumber()) {
                    throw new InvalidValueException(jsonName + " must be a whole number, got " + node);
                }
                yield inRange(node.asLong());
            }
            case NAMES -> {
                if (!node.isArray()) {
                    throw new InvalidValueException(jsonName + " must be an array of {family, given}");
                }
                List<Author> names = new ArrayList<>();
                for (JsonNode a : node) {
                    if (a.isTextual()) {
                        names.add(Author.parse(a.asText()));
                    } else if (a.isObject() && a.path("family").isTextual()) {
                        names.add(new Author(a.path("family").asText(), a.path("given").asText("")));
                    } else {
                        throw new InvalidValueException("each of " + jsonName + " must be {\"family\": …, \"given\": …}, got " + a);
                    }
                }
                yield List.copyOf(names);
            }
            case TAGS -> {
                if (!node.isArray()) {
                    throw new InvalidValueException("tags must be an array of strings");
                }
                SortedSet<String> tags = new TreeSet<>();
                for (JsonNode t : node) {
                    if (!t.isTextual()) {
                        throw new InvalidValueException("each tag must be a string, got " + t);
                    }
                    tags.add(validTag(t.asText()));
                }
                yield tags;
            }
            default -> {
                if (!node.isTextual() && !node.isNumber()) {
                    throw new InvalidValueException(jsonName + " must be a string, got " + node.getNodeType());
                }
                yield fromText(node.asText());
            }
        };
    }

    /**
     * Validates and converts a plain-text value, as SOAP's updateDE carries it: names as
     * "Family, Given; Family, Given", tags separated by commas; empty text clears the field.
     */
    public Object fromText(String text) {
        String t = text == null ? "" : text.strip();
        switch (kind) {
            case YEAR, MONTH, DAY -> {
                if (t.isEmpty()) {
                    return null;
                }
                try {
                    return inRange(Long.parseLong(t));
                } catch (NumberFormatException e) {
                    throw new InvalidValueException(jsonName + " must be a whole number, got '" + t + "'");
                }
            }
            case NAMES -> {
                List<Author> names = new ArrayList<>();
                for (String part : t.split(";")) {
                    if (!part.isBlank()) {
                        names.add(Author.parse(part));
                    }
                }
                return List.copyOf(names);
            }
            case TAGS -> {
                SortedSet<String> tags = new TreeSet<>();
                for (String part : t.split(",")) {
                    if (!part.isBlank()) {
                        tags.add(validTag(part));
                    }
                }
                return tags;
            }
            case EXTRAS -> {
                if (t.isEmpty()) {
                    return null;
                }
                try {
                    return fromJson(FORM_JSON.readTree(t));
                } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
                    throw new InvalidValueException(jsonName + " must be JSON: {\"name\": \"value\", …}");
                }
            }
            case TYPE -> {
                if (t.isEmpty()) {
                    return null;
                }
                String type = currentType(t.toLowerCase(Locale.ROOT));
                if (!TYPES.contains(type)) {
                    Set<String> accepted = new LinkedHashSet<>(new TreeSet<>(TYPES));
                    throw new InvalidValueException("type must be one of " + accepted + " (CSL's types; article, inproceedings and misc "
                            + "are read as article-journal, paper-conference and document), got '" + t + "'");
                }
                return type;
            }
            case DATE -> {
                if (t.isEmpty()) {
                    return null;
                }
                if (!ISO_DATE.matcher(t).matches()) {
                    throw new InvalidValueException(jsonName + " must be a date YYYY, YYYY-MM or YYYY-MM-DD, got '" + t + "'");
                }
                return t;
            }
            default -> {
                if (t.isEmpty()) {
                    return null;
                }
                return checkedText(jsonName, t, kind == Kind.LONG_TEXT ? MAX_TEXT : MAX_SHORT);
            }
        }
    }

    /**
     * A value as a form's field holds it: names and tags one per line (so a tag may hold a comma or a
     * semicolon), any other field as {@link #fromText}.
     */
    public Object fromLines(String text) {
        if (kind != Kind.NAMES && kind != Kind.TAGS) {
            return fromText(text);
        }
        List<String> lines = text == null ? List.of() : text.lines().map(String::strip).filter(l -> !l.isEmpty()).toList();
        if (kind == Kind.NAMES) {
            return lines.stream().map(Author::parse).toList();
        }
        SortedSet<String> tags = new TreeSet<>();
        lines.forEach(l -> tags.add(validTag(l)));
        return tags;
    }

    /** The form's text of a value (the inverse of {@link #fromLines}). */
    public String toLines(Object value) {
        if (value instanceof java.util.Collection<?> c) {
            return String.join("\n", c.stream().map(Object::toString).toList());
        }
        return toText(value);
    }

    /**
     * A value as a tool holds it: {@link #fromText}, except that a date in another form than ISO's
     * ({@code 2020/01/05}, {@code 5 Jan 2020}) reads as absent rather than making the record unreadable;
     * the tool's own text stays in the replica's shadow.
     */
    public Object fromToolText(String text) {
        if (kind == Kind.DATE && text != null && !ISO_DATE.matcher(text.strip()).matches()) {
            return null;
        }
        return fromText(text);
    }

    /** The JSON form of a value of this field. */
    public JsonNode toJson(Object value) {
        if (value == null) {
            return JSON.nullNode();
        }
        return switch (kind) {
            case EXTRAS -> {
                ArrayNode pairs = JSON.arrayNode();
                ((Map<?, ?>) value).forEach((k, v) -> pairs.addObject().put("name", (String) k).put("value", (String) v));
                yield pairs;
            }
            case YEAR, MONTH, DAY -> JSON.numberNode((Integer) value);
            case NAMES -> {
                ArrayNode arr = JSON.arrayNode();
                for (Object o : (List<?>) value) {
                    Author a = (Author) o;
                    ObjectNode n = arr.addObject();
                    n.put("family", a.family());
                    n.put("given", a.given());
                }
                yield arr;
            }
            case TAGS -> {
                ArrayNode arr = JSON.arrayNode();
                ((Set<?>) value).forEach(tag -> arr.add((String) tag));
                yield arr;
            }
            default -> JSON.textNode((String) value);
        };
    }

    /** The plain-text form (the inverse of {@link #fromText}). */
    public String toText(Object value) {
        if (value == null) {
            return "";
        }
        return switch (kind) {
            case NAMES -> String.join("; ", ((List<?>) value).stream().map(Object::toString).toList());
            case TAGS -> String.join(", ", ((Set<?>) value).stream().map(Object::toString).toList());
            case EXTRAS -> { // as a form shows it: {"name": "value", …}
                ObjectNode o = JSON.objectNode();
                ((Map<?, ?>) value).forEach((k, v) -> o.put((String) k, (String) v));
                yield o.toPrettyString();
            }
            default -> value.toString();
        };
    }

    /** Longer than {@code max} characters as JSON Schema's maxLength and MySQL's VARCHAR count them: code points. */
    public static boolean longerThan(String t, int max) {
        return t.length() > max && t.codePointCount(0, t.length()) > max;
    }

    /**
     * A text value within its length, and without characters XML 1.0 cannot carry (C0 controls
     * but tab and line breaks, U+FFFE, U+FFFF, unpaired surrogates): every value must be readable
     * over SOAP as over REST.
     */
    static String checkedText(String what, String t, int max) {
        if (longerThan(t, max)) {
            throw new ValueTooLongException(what, max);
        }
        int at = uncarriableAt(t);
        if (at >= 0) {
            throw new UncarriableCharacterException(what, t.charAt(at), at);
        }
        return t;
    }

    /** Where {@code t} first holds a character XML 1.0 cannot carry (C0 controls but tab and line breaks, U+FFFE, U+FFFF, an unpaired surrogate), or -1. */
    public static int uncarriableAt(String t) {
        for (int i = 0; i < t.length(); i++) {
            char c = t.charAt(i);
            boolean control = c < 0x20 && c != '\t' && c != '\n' && c != '\r';
            boolean unpaired = Character.isHighSurrogate(c) ? i + 1 >= t.length() || !Character.isLowSurrogate(t.charAt(i + 1)) : Character.isLowSurrogate(c);
            if (control || c == '\uFFFE' || c == '\uFFFF' || unpaired) {
                return i;
            }
            if (Character.isHighSurrogate(c)) {
                i++; // the pair's low half
            }
        }
        return -1;
    }

    /**
     * An extras part as the record holds it: names checked, values as text within their length, at
     * most {@link #MAX_EXTRAS}; empty values left out, and an empty part is absent (null).
     */
    public static java.util.SortedMap<String, String> extras(Map<String, String> raw) {
        if (raw == null) {
            return null;
        }
        java.util.SortedMap<String, String> out = new java.util.TreeMap<>();
        raw.forEach((k, v) -> {
            if (k == null || !EXTRA_NAME.matcher(k).matches()) {
                throw new InvalidValueException("an extras name must be a letter then up to 63 letters, digits or _.:@+-, got '" + k + "'");
            }
            if (v != null && !v.isBlank()) {
                out.put(k, checkedText("extras value '" + k + "'", v, MAX_TEXT));
            }
        });
        if (out.size() > MAX_EXTRAS) {
            throw new InvalidValueException("an extras part holds at most " + MAX_EXTRAS + " entries, got " + out.size());
        }
        return out.isEmpty() ? null : java.util.Collections.unmodifiableSortedMap(out);
    }

    private Integer inRange(long n) {
        long max = kind == Kind.MONTH ? 12 : kind == Kind.DAY ? 31 : 9999;
        if (n < 1 || n > max) {
            throw new InvalidValueException(jsonName + " must be between 1 and " + max + ", got " + n);
        }
        return (int) n;
    }

    static String validTag(String raw) {
        String tag = raw.strip();
        if (tag.isEmpty()) {
            throw new InvalidValueException("a tag cannot be empty");
        }
        return checkedText("a tag", tag, 190);
    }
}
