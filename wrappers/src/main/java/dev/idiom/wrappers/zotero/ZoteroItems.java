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
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Between Zotero item data and canonical metadata, by the published schema. Reading maps every
 * item type to the nearest canonical type and reads each canonical field from the type's own form
 * of its base field; writing changes only the fields Idiom changed, in the item's own type, and
 * leaves the rest of the item (collections, relations, other creators, the full date, tag types,
 * fields Idiom does not model, the trash flag) exactly as Zotero returned it.
 */
final class ZoteroItems {
    private static final ZoteroSchema SCHEMA = ZoteroSchema.published();
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
    private static final Pattern YEAR = Pattern.compile("(?<!\\d)(\\d{4})(?!\\d)");

    /** Every Zotero item type that is not "misc": the canonical type it reads as. */
    private static final Map<String, String> CANONICAL = Map.ofEntries(Map.entry("journalArticle", "article"),
            Map.entry("magazineArticle", "article"), Map.entry("newspaperArticle", "article"), Map.entry("preprint", "article"),
            Map.entry("conferencePaper", "inproceedings"), Map.entry("book", "book"), Map.entry("bookSection", "book"),
            Map.entry("thesis", "thesis"), Map.entry("report", "report"), Map.entry("webpage", "webpage"), Map.entry("blogPost", "webpage"),
            Map.entry("forumPost", "webpage"));

    /** The canonical fields held in a plain string field: the base field each is read from and written to. */
    private static final Map<Field, String> STRING_FIELDS = Map.of(Field.TITLE, "title", Field.VOLUME, "volume", Field.PAGES, "pages",
            Field.DOI, "DOI", Field.URL, "url", Field.ABSTRACT, "abstractNote");

    /**
     * A line of {@code extra} that Zotero and citation tools read as data, not as a note:
     * {@code Citation Key: demers87} (Better BibTeX), {@code PMID: 123}, {@code arXiv: 1805.06358},
     * {@code tex.howpublished: …}, or a CSL variable ({@code original-date: 1987}, {@code event-place: …}).
     */
    private static final Pattern DATA_LINE = Pattern.compile("^\\s*(?<key>tex\\.[\\w-]+|[A-Za-z][A-Za-z -]{0,40}?)\\s*:\\s*\\S.*$");
    private static final java.util.Set<String> DATA_KEYS = java.util.Set.of("citation-key", "citationkey", "pmid", "pmcid", "arxiv", "doi", "isbn",
            "issn", "original-date", "original-title", "original-publisher", "original-publisher-place", "original-author", "event-date",
            "event-place", "event-title", "event", "publisher-place", "publisher", "container-title", "collection-title", "collection-number",
            "number", "genre", "status", "submitted", "available-date", "issued", "type", "medium", "archive", "archive-location", "language",
            "version", "section", "chapter-number", "page", "edition", "volume", "issue", "references", "dimensions", "scale", "jurisdiction",
            "authority", "call-number", "title-short", "container-title-short", "reviewed-title", "reviewed-author", "editor", "translator",
            "director", "illustrator", "composer", "interviewer", "recipient", "accessed");

    /** True if this line of {@code extra} is data another tool reads (see {@link #DATA_LINE}). */
    static boolean dataLine(String line) {
        Matcher m = DATA_LINE.matcher(line);
        if (!m.matches()) {
            return false;
        }
        String key = m.group("key").strip().toLowerCase(java.util.Locale.ROOT).replace(' ', '-');
        return key.startsWith("tex.") || DATA_KEYS.contains(key);
    }

    /** Idiom's notes of an item: the lines of {@code extra} that are not data (null when none are). */
    static String notes(String extra) {
        if (extra == null) {
            return null;
        }
        String human = extra.lines().filter(l -> !dataLine(l)).collect(java.util.stream.Collectors.joining("\n")).strip();
        return human.isEmpty() ? null : human;
    }

    /** {@code extra} with its notes replaced by {@code notes}: the data lines stay, first, as they were. */
    static String extraWithNotes(String extra, String notes) {
        List<String> data = extra == null ? List.of() : extra.lines().filter(ZoteroItems::dataLine).toList();
        List<String> out = new ArrayList<>(data);
        if (notes != null && !notes.isBlank()) {
            out.add(notes);
        }
        return String.join("\n", out);
    }

    private ZoteroItems() {}

    static String canonicalType(String itemType) {
        return CANONICAL.getOrDefault(itemType, "misc");
    }

    /** The item type a canonical type is created as. */
    static String itemType(String canonicalType) {
        return switch (canonicalType == null ? "misc" : canonicalType) {
            case "article" -> "journalArticle";
            case "inproceedings" -> "conferencePaper";
            case "book" -> "book";
            case "thesis" -> "thesis";
            case "report" -> "report";
            case "webpage" -> "webpage";
            default -> "document";
        };
    }

    /** Item types that are not works: notes, attachments, annotations (they have no place in a DE's record). */
    static final java.util.Set<String> NOT_WORKS = java.util.Set.of("note", "attachment", "annotation");

    /** True for an item that describes a work (a book, an article…), false for a note, an attachment or an annotation. */
    static boolean work(JsonNode data) {
        return !NOT_WORKS.contains(data.path("itemType").asText());
    }

    private static ItemType type(JsonNode data) {
        ItemType t = SCHEMA.type(data.path("itemType").asText());
        if (t == null) {
            throw new IllegalArgumentException("item type '" + data.path("itemType").asText() + "' is not in Zotero's schema (" + SCHEMA.source() + ")");
        }
        return t;
    }

    /** This type's venue field: its form of publicationTitle, else of publisher; null if it has neither. */
    static String venueField(ItemType t) {
        String f = t.fieldFor("publicationTitle");
        return f != null ? f : t.fieldFor("publisher");
    }

    static Metadata metadata(JsonNode data) {
        ItemType t = type(data);
        Metadata m = Metadata.EMPTY.with(Field.TYPE, canonicalType(t.name()));
        for (Map.Entry<Field, String> f : STRING_FIELDS.entrySet()) {
            String name = t.fieldFor(f.getValue());
            if (name != null) {
                m = set(m, f.getKey(), data.path(name).asText(null));
            }
        }
        if (t.fieldFor("extra") != null) {
            m = set(m, Field.NOTES, notes(data.path(t.fieldFor("extra")).asText(null)));
        }
        String venue = venueField(t);
        if (venue != null) {
            m = set(m, Field.VENUE, data.path(venue).asText(null));
        }
        String date = t.fieldFor("date");
        if (date != null) {
            Matcher y = YEAR.matcher(data.path(date).asText(""));
            if (y.find()) {
                m = m.with(Field.YEAR, Integer.parseInt(y.group(1)));
            }
        }
        List<Author> authors = new ArrayList<>();
        for (JsonNode c : data.path("creators")) {
            if (c.path("creatorType").asText().equals(t.primaryCreatorType())) {
                Author a = author(c);
                if (a != null) {
                    authors.add(a);
                }
            }
        }
        m = m.with(Field.AUTHORS, authors);
        SortedSet<String> tags = new TreeSet<>();
        for (JsonNode tag : data.path("tags")) {
            if (!tag.path("tag").asText("").isBlank()) {
                tags.add(tag.path("tag").asText().strip());
            }
        }
        return m.with(Field.TAGS, tags);
    }

    /** A creator as an author: a single-field {@code name} creator is a family name alone. */
    private static Author author(JsonNode c) {
        String family = c.has("name") ? c.path("name").asText() : c.path("lastName").asText();
        return family.isBlank() ? null : new Author(family, c.has("name") ? "" : c.path("firstName").asText(""));
    }

    private static Metadata set(Metadata m, Field f, String v) {
        return v == null || v.isBlank() ? m : m.with(f, f.fromText(v));
    }

    /** Item data for a new item: the canonical type's item type, holding only fields it has. */
    static ObjectNode newItem(Metadata m) {
        ObjectNode base = JSON.objectNode().put("itemType", itemType(m.type()));
        base.putArray("creators");
        base.putArray("tags");
        return withChanges(base, Metadata.EMPTY.with(Field.TYPE, m.type()), m);
    }

    /**
     * The whole item {@code data} with the fields that differ between {@code before} and
     * {@code after} applied, and nothing else touched. A changed type changes the item type only
     * when the item's type does not already read as the new canonical type, and carries the values
     * of base-mapped fields across (a bookTitle becomes a publicationTitle); a field the type
     * cannot hold is not written.
     */
    static ObjectNode withChanges(ObjectNode data, Metadata before, Metadata after) {
        ItemType t = type(data);
        ObjectNode out = data.deepCopy();
        if (!Objects.equals(before.type(), after.type()) && !canonicalType(t.name()).equals(after.type())) {
            ItemType to = SCHEMA.type(itemType(after.type()));
            out = convert(data, t, to);
            t = to;
        }
        for (Map.Entry<Field, String> f : STRING_FIELDS.entrySet()) {
            String name = t.fieldFor(f.getValue());
            if (name != null && changed(before, after, f.getKey())) {
                out.put(name, text(after.get(f.getKey())));
            }
        }
        String extra = t.fieldFor("extra");
        if (extra != null && changed(before, after, Field.NOTES)) {
            out.put(extra, extraWithNotes(out.path(extra).asText(null), after.notes()));
        }
        String venue = venueField(t);
        if (venue != null && changed(before, after, Field.VENUE)) {
            out.put(venue, text(after.venue()));
        }
        String date = t.fieldFor("date");
        if (date != null && changed(before, after, Field.YEAR)) {
            out.put(date, date(out.path(date).asText(""), before.year(), after.year()));
        }
        if (changed(before, after, Field.AUTHORS)) {
            out.set("creators", creators(out.path("creators"), t, after.authors()));
        }
        if (changed(before, after, Field.TAGS)) {
            out.set("tags", tags(out.path("tags"), after.tags()));
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

    /** The date with its year replaced (keeping month and day), or the year alone if it had none. */
    private static String date(String current, Integer oldYear, Integer newYear) {
        if (newYear == null) {
            return "";
        }
        Matcher y = YEAR.matcher(current);
        if (oldYear != null && y.find() && y.group(1).equals(oldYear.toString())) {
            return current.substring(0, y.start(1)) + newYear + current.substring(y.end(1));
        }
        return newYear.toString();
    }

    /**
     * The type's primary creators as {@code authors} say, each kept in its original form when
     * unchanged (a single-field name stays one field), followed by every other creator as it was.
     */
    private static ArrayNode creators(JsonNode current, ItemType t, List<Author> authors) {
        List<JsonNode> primary = new ArrayList<>();
        List<JsonNode> others = new ArrayList<>();
        for (JsonNode c : current) {
            (c.path("creatorType").asText().equals(t.primaryCreatorType()) ? primary : others).add(c);
        }
        ArrayNode out = JSON.arrayNode();
        for (Author a : authors) {
            JsonNode same = primary.stream().filter(c -> a.equals(author(c))).findFirst().orElse(null);
            if (same != null) {
                primary.remove(same);
                out.add(same);
            } else {
                out.addObject().put("creatorType", t.primaryCreatorType()).put("firstName", a.given()).put("lastName", a.family());
            }
        }
        others.forEach(out::add);
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
