package dev.idiom.services.zotero;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.idiom.services.app.zotero.ItemTemplates;
import dev.idiom.services.app.zotero.ZoteroApiException;
import java.io.StringWriter;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import javax.xml.stream.XMLOutputFactory;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamWriter;

/**
 * {@code format=atom}, as the dataserver writes it: a feed of entries (or one entry for a single
 * object), each translated from the object's JSON answer ({@link ZoteroAnswers}) — title, author,
 * id, dates, links, {@code zapi:key}, {@code zapi:version}, an item's {@code zapi:itemType},
 * {@code zapi:creatorSummary}, {@code zapi:parsedDate} and {@code zapi:numChildren}, a collection's
 * counts, a tag's {@code zapi:numItems}, and the {@code content} asked for: {@code html} (the
 * default: a table of the item's fields), {@code json} (the object's data) or {@code none}.
 */
final class ZoteroAtom {
    static final String ATOM = "http://www.w3.org/2005/Atom";
    static final String ZAPI = "http://zotero.org/ns/api";
    static final String XHTML = "http://www.w3.org/1999/xhtml";
    static final String TYPE = "application/atom+xml";
    private static final XMLOutputFactory XML = XMLOutputFactory.newFactory();
    /** The contents Idiom writes; the dataserver's others (bib, citation, csljson, export formats) need a citation processor. */
    private static final Set<String> SERVED = Set.of("html", "json", "none");

    private final ItemTemplates types;
    private final java.time.Clock clock;

    ZoteroAtom(ItemTemplates types, java.time.Clock clock) {
        this.types = types;
        this.clock = clock;
    }

    /** Now, to the second: what a feed or an object with no time of its own is dated. */
    private String now() {
        return clock.instant().truncatedTo(java.time.temporal.ChronoUnit.SECONDS).toString();
    }

    /** A link of a feed or an entry. */
    record Link(String rel, String href) {}

    /** What an answer's {@code content} parameter asks for, checked as the dataserver checks it (sorted, each once). */
    static List<String> content(String param) {
        if (param == null || param.isEmpty()) {
            return List.of("html");
        }
        TreeSet<String> asked = new TreeSet<>(List.of(param.split(",")));
        if (asked.contains("none") && asked.size() > 1) {
            throw new ZoteroApiException(400, "content=none is not valid in multi-format responses");
        }
        for (String c : asked) {
            if (!SERVED.contains(c)) {
                throw new ZoteroApiException(400, "Invalid 'content' value '" + c + "'; Idiom writes html, json or none in Atom");
            }
        }
        return List.copyOf(asked);
    }

    /** One object's entry as a whole document. */
    String entry(ObjectNode answer, List<String> content, String base) {
        return write(w -> {
            w.writeStartElement("entry");
            w.writeDefaultNamespace(ATOM);
            w.writeNamespace("zapi", ZAPI);
            entryBody(w, answer, content, base);
            w.writeEndElement();
        });
    }

    /** A listing's feed: its title, its id and links (self, first, next, last, alternate), then one entry per answer. */
    String feed(String title, String self, List<Link> pages, List<ObjectNode> answers, List<String> content, String base) {
        return write(w -> {
            w.writeStartElement("feed");
            w.writeDefaultNamespace(ATOM);
            w.writeNamespace("zapi", ZAPI);
            text(w, "title", title);
            text(w, "id", self);
            link(w, "self", TYPE, self);
            for (Link l : pages) {
                link(w, l.rel(), TYPE, l.href());
            }
            link(w, "alternate", "text/html", self.replaceAll("\\?.*", ""));
            String updated = answers.stream().map(a -> a.path("data").path("dateModified").asText(""))
                    .filter(d -> !d.isEmpty()).max(String::compareTo).orElse(now());
            text(w, "updated", updated);
            for (ObjectNode a : answers) {
                w.writeStartElement("entry");
                entryBody(w, a, content, base);
                w.writeEndElement();
            }
            w.writeEndElement();
        });
    }

    private void entryBody(XMLStreamWriter w, ObjectNode answer, List<String> content, String base) throws XMLStreamException {
        JsonNode data = answer.path("data");
        JsonNode meta = answer.path("meta");
        JsonNode library = answer.path("library");
        boolean tag = answer.has("tag");
        String self = answer.path("links").path("self").path("href").asText();
        String contentParam = content.equals(List.of("html")) ? "" : "&content=" + String.join(",", content);
        text(w, "title", tag ? answer.path("tag").asText() : title(answer));
        w.writeStartElement("author");
        text(w, "name", library.path("name").asText());
        text(w, "uri", library.path("links").path("alternate").path("href").asText());
        w.writeEndElement();
        text(w, "id", self);
        String now = now();
        text(w, "published", data.path("dateAdded").asText(now));
        text(w, "updated", data.path("dateModified").asText(data.path("dateAdded").asText(now)));
        link(w, "self", TYPE, self + (tag ? "" : "?format=atom" + contentParam));
        if (answer.path("links").has("up")) {
            link(w, "up", TYPE, answer.path("links").path("up").path("href").asText() + "?format=atom" + contentParam);
        }
        link(w, "alternate", "text/html", answer.path("links").path("alternate").path("href").asText(self));
        if (tag) {
            zapi(w, "numItems", meta.path("numItems").asText());
        } else {
            zapi(w, "key", answer.path("key").asText());
            zapi(w, "version", answer.path("version").asText());
        }
        String itemType = data.path("itemType").asText("");
        boolean regular = !itemType.isEmpty() && types.isWork(itemType) && !data.has("parentItem");
        if (!itemType.isEmpty()) {
            zapi(w, "itemType", itemType);
        }
        if (regular) {
            if (meta.has("creatorSummary")) {
                zapi(w, "creatorSummary", meta.path("creatorSummary").asText());
            }
            if (meta.has("parsedDate")) {
                zapi(w, "parsedDate", meta.path("parsedDate").asText());
            }
            zapi(w, "numChildren", meta.path("numChildren").asText("0"));
        }
        if (meta.has("numCollections")) {
            zapi(w, "numCollections", meta.path("numCollections").asText());
            zapi(w, "numItems", meta.path("numItems").asText());
        }
        boolean item = !itemType.isEmpty();
        List<String> written = item ? content : content.subList(0, 1); // collections, searches and tags: one content, as the dataserver writes them
        if (!item && !written.getFirst().equals("json")) {
            return; // the dataserver gives them no html content and no empty one
        }
        w.writeStartElement("content");
        if (written.size() == 1) {
            contentOf(w, answer, written.getFirst(), true);
        } else {
            w.writeAttribute("type", "application/xml");
            for (String c : written) {
                w.writeStartElement("zapi", "subcontent", ZAPI);
                contentOf(w, answer, c, false);
                w.writeEndElement();
            }
        }
        w.writeEndElement();
    }

    private void contentOf(XMLStreamWriter w, ObjectNode answer, String type, boolean alone) throws XMLStreamException {
        w.writeAttribute("zapi", ZAPI, "type", type);
        switch (type) {
            case "json" -> {
                if (alone) {
                    w.writeAttribute("type", "application/json");
                }
                w.writeCharacters(ZoteroApi.pretty(answer.has("tag") ? tagData(answer) : answer.path("data")));
            }
            case "html" -> {
                if (alone) {
                    w.writeAttribute("type", "xhtml");
                }
                w.writeStartElement("div");
                w.writeDefaultNamespace(XHTML);
                table(w, answer.path("data"));
                w.writeEndElement();
            }
            default -> { } // none
        }
    }

    private static JsonNode tagData(ObjectNode answer) {
        return ZoteroAnswers.JSON.createObjectNode().put("tag", answer.path("tag").asText()).put("type", answer.path("meta").path("type").asInt());
    }

    /** An item's fields as the dataserver's HTML content lists them: its type, each creator, each non-empty field but the title. */
    private void table(XMLStreamWriter w, JsonNode data) throws XMLStreamException {
        w.writeStartElement("table");
        String itemType = data.path("itemType").asText();
        row(w, "itemType", types.label("field", "itemType"), types.label("itemType", itemType));
        for (JsonNode c : data.path("creators")) {
            String name = c.has("name") ? c.path("name").asText() : (c.path("firstName").asText("") + " " + c.path("lastName").asText("")).strip();
            row(w, "creator", types.label("creatorType", c.path("creatorType").asText()), name);
        }
        for (String f : types.fields(itemType)) {
            String v = data.path(f).asText("").strip();
            if (!v.isEmpty() && !TITLES.contains(f)) {
                row(w, f, types.label("field", f), v);
            }
        }
        w.writeEndElement();
    }

    private static void row(XMLStreamWriter w, String field, String label, String value) throws XMLStreamException {
        w.writeStartElement("tr");
        w.writeAttribute("class", field);
        w.writeStartElement("th");
        w.writeAttribute("style", "text-align: right");
        w.writeCharacters(label);
        w.writeEndElement();
        text(w, "td", value);
        w.writeEndElement();
    }

    /** The fields that are a type's title (the title's base field and its mapped ones). */
    private static final List<String> TITLES = List.of("title", "caseName", "nameOfAct", "subject");

    /** An entry's title: an item's display title (a note's first line), a collection's or a search's name; "[Untitled]" if none. */
    static String title(ObjectNode answer) {
        JsonNode data = answer.path("data");
        String t = "";
        if (data.path("itemType").asText().equals("note")) {
            t = noteTitle(data.path("note").asText(""));
        } else if (data.has("itemType")) {
            t = TITLES.stream().map(f -> data.path(f).asText("")).filter(s -> !s.isEmpty()).findFirst().orElse("");
        } else {
            t = data.path("name").asText("");
        }
        return t.isEmpty() ? "[Untitled]" : t;
    }

    /** A note's title as Zotero makes it: the first line of its text, without markup, at most 80 characters. */
    static String noteTitle(String html) {
        String text = html.replaceAll("(?i)<br\\s*/?>|</(p|div|h[1-6]|li|blockquote|pre)>", "\n").replaceAll("<[^>]*>", "")
                .replace("&nbsp;", " ").replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", "\"").replace("&#39;", "'").replace("&amp;", "&");
        String first = text.strip().lines().map(String::strip).filter(l -> !l.isEmpty()).findFirst().orElse("");
        return first.length() > 80 ? first.substring(0, 80) : first;
    }

    private interface Body {
        void write(XMLStreamWriter w) throws XMLStreamException;
    }

    private static String write(Body body) {
        StringWriter out = new StringWriter();
        try {
            XMLStreamWriter w = XML.createXMLStreamWriter(out);
            w.writeStartDocument("UTF-8", "1.0");
            body.write(w);
            w.writeEndDocument();
            w.close();
        } catch (XMLStreamException e) {
            throw new IllegalStateException("an Atom answer could not be written", e);
        }
        return out.toString() + "\n";
    }

    private static void text(XMLStreamWriter w, String name, String value) throws XMLStreamException {
        w.writeStartElement(name);
        w.writeCharacters(value);
        w.writeEndElement();
    }

    private static void zapi(XMLStreamWriter w, String name, String value) throws XMLStreamException {
        w.writeStartElement("zapi", name, ZAPI);
        w.writeCharacters(value);
        w.writeEndElement();
    }

    private static void link(XMLStreamWriter w, String rel, String type, String href) throws XMLStreamException {
        w.writeEmptyElement("link");
        w.writeAttribute("rel", rel);
        w.writeAttribute("type", type);
        w.writeAttribute("href", href);
    }
}
