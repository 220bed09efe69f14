package dev.idiom.wrappers.zotero;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.idiom.events.Author;
import dev.idiom.events.Field;
import dev.idiom.events.Metadata;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Between Zotero item data and canonical metadata. */
final class ZoteroItems {
    private static final Pattern YEAR = Pattern.compile("(\\d{4})");
    private static final Map<String, String> FROM_ZOTERO = Map.of("journalArticle", "article", "conferencePaper", "inproceedings",
            "book", "book", "bookSection", "book", "thesis", "thesis", "report", "report", "webpage", "webpage", "blogPost", "webpage");

    private ZoteroItems() {}

    static Metadata metadata(JsonNode data) {
        String type = FROM_ZOTERO.getOrDefault(data.path("itemType").asText(), "misc");
        Metadata m = Metadata.EMPTY.with(Field.TYPE, type);
        m = set(m, Field.TITLE, data.path("title").asText(null));
        List<Author> authors = new ArrayList<>();
        for (JsonNode c : data.path("creators")) {
            if (c.path("creatorType").asText("author").equals("author")) {
                String family = c.has("lastName") ? c.path("lastName").asText() : c.path("name").asText();
                if (!family.isBlank()) {
                    authors.add(new Author(family, c.path("firstName").asText("")));
                }
            }
        }
        m = m.with(Field.AUTHORS, authors);
        Matcher y = YEAR.matcher(data.path("date").asText(""));
        if (y.find()) {
            m = m.with(Field.YEAR, Integer.parseInt(y.group(1)));
        }
        m = set(m, Field.VENUE, data.path(venueField(type)).asText(null));
        m = set(m, Field.VOLUME, data.path("volume").asText(null));
        m = set(m, Field.PAGES, data.path("pages").asText(null));
        m = set(m, Field.DOI, data.path("DOI").asText(null));
        m = set(m, Field.URL, data.path("url").asText(null));
        m = set(m, Field.ABSTRACT, data.path("abstractNote").asText(null));
        m = set(m, Field.NOTES, data.path("extra").asText(null));
        SortedSet<String> tags = new TreeSet<>();
        for (JsonNode t : data.path("tags")) {
            if (!t.path("tag").asText("").isBlank()) {
                tags.add(t.path("tag").asText().strip());
            }
        }
        return m.with(Field.TAGS, tags);
    }

    private static Metadata set(Metadata m, Field f, String v) {
        return v == null || v.isBlank() ? m : m.with(f, f.fromText(v));
    }

    /** Item data for a write: every field this mapping knows, empty strings for absent ones. */
    static ObjectNode data(Metadata m) {
        JsonNodeFactory json = JsonNodeFactory.instance;
        ObjectNode d = json.objectNode();
        String type = m.type() == null ? "misc" : m.type();
        d.put("itemType", itemType(type));
        d.put("title", nz(m.title()));
        ArrayNode creators = d.putArray("creators");
        for (Author a : m.authors()) {
            creators.addObject().put("creatorType", "author").put("firstName", a.given()).put("lastName", a.family());
        }
        d.put("date", m.year() == null ? "" : m.year().toString());
        if (!venueField(type).isEmpty()) {
            d.put(venueField(type), nz(m.venue()));
        }
        d.put("volume", nz(m.volume()));
        d.put("pages", nz(m.pages()));
        d.put("DOI", nz(m.doi()));
        d.put("url", nz(m.url()));
        d.put("abstractNote", nz(m.abstractText()));
        d.put("extra", nz(m.notes()));
        ArrayNode tags = d.putArray("tags");
        m.tags().forEach(t -> tags.addObject().put("tag", t));
        return d;
    }

    private static String nz(String s) {
        return s == null ? "" : s;
    }

    static String itemType(String type) {
        return switch (type) {
            case "article" -> "journalArticle";
            case "inproceedings" -> "conferencePaper";
            case "book" -> "book";
            case "thesis" -> "thesis";
            case "report" -> "report";
            case "webpage" -> "webpage";
            default -> "document";
        };
    }

    static String venueField(String type) {
        return switch (type) {
            case "article" -> "publicationTitle";
            case "inproceedings" -> "proceedingsTitle";
            case "book", "report", "document", "misc" -> "publisher";
            case "thesis" -> "university";
            case "webpage" -> "websiteTitle";
            default -> "publisher";
        };
    }
}
