package dev.idiom.wrappers.zotero;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.idiom.events.Author;
import dev.idiom.events.Field;
import dev.idiom.events.Metadata;
import dev.idiom.wrappers.zotero.ZoteroSchema.ItemType;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Between Zotero item data and Idiom's canonical record (CSL-JSON's model), by Zotero's published
 * schema and its own CSL mapping ({@link ZoteroCsl}): an item type is its CSL type, each field is
 * the CSL variable its base field maps to, each creator type its CSL role. A variable the item type
 * has no field for lives in {@code extra} as a {@code name: value} line, as Zotero itself reads and
 * writes them ({@code publisher-place: Berlin}, {@code editor: Family || Given}, {@code type: song},
 * {@code arXiv: 2101.00001}); the other lines of {@code extra} stay as they are. Idiom's notes are
 * not written to Zotero (its notes are child items; {@code extra} is data). Writing changes only the
 * fields Idiom changed, in the item's own type, and leaves the rest of the item (collections,
 * relations, other creators, the date's own form, tag types, fields Idiom does not model, the trash
 * flag) exactly as Zotero returned it.
 */
final class ZoteroItems {
    private static final ZoteroSchema SCHEMA = ZoteroSchema.published();
    private static final ZoteroCsl CSL = ZoteroCsl.published();
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
    private static final com.fasterxml.jackson.databind.ObjectMapper MAPPER = new com.fasterxml.jackson.databind.ObjectMapper();
    private static final Pattern YEAR = Pattern.compile("(?<!\\d)(\\d{4})(?!\\d)");
    private static final Pattern ISO_DATE = Pattern.compile("^\\s*(\\d{4})(?:-(\\d{1,2})(?:-(\\d{1,2}))?)?(?:[ T].*)?$");
    private static final List<String> MONTHS = List.of("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec");
    private static final Pattern MONTH_NAME = Pattern.compile("(?i)\\b(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\\.?");
    private static final Pattern DAY = Pattern.compile("(?<!\\d)(\\d{1,2})(?!\\d)");
    /** A date in numbers with slashes or dots, as Zotero parses one: {@code 2016/12/01}, {@code 7/1994}, {@code 22/09/2020}, {@code 12.05.2019}. */
    private static final Pattern NUMERIC_DATE = Pattern.compile("^(\\d{1,4})[/.](\\d{1,4})(?:[/.](\\d{1,4}))?$");

    /** The fields read from and written to a plain field of the item (or its extra line): all but these. */
    private static final Set<Field> APART = EnumSet.of(Field.TYPE, Field.AUTHORS, Field.EDITORS, Field.TRANSLATORS, Field.YEAR, Field.MONTH,
            Field.DAY, Field.ACCESSED, Field.ARXIV, Field.TAGS, Field.NOTES, Field.ZOTERO_EXTRAS, Field.BIBTEX_EXTRAS);
    /** The creator type of each list of names but authors (whose creator type is the item type's primary one). */
    private static final Map<Field, String> ROLES = Map.of(Field.EDITORS, "editor", Field.TRANSLATORS, "translator");

    /** The fields Zotero holds: all but notes and another kind's extras. */
    static final Set<Field> KEPT = EnumSet.complementOf(EnumSet.of(Field.NOTES, Field.BIBTEX_EXTRAS));

    /**
     * A line of {@code extra} that Zotero and citation tools read as data: {@code Citation Key: demers87}
     * (Better BibTeX), {@code PMID: 123}, {@code arXiv: 1805.06358}, {@code tex.howpublished: …}, or
     * a CSL variable ({@code original-date: 1987}, {@code publisher-place: …}).
     */
    private static final Pattern DATA_LINE = Pattern.compile("^\\s*(?<key>tex\\.[\\w-]+|[A-Za-z][A-Za-z_ -]{0,40}?)\\s*:\\s*(?<value>\\S.*)$");
    /** citeproc-js's older form of a data line, which Zotero still reads: {@code {:original-date: 1987}}. */
    private static final Pattern BRACED_DATA_LINE = Pattern.compile("^\\s*\\{:(?<key>[A-Za-z][A-Za-z_ -]{0,40}?)\\s*:\\s*(?<value>\\S.*?)\\s*}\\s*$");

    /** The line as a data line (its key and value), in either form; a matcher that does not match if it is none. */
    private static Matcher dataLine(String line) {
        Matcher braced = BRACED_DATA_LINE.matcher(line);
        return braced.matches() ? braced : DATA_LINE.matcher(line);
    }

    /** The key of a data line as written ("Conference Name"), or null. */
    private static String lineLabel(String line) {
        Matcher m = dataLine(line);
        return m.matches() ? m.group("key").strip() : null;
    }

    private ZoteroItems() {}

    /** The key of an extra line, as Zotero compares them: lower case, spaces and underscores as hyphens ("Citation Key" is citation-key); null if not a data line. */
    private static String lineKey(String line) {
        String label = lineLabel(line);
        return label == null ? null : label.toLowerCase(Locale.ROOT).replace(' ', '-').replace('_', '-');
    }

    /** The values of {@code extra}'s data lines by key (the first line of each key). */
    private static Map<String, String> extraLines(String extra) {
        Map<String, String> out = new java.util.LinkedHashMap<>();
        if (extra != null) {
            extra.lines().forEach(l -> {
                Matcher m = dataLine(l);
                if (m.matches()) {
                    out.putIfAbsent(lineKey(l), m.group("value").strip());
                }
            });
        }
        return out;
    }

    /** {@code extra} with the lines of {@code key} replaced by {@code values} (none: removed), every other line as it was. */
    static String withExtraLines(String extra, String key, List<String> values) {
        List<String> out = new ArrayList<>();
        String k = key.toLowerCase(Locale.ROOT).replace(' ', '-').replace('_', '-');
        boolean placed = false;
        for (String l : extra == null || extra.isEmpty() ? List.<String>of() : extra.lines().toList()) {
            if (k.equals(lineKey(l))) {
                if (!placed) {
                    values.forEach(v -> out.add(key + ": " + v));
                    placed = true;
                }
            } else {
                out.add(l);
            }
        }
        if (!placed) {
            values.forEach(v -> out.add(key + ": " + v));
        }
        return String.join("\n", out);
    }

    /** Item types that are not works: notes, attachments, annotations (they have no place in a DE's record). */
    static final java.util.Set<String> NOT_WORKS = java.util.Set.of("note", "attachment", "annotation");

    /** True for an item that describes a work (a book, an article…), false for a note, an attachment or an annotation. */
    static boolean work(JsonNode data) {
        return !NOT_WORKS.contains(data.path("itemType").asText());
    }

    private static ItemType type(ZoteroSchema schema, JsonNode data) {
        ItemType t = schema.type(data.path("itemType").asText());
        if (t == null) {
            throw new IllegalArgumentException("item type '" + data.path("itemType").asText() + "' is not in Zotero's schema (" + schema.source() + ")");
        }
        return t;
    }

    /**
     * The item type a CSL type is written as in {@code schema}: its own, or, where the service's
     * schema has no such item type (an older server), a {@code document} whose extra line names the type.
     */
    private static ItemType itemTypeIn(ZoteroSchema schema, String cslType) {
        ItemType t = schema.type(itemType(cslType));
        return t != null ? t : schema.type("document");
    }

    /** Idiom's type of an item: its CSL type, or the type an extra line names for a {@code document} (a CSL type Zotero has no item type for). */
    static String cslType(ItemType t, Map<String, String> extra) {
        return cslType(SCHEMA, t, extra);
    }

    /** As above, where {@code schema} (the service's) may lack the item type a CSL type has in the published one. */
    static String cslType(ZoteroSchema schema, ItemType t, Map<String, String> extra) {
        String named = extra.get("type");
        if (named != null && Field.TYPES.contains(named) && (CSL.itemType(named) == null || schema.type(CSL.itemType(named)) == null)) {
            return named;
        }
        String csl = CSL.type(t.name());
        return csl == null ? "document" : csl;
    }

    /** The item type Idiom's type is created as ({@code document} for a CSL type Zotero has none for). */
    static String itemType(String type) {
        String item = CSL.itemType(type == null ? "document" : type);
        return item == null ? "document" : item;
    }

    static Metadata metadata(JsonNode data) {
        return metadata(SCHEMA, data);
    }

    /**
     * The record an item holds within the record's bounds: a field longer than the record holds (a
     * licence past 1,000 characters; Zotero takes up to 65,535 in most fields) is left out and named,
     * and stays in the item ({@link dev.idiom.wrappers.RecordBounds}).
     */
    static dev.idiom.wrappers.RecordBounds.Read<Metadata> bounded(ZoteroSchema schema, JsonNode data) {
        return dev.idiom.wrappers.RecordBounds.read(data, d -> metadata(schema, d), d -> {
            java.util.Map<String, String> texts = new java.util.LinkedHashMap<>();
            d.properties().forEach(e -> {
                if (e.getValue().isTextual()) {
                    texts.put(e.getKey(), e.getValue().asText());
                }
            });
            return texts;
        }, (d, name) -> {
            ObjectNode copy = ((ObjectNode) d).deepCopy();
            copy.remove(name);
            return copy;
        });
    }

    /** The record an item holds, read by the schema of the service that served it. */
    static Metadata metadata(ZoteroSchema schema, JsonNode data) {
        ItemType t = type(schema, data);
        String extraField = t.fieldFor("extra");
        Map<String, String> extra = extraLines(extraField == null ? null : data.path(extraField).asText(null));
        Metadata m = Metadata.EMPTY.with(Field.TYPE, cslType(schema, t, extra));
        Map<Field, String> fieldLines = new java.util.EnumMap<>(Field.class); // the line each field was read from
        for (Field f : Field.values()) {
            if (APART.contains(f)) {
                continue;
            }
            String own = CSL.fieldOf(t, f);
            String v = own == null ? null : data.path(own).asText(null);
            if (f == Field.NUMBER && v != null && v.regionMatches(true, 0, "arXiv:", 0, 6)) {
                v = null; // a preprint's archiveID "arXiv:…" is its arXiv id (below), not a number
            }
            String line = v == null || v.isBlank() ? lineReadFor(t, data, extra, f) : null;
            if (line != null) {
                fieldLines.put(f, line);
            }
            m = set(m, f, line != null ? extra.get(line) : v);
        }
        String date = t.fieldFor("date");
        m = date(m, date == null ? extra.get("issued") : data.path(date).asText(""));
        String accessed = t.fieldFor("accessDate");
        String accessedText = accessed == null ? null : data.path(accessed).asText("");
        Matcher iso = accessedText == null ? null : ISO_DATE.matcher(accessedText);
        if (iso != null && iso.matches()) {
            m = set(m, Field.ACCESSED, accessedText.strip().split("[ T]")[0]);
        }
        String archiveId = t.fieldFor("archiveID") == null ? "" : data.path(t.fieldFor("archiveID")).asText("");
        m = set(m, Field.ARXIV, archiveId.regionMatches(true, 0, "arXiv:", 0, 6) ? archiveId.substring(6).strip() : extra.get("arxiv"));
        m = m.with(Field.AUTHORS, names(data.path("creators"), t.primaryCreatorType()));
        for (Map.Entry<Field, String> role : ROLES.entrySet()) {
            List<Author> names = t.creatorTypes().contains(role.getValue()) ? names(data.path("creators"), role.getValue())
                    : extraNames(extraField == null ? null : data.path(extraField).asText(null), role.getValue());
            m = m.with(role.getKey(), names);
        }
        SortedSet<String> tags = new TreeSet<>();
        for (JsonNode tag : data.path("tags")) {
            if (!tag.path("tag").asText("").isBlank()) {
                tags.add(tag.path("tag").asText().strip());
            }
        }
        m = m.with(Field.TAGS, tags);
        return m.with(Field.ZOTERO_EXTRAS, Field.extras(extras(schema, t, data, m, extra, fieldLines)));
    }

    /** The keys of the Zotero extras part that are no item field: the item type, creators of other roles, the date and access date as typed, extra's other lines. */
    static final String ITEM_TYPE = "itemType";
    static final String CREATORS = dev.idiom.wrappers.ZoteroExtras.CREATORS;
    static final String DATE = "date";
    static final String ACCESS_DATE = "accessDate";
    static final String EXTRA = "extra";
    /** The key prefix of the label a field's extra line has where it is not the CSL variable ({@code line:event-title} → "Conference Name"). */
    static final String LINE_LABEL = "line:";
    /**
     * The extra lines of an item of type {@code t} read into the record whatever else it holds (by their
     * keys as {@link #lineKey} gives them): the CSL type the record takes from one, and the date, the arXiv id, editors and
     * translators where the item has no place of its own for them; a field's line, see {@link #lineReadFor}.
     */
    private static Set<String> linesRead(ZoteroSchema schema, ItemType t, JsonNode data, Map<String, String> lines) {
        Set<String> out = new java.util.HashSet<>();
        if (lines.get("type") != null && lines.get("type").equals(cslType(schema, t, lines))) {
            out.add("type"); // a CSL type Zotero has no item type for; "Type: constitution" is no type and stays a line, as in Zotero
        }
        if (t.fieldFor("date") == null) {
            out.add("issued");
        }
        String archiveId = t.fieldFor("archiveID") == null ? "" : data.path(t.fieldFor("archiveID")).asText("");
        if (!archiveId.regionMatches(true, 0, "arXiv:", 0, 6)) {
            out.add("arxiv");
        }
        ROLES.values().stream().filter(role -> !t.creatorTypes().contains(role)).forEach(out::add);
        return out;
    }

    /**
     * The key of the extra line {@code f} is read from: where the item's own field for it is empty or
     * absent, the first of its keys a line has ({@code event-title: …} or {@code Conference Name: …},
     * as Zotero reads them); null where the own field holds it (the line then stays a line).
     */
    private static String lineReadFor(ItemType t, JsonNode data, Map<String, String> extra, Field f) {
        String own = CSL.fieldOf(t, f);
        String v = own == null ? "" : data.path(own).asText("");
        if (!v.isBlank() && !(f == Field.NUMBER && v.regionMatches(true, 0, "arXiv:", 0, 6))) {
            return null;
        }
        return CSL.extraKeys(f).stream().filter(extra::containsKey).findFirst().orElse(null);
    }

    /**
     * What of the item no canonical field holds, as Zotero holds it (the Zotero extras part): the
     * item type where it is not the one Idiom's type is created as (a {@code tvBroadcast}, not a
     * {@code podcast}), the type's fields no canonical field reads (a patent's {@code country},
     * {@code assignee} and {@code filingDate}, fields a newer schema adds…), creators of roles Idiom has no list for, the date and
     * access date as typed where they say more than the record ("Summer 1993", a time) and the
     * lines of {@code extra} Idiom does not read. Copies in other Zotero libraries get it whole.
     */
    private static Map<String, String> extras(ZoteroSchema schema, ItemType t, JsonNode data, Metadata m, Map<String, String> lines,
                                              Map<Field, String> fieldLines) {
        Map<String, String> out = new java.util.TreeMap<>();
        if (!t.name().equals(itemTypeIn(schema, m.type()).name())) {
            out.put(ITEM_TYPE, t.name());
        }
        Set<String> read = readFields(t);
        for (String f : t.fields().keySet()) {
            String v = data.path(f).asText("");
            if (!read.contains(f) && !v.isBlank()) {
                out.put(f, v);
            }
        }
        String date = t.fieldFor("date") == null ? "" : data.path(t.fieldFor("date")).asText("").strip();
        if (!date.isEmpty() && !date.equals(isoDate(m))) {
            out.put(DATE, date);
        }
        String accessed = t.fieldFor("accessDate") == null ? "" : data.path(t.fieldFor("accessDate")).asText("").strip();
        if (!accessed.isEmpty() && !accessed.equals(m.accessed())) {
            out.put(ACCESS_DATE, accessed);
        }
        ArrayNode others = JSON.arrayNode();
        for (JsonNode c : data.path("creators")) {
            if (!ownRole(t, c.path("creatorType").asText())) {
                others.add(c);
            }
        }
        if (!others.isEmpty()) {
            out.put(CREATORS, others.toString());
        }
        String extra = t.fieldFor("extra") == null ? null : data.path(t.fieldFor("extra")).asText(null);
        if (extra != null) {
            Set<String> readLines = linesRead(schema, t, data, lines);
            fieldLines.forEach((f, line) -> {
                readLines.add(line);
                String label = labelOf(extra, line);
                if (!label.equals(f.cslName())) { // a copy's line says it as this one does ("Publication title", "Genre")
                    out.put(LINE_LABEL + f.cslName(), label);
                }
            });
            String rest = String.join("\n", extra.lines().filter(l -> !readLines.contains(lineKey(l))).toList()).strip();
            if (!rest.isEmpty()) {
                out.put(EXTRA, rest);
            }
        }
        return out;
    }

    /** True for a creator type Idiom reads into a list of names in items of type {@code t}. */
    private static boolean ownRole(ItemType t, String creatorType) {
        return creatorType.equals(t.primaryCreatorType()) || ROLES.containsValue(creatorType);
    }

    /** The fields of each item type a canonical field is read from (worked out once per type: a sync's comparisons ask often). */
    private static final Map<ItemType, Set<String>> READ_FIELDS = new java.util.concurrent.ConcurrentHashMap<>();

    /** The fields of {@code t} a canonical field is read from. */
    private static Set<String> readFields(ItemType t) {
        return READ_FIELDS.computeIfAbsent(t, ZoteroItems::fieldsRead);
    }

    private static Set<String> fieldsRead(ItemType t) {
        Set<String> out = new java.util.HashSet<>();
        for (Field f : Field.values()) {
            String own = APART.contains(f) ? null : CSL.fieldOf(t, f);
            if (own != null) {
                out.add(own);
            }
        }
        for (String base : List.of("date", "accessDate", "extra", "archiveID")) {
            if (t.fieldFor(base) != null) {
                out.add(t.fieldFor(base));
            }
        }
        return Set.copyOf(out);
    }

    /** The record's date as ISO writes it ({@code YYYY[-MM[-DD]]}), or null. */
    private static String isoDate(Metadata m) {
        return m.year() == null ? null : m.year() + (m.month() == null ? "" : String.format("-%02d", m.month())
                + (m.day() == null ? "" : String.format("-%02d", m.day())));
    }

    /**
     * {@code wanted} with its Zotero extras as an item of type {@code t} would hold them after a write:
     * only the fields and creator roles the type has, the item type as the copy has it, the date and
     * access date as typed only where they still read as the record's (a sync compares against this,
     * so what a copy cannot take is not owed to it forever).
     */
    static Metadata holdable(ZoteroSchema schema, ItemType t, Metadata wanted) {
        Map<String, String> extras = wanted.extras(Field.ZOTERO_EXTRAS);
        if (extras.isEmpty()) {
            return wanted;
        }
        Map<String, String> out = new java.util.TreeMap<>();
        Set<String> read = readFields(t);
        extras.forEach((k, v) -> {
            switch (k) {
                case ITEM_TYPE, CREATORS -> { } // below
                case DATE -> {
                    if (t.fieldFor("date") != null && datedAs(v, wanted)) {
                        out.put(k, v);
                    }
                }
                case ACCESS_DATE -> {
                    if (t.fieldFor("accessDate") != null && accessedAs(v, wanted)) {
                        out.put(k, v);
                    }
                }
                case EXTRA -> {
                    if (t.fieldFor("extra") != null) {
                        out.put(k, v);
                    }
                }
                default -> {
                    if (k.startsWith(LINE_LABEL)) { // held where the field is a line of this type's extra
                        Field f = LINE_FIELDS.get(k.substring(LINE_LABEL.length()));
                        if (f != null && t.fieldFor("extra") != null && CSL.fieldOf(t, f) == null && wanted.get(f) != null) {
                            out.put(k, v);
                        }
                    } else if (t.has(k) && !read.contains(k)) {
                        out.put(k, v);
                    }
                }
            }
        });
        if (!t.name().equals(itemTypeIn(schema, wanted.type()).name())) {
            out.put(ITEM_TYPE, t.name());
        }
        ArrayNode creators = JSON.arrayNode();
        extraCreators(extras.get(CREATORS)).stream().filter(c -> t.creatorTypes().contains(c.path("creatorType").asText())
                && !ownRole(t, c.path("creatorType").asText())).forEach(creators::add);
        if (!creators.isEmpty()) {
            out.put(CREATORS, creators.toString());
        }
        return wanted.with(Field.ZOTERO_EXTRAS, Field.extras(out));
    }

    /** The item type a new copy of {@code m} is made as: the one its Zotero extras name where that is of the record's type, else the type's own. */
    static ItemType newItemType(ZoteroSchema schema, Metadata m) {
        ItemType named = schema.type(m.extras(Field.ZOTERO_EXTRAS).getOrDefault(ITEM_TYPE, ""));
        return named != null && Objects.equals(cslType(schema, named, Map.of()), m.type() == null ? "document" : m.type()) ? named
                : itemTypeIn(schema, m.type());
    }

    /** True if a date as typed reads as the record's year, month and day. */
    private static boolean datedAs(String typed, Metadata m) {
        Metadata reads = date(Metadata.EMPTY, typed);
        return Objects.equals(reads.year(), m.year()) && Objects.equals(reads.month(), m.month()) && Objects.equals(reads.day(), m.day());
    }

    /** True if an access date as typed (with its time) is of the record's access day. */
    private static boolean accessedAs(String typed, Metadata m) {
        return m.accessed() != null && typed.strip().split("[ T]")[0].equals(m.accessed());
    }

    private static List<JsonNode> extraCreators(String json) {
        if (json == null) {
            return List.of();
        }
        try {
            List<JsonNode> out = new ArrayList<>();
            MAPPER.readTree(json).forEach(out::add);
            return out;
        } catch (com.fasterxml.jackson.core.JsonProcessingException notJson) {
            return List.of(); // a value typed by hand that is no list of creators holds none
        }
    }

    /** The creators of one creator type, in order. */
    private static List<Author> names(JsonNode creators, String creatorType) {
        List<Author> out = new ArrayList<>();
        for (JsonNode c : creators) {
            if (c.path("creatorType").asText().equals(creatorType)) {
                Author a = author(c);
                if (a != null) {
                    out.add(a);
                }
            }
        }
        return out;
    }

    /** Names kept in extra lines ({@code editor: Family || Given}), as Zotero writes creators of a role the item type lacks. */
    private static List<Author> extraNames(String extra, String role) {
        List<Author> out = new ArrayList<>();
        if (extra == null) {
            return out;
        }
        extra.lines().forEach(l -> {
            if (role.equals(lineKey(l))) {
                Matcher line = dataLine(l);
                String v = line.matches() ? line.group("value").strip() : "";
                int bars = v.indexOf("||");
                out.add(bars < 0 ? new Author(v, "") : new Author(v.substring(0, bars), v.substring(bars + 2)));
            }
        });
        return out;
    }

    /** Year, month and day of a Zotero date: ISO ({@code 2019-05-17}, {@code 2019-05}) or words ({@code May 17, 2019}, {@code 17 May 2019}). */
    static Metadata date(Metadata m, String text) {
        if (text == null || text.isBlank()) {
            return m;
        }
        String t = text.strip();
        if (t.length() > 1 && t.charAt(0) == '-' && Character.isDigit(t.charAt(1))) {
            return m; // a year before the common era (EDTF's -0333): no year of the record's, which start at 1; the date stays as typed in the Zotero extras
        }
        Matcher numeric = NUMERIC_DATE.matcher(t);
        if (numeric.matches()) {
            return numericDate(m, numeric.group(1), numeric.group(2), numeric.group(3));
        }
        int slash = t.indexOf('/');
        if (slash > 0 && ISO_DATE.matcher(t.substring(0, slash)).matches()) {
            t = t.substring(0, slash); // an EDTF interval (2014-12-31/2015-01-01): the record's date is its start, the whole stays as typed
        }
        Matcher iso = ISO_DATE.matcher(t);
        if (iso.matches()) {
            m = number(m, Field.YEAR, iso.group(1));
            m = iso.group(2) == null ? m : number(m, Field.MONTH, iso.group(2));
            return iso.group(3) == null ? m : number(m, Field.DAY, iso.group(3));
        }
        Matcher y = YEAR.matcher(text);
        if (!y.find()) {
            return m;
        }
        m = number(m, Field.YEAR, y.group(1));
        Matcher month = MONTH_NAME.matcher(text);
        if (month.find()) {
            m = m.with(Field.MONTH, MONTHS.indexOf(month.group(1).toLowerCase(Locale.ROOT)) + 1);
            Matcher day = DAY.matcher(text.substring(0, y.start()) + " " + text.substring(y.end()));
            if (day.find()) {
                m = number(m, Field.DAY, day.group(1));
            }
        }
        return m;
    }

    /**
     * Year, month and day of a date in numbers, read as Zotero's date parser reads it: a year of four
     * digits first is year, month, day; a year last is month, day, year (day first where the first
     * number cannot be a month: {@code 22/09/2020}); two numbers are a month and its year. Anything
     * else gives no month or day, only the year.
     */
    private static Metadata numericDate(Metadata m, String a, String b, String c) {
        if (c == null) {
            return a.length() == 4 ? month(number(m, Field.YEAR, a), b, null) : b.length() == 4 ? month(number(m, Field.YEAR, b), a, null) : m;
        }
        if (a.length() == 4) {
            return month(number(m, Field.YEAR, a), b, c);
        }
        if (c.length() != 4) {
            return m;
        }
        m = number(m, Field.YEAR, c);
        return Integer.parseInt(a) > 12 ? month(m, b, a) : month(m, a, b);
    }

    /** The month, and its day where given, when the month is one. */
    private static Metadata month(Metadata m, String month, String day) {
        int n = Integer.parseInt(month);
        if (n < 1 || n > 12 || m.year() == null) {
            return m;
        }
        m = m.with(Field.MONTH, n);
        return day == null ? m : number(m, Field.DAY, day);
    }

    private static Metadata number(Metadata m, Field f, String v) {
        try {
            return m.with(f, f.fromText(v));
        } catch (RuntimeException outOfRange) {
            return m;
        }
    }

    /** A creator as a name: a single-field {@code name} creator is a family name alone. */
    private static Author author(JsonNode c) {
        String family = c.has("name") ? c.path("name").asText() : c.path("lastName").asText();
        return family.isBlank() ? null : new Author(family, c.has("name") ? "" : c.path("firstName").asText(""));
    }

    private static Metadata set(Metadata m, Field f, String v) {
        return v == null || v.isBlank() ? m : m.with(f, f.fromToolText(v));
    }

    /** Item data for a new item: Idiom's type's item type, holding only fields it has (the others in extra lines). */
    static ObjectNode newItem(Metadata m) {
        return newItem(SCHEMA, m);
    }

    /** As above, holding only the fields {@code schema} (the service's) gives its type; every other value in an extra line. */
    static ObjectNode newItem(ZoteroSchema schema, Metadata m) {
        ItemType t = newItemType(schema, m);
        ObjectNode base = JSON.objectNode().put("itemType", t.name());
        base.putArray("creators");
        base.putArray("tags");
        return withChanges(schema, base, Metadata.EMPTY.with(Field.TYPE, cslType(schema, t, Map.of())), m);
    }

    /**
     * The whole item {@code data} with the fields that differ between {@code before} and
     * {@code after} applied, and nothing else touched. A changed type changes the item type only
     * when the item does not already read as the new type, and carries the values of base-mapped
     * fields across (a bookTitle becomes a publicationTitle); a field the type cannot hold goes to
     * an extra line.
     */
    static ObjectNode withChanges(ObjectNode data, Metadata before, Metadata after) {
        return withChanges(SCHEMA, data, before, after);
    }

    /** As above, by {@code schema}: a field the service does not know goes to an extra line, never into a write it would refuse. */
    static ObjectNode withChanges(ZoteroSchema schema, ObjectNode data, Metadata before, Metadata after) {
        ItemType t = type(schema, data);
        ObjectNode out = data.deepCopy();
        String extraField = t.fieldFor("extra");
        if (!Objects.equals(before.type(), after.type()) && !cslType(schema, t, extraLines(extraField == null ? null : data.path(extraField).asText(null))).equals(after.type())) {
            ItemType to = itemTypeIn(schema, after.type());
            if (!to.name().equals(t.name())) {
                out = convert(data, t, to);
                t = to;
            }
            extraField = t.fieldFor("extra");
            if (extraField != null) {
                boolean named = (CSL.itemType(after.type()) == null || schema.type(itemType(after.type())) == null) && after.type() != null
                        && !"document".equals(after.type());
                out.put(extraField, withExtraLines(out.path(extraField).asText(""), "type", named ? List.of(after.type()) : List.of()));
            }
        }
        for (Field f : Field.values()) {
            if (APART.contains(f) || !changed(before, after, f)) {
                continue;
            }
            String own = CSL.fieldOf(t, f);
            if (own != null) {
                out.put(own, text(after.get(f)));
            } else {
                out = extra(out, t, f, after.get(f) == null ? List.of() : List.of(text(after.get(f))), after.extras(Field.ZOTERO_EXTRAS));
            }
        }
        Map<String, String> was = before.extras(Field.ZOTERO_EXTRAS);
        Map<String, String> now = after.extras(Field.ZOTERO_EXTRAS);
        String date = t.fieldFor("date");
        if (date != null && (changed(before, after, Field.YEAR) || changed(before, after, Field.MONTH) || changed(before, after, Field.DAY)
                || !Objects.equals(was.get(DATE), now.get(DATE)))) {
            String typed = now.get(DATE); // "Summer 1993", "June 18–23, 2017": kept as typed while it reads as the record's date
            out.put(date, typed != null && datedAs(typed, after) ? typed : date(out.path(date).asText(""), before, after));
        }
        String accessed = t.fieldFor("accessDate");
        if (accessed != null && (changed(before, after, Field.ACCESSED) || !Objects.equals(was.get(ACCESS_DATE), now.get(ACCESS_DATE)))) {
            String typed = now.get(ACCESS_DATE); // with its time
            out.put(accessed, typed != null && accessedAs(typed, after) ? typed : text(after.accessed()));
        }
        if (!was.equals(now)) {
            out = withExtras(out, t, was, now, after);
        }
        if (changed(before, after, Field.ARXIV)) {
            String archiveId = t.fieldFor("archiveID");
            if (archiveId != null && (out.path(archiveId).asText("").isEmpty() || out.path(archiveId).asText("").regionMatches(true, 0, "arXiv:", 0, 6))) {
                out.put(archiveId, after.arxiv() == null ? "" : "arXiv:" + after.arxiv());
            } else {
                out = extra(out, t, "arXiv", after.arxiv() == null ? List.of() : List.of(after.arxiv()));
            }
        }
        if (changed(before, after, Field.AUTHORS)) {
            out.set("creators", creators(out.path("creators"), t.primaryCreatorType(), true, after.authors()));
        }
        for (Map.Entry<Field, String> role : ROLES.entrySet()) {
            if (!changed(before, after, role.getKey())) {
                continue;
            }
            @SuppressWarnings("unchecked")
            List<Author> names = (List<Author>) after.get(role.getKey());
            if (t.creatorTypes().contains(role.getValue())) {
                out.set("creators", creators(out.path("creators"), role.getValue(), false, names));
            } else {
                out = extra(out, t, role.getValue(), names.stream().map(a -> a.family() + (a.given().isEmpty() ? "" : " || " + a.given())).toList());
            }
        }
        if (changed(before, after, Field.TAGS)) {
            out.set("tags", tags(out.path("tags"), after.tags()));
        }
        return out;
    }

    /**
     * {@code out} with the Zotero extras that changed from {@code was} to {@code now} written: the
     * type's own fields, creators of other roles (those {@code was} had taken out, {@code now}'s
     * added after the others), extra's other lines (those {@code was} had replaced by {@code now}'s).
     */
    private static ObjectNode withExtras(ObjectNode out, ItemType t, Map<String, String> was, Map<String, String> now, Metadata after) {
        Set<String> keys = new TreeSet<>(was.keySet());
        keys.addAll(now.keySet());
        Set<String> read = readFields(t);
        for (String k : keys) {
            if (Objects.equals(was.get(k), now.get(k))) {
                continue;
            }
            switch (k) {
                case ITEM_TYPE, DATE, ACCESS_DATE -> { } // at creation and above
                case CREATORS -> {
                    List<JsonNode> gone = new ArrayList<>(extraCreators(was.get(k)));
                    ArrayNode creators = JSON.arrayNode();
                    for (JsonNode c : out.path("creators")) {
                        if (!gone.remove(c)) {
                            creators.add(c);
                        }
                    }
                    extraCreators(now.get(k)).stream().filter(c -> t.creatorTypes().contains(c.path("creatorType").asText())).forEach(creators::add);
                    out.set("creators", creators);
                }
                case EXTRA -> {
                    String extraField = t.fieldFor("extra");
                    if (extraField != null) {
                        List<String> lines = new ArrayList<>(out.path(extraField).asText("").lines().toList());
                        // a line a field of the record is now read from stays (it was among the unread lines when an earlier Idiom read it)
                        Set<String> fieldLines = new java.util.HashSet<>();
                        for (Field f : LINE_FIELDS.values()) {
                            if (after.get(f) != null) {
                                fieldLines.addAll(CSL.extraKeys(f));
                            }
                        }
                        (was.get(k) == null ? List.<String>of() : was.get(k).lines().toList()).stream()
                                .filter(l -> !fieldLines.contains(lineKey(l))).forEach(lines::remove);
                        if (now.get(k) != null) {
                            lines.addAll(now.get(k).lines().toList());
                        }
                        out.put(extraField, String.join("\n", lines).strip());
                    }
                }
                default -> {
                    if (t.has(k) && !read.contains(k)) {
                        out.put(k, now.getOrDefault(k, ""));
                    }
                }
            }
        }
        return out;
    }

    /** The fields read from and written to plain fields or lines, by their CSL variables. */
    private static final Map<String, Field> LINE_FIELDS = java.util.Arrays.stream(Field.values())
            .filter(f -> !APART.contains(f) && f.cslName() != null).collect(java.util.stream.Collectors.toMap(Field::cslName, f -> f, (a, b) -> a));

    /** The label of the first line of {@code extra} with {@code key}, as written ("Conference Name"). */
    private static String labelOf(String extra, String key) {
        return extra.lines().filter(l -> key.equals(lineKey(l))).findFirst().map(ZoteroItems::lineLabel).orElse(key);
    }

    /** {@code out} with the extra line of {@code f} set (under the label the item's line has, "Conference Name"; else its CSL variable). */
    private static ObjectNode extra(ObjectNode out, ItemType t, Field f, List<String> values, Map<String, String> labels) {
        String extraField = t.fieldFor("extra");
        if (extraField == null) {
            return out;
        }
        List<String> keys = CSL.extraKeys(f);
        String label = out.path(extraField).asText("").lines().filter(l -> lineKey(l) != null && keys.contains(lineKey(l))).findFirst()
                .map(ZoteroItems::lineLabel).orElse(labels.getOrDefault(LINE_LABEL + f.cslName(), f.cslName()));
        String text = out.path(extraField).asText("");
        for (String k : keys) {
            if (!k.equals(lineKey(label + ":x"))) {
                text = withExtraLines(text, k, List.of()); // a line under another of its keys would say it twice
            }
        }
        out.put(extraField, text);
        return extra(out, t, label, values);
    }

    /** {@code out} with the extra lines of {@code key} set to {@code values} (every item type but notes has extra). */
    private static ObjectNode extra(ObjectNode out, ItemType t, String key, List<String> values) {
        String extraField = t.fieldFor("extra");
        if (extraField != null) {
            out.put(extraField, withExtraLines(out.path(extraField).asText(""), key, values));
        }
        return out;
    }

    /** The properties of {@code updated} that differ from {@code data}: a PATCH body (null if the item type changed). */
    static ObjectNode patch(ObjectNode data, ObjectNode updated) {
        if (!data.path("itemType").equals(updated.path("itemType"))) {
            return null;
        }
        ObjectNode out = JSON.objectNode();
        updated.properties().forEach(p -> {
            if (!p.getValue().equals(data.get(p.getKey()))) {
                out.set(p.getKey(), p.getValue());
            }
        });
        return out;
    }

    private static boolean changed(Metadata before, Metadata after, Field f) {
        return !Objects.equals(before.get(f), after.get(f));
    }

    private static String text(Object v) {
        return v == null ? "" : v.toString();
    }

    /** The item moved to another type: base-mapped fields carried across, fields the new type lacks dropped. */
    private static ObjectNode convert(ObjectNode data, ItemType from, ItemType to) {
        ObjectNode out = data.deepCopy();
        out.put("itemType", to.name());
        for (Map.Entry<String, String> f : from.fields().entrySet()) {
            String value = data.path(f.getKey()).asText("");
            out.remove(f.getKey());
            String base = f.getValue() == null ? f.getKey() : f.getValue();
            String target = to.fieldFor(base);
            if (target != null && !value.isEmpty()) {
                out.put(target, value);
            }
        }
        ArrayNode creators = JSON.arrayNode();
        for (JsonNode c : data.path("creators")) {
            String type = c.path("creatorType").asText();
            ObjectNode copy = (ObjectNode) c.deepCopy();
            if (type.equals(from.primaryCreatorType())) {
                copy.put("creatorType", to.primaryCreatorType());
            } else if (!to.creatorTypes().contains(type)) {
                copy.put("creatorType", to.creatorTypes().contains("contributor") ? "contributor" : to.primaryCreatorType());
            }
            creators.add(copy);
        }
        out.set("creators", creators);
        return out;
    }

    /**
     * The date as {@code after} says: the same text when it already reads so; the year alone
     * replaced when only the year changed and the text holds the old one (keeping its own form,
     * "May 17, 2019"); else ISO's {@code YYYY[-MM[-DD]]}.
     */
    private static String date(String current, Metadata before, Metadata after) {
        if (after.year() == null) {
            return "";
        }
        Metadata reads = date(Metadata.EMPTY, current);
        if (Objects.equals(reads.year(), after.year()) && Objects.equals(reads.month(), after.month()) && Objects.equals(reads.day(), after.day())) {
            return current;
        }
        Matcher y = YEAR.matcher(current);
        if (Objects.equals(before.month(), after.month()) && Objects.equals(before.day(), after.day()) && before.year() != null && y.find()
                && y.group(1).equals(before.year().toString())) {
            return current.substring(0, y.start(1)) + after.year() + current.substring(y.end(1));
        }
        return after.year() + (after.month() == null ? "" : String.format("-%02d", after.month())
                + (after.day() == null ? "" : String.format("-%02d", after.day())));
    }

    /**
     * The creators of {@code creatorType} as {@code names} say, each kept in its original form when
     * unchanged (a single-field name stays one field), in their place among the other creators, who
     * stay as they were.
     */
    private static ArrayNode creators(JsonNode current, String creatorType, boolean primary, List<Author> names) {
        List<JsonNode> same = new ArrayList<>();
        for (JsonNode c : current) {
            if (c.path("creatorType").asText().equals(creatorType)) {
                same.add(c);
            }
        }
        List<JsonNode> wanted = new ArrayList<>();
        for (Author a : names) {
            JsonNode kept = same.stream().filter(c -> a.equals(author(c))).findFirst().orElse(null);
            if (kept != null) {
                same.remove(kept);
                wanted.add(kept);
            } else {
                // a name with no given part is Zotero's single-field creator (an institution), as Zotero itself stores one
                wanted.add(a.given().isEmpty() ? JSON.objectNode().put("creatorType", creatorType).put("name", a.family())
                        : JSON.objectNode().put("creatorType", creatorType).put("firstName", a.given()).put("lastName", a.family()));
            }
        }
        ArrayNode out = JSON.arrayNode();
        boolean placed = false;
        for (JsonNode c : current) {
            if (!c.path("creatorType").asText().equals(creatorType)) {
                out.add(c);
            } else if (!placed) {
                wanted.forEach(out::add);
                placed = true;
            }
        }
        if (!placed && primary) { // the first of a primary creator type lead the list
            ArrayNode first = JSON.arrayNode();
            wanted.forEach(first::add);
            out.forEach(first::add);
            return first;
        }
        if (!placed) {
            wanted.forEach(out::add);
        }
        return out;
    }

    /** The tags as {@code wanted} says, each kept tag with its type (automatic or manual) as it was. */
    private static ArrayNode tags(JsonNode current, Set<String> wanted) {
        ArrayNode out = JSON.arrayNode();
        Set<String> left = new LinkedHashSet<>(wanted);
        for (JsonNode t : current) {
            if (left.remove(t.path("tag").asText("").strip())) {
                out.add(t);
            }
        }
        left.forEach(t -> out.addObject().put("tag", t));
        return out;
    }

    /** True if the item is in the trash. */
    static boolean trashed(JsonNode data) {
        JsonNode d = data.path("deleted");
        return d.asBoolean(false) || d.asInt(0) == 1;
    }
}
