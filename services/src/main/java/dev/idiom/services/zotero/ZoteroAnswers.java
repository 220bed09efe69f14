package dev.idiom.services.zotero;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import dev.idiom.events.zotero.ServedLibraries.Library;
import dev.idiom.services.app.zotero.LibraryView;
import dev.idiom.services.app.zotero.ObjectQuery;
import dev.idiom.services.app.zotero.ZoteroDates;
import dev.idiom.services.app.zotero.LibraryView.Stored;
import dev.idiom.services.app.zotero.ItemTemplates;

/** Objects as the API writes them: {@code key}, {@code version}, {@code library}, {@code links}, {@code meta} and the full {@code data}. */
final class ZoteroAnswers {
    static final ObjectMapper JSON = new ObjectMapper();

    private final ItemTemplates types;

    ZoteroAnswers(ItemTemplates types) {
        this.types = types;
    }

    ObjectNode library(Library l, String base) {
        ObjectNode out = JSON.createObjectNode().put("type", l.kind()).put("id", l.number()).put("name", l.name());
        out.putObject("links").putObject("alternate").put("href", base + "/" + l.path()).put("type", "text/html");
        return out;
    }

    ObjectNode object(LibraryView view, Stored o, String base) {
        ObjectNode out = JSON.createObjectNode().put("key", o.key()).put("version", o.version());
        out.set("library", library(view.library(), base));
        String plural = "search".equals(o.type()) ? "searches" : o.type() + "s";
        ObjectNode links = out.putObject("links");
        links.putObject("self").put("href", base + "/" + view.library().path() + "/" + plural + "/" + o.key()).put("type", "application/json");
        links.putObject("alternate").put("href", base + "/" + view.library().path() + "/" + plural + "/" + o.key()).put("type", "text/html");
        if (o.parentKey() != null && "item".equals(o.type())) {
            links.putObject("up").put("href", base + "/" + view.library().path() + "/items/" + o.parentKey()).put("type", "application/json");
        }
        ObjectNode meta = out.putObject("meta");
        switch (o.type()) {
            case "item" -> {
                String summary = ObjectQuery.creatorSummary(o.data());
                if (!summary.isEmpty()) {
                    meta.put("creatorSummary", summary);
                }
                String parsed = ZoteroDates.parsed(o.data().path("date").asText(""));
                if (!parsed.isEmpty()) {
                    meta.put("parsedDate", parsed);
                }
                // as the dataserver counts them: a top-level work's children, a note's embedded images, a PDF's annotations
                String itemType = o.data().path("itemType").asText();
                boolean pdf = itemType.equals("attachment") && o.data().path("contentType").asText().equals("application/pdf");
                if (o.parentKey() == null && types.isWork(itemType) || itemType.equals("note") || pdf) {
                    meta.put("numChildren", view.children(o.key()));
                }
                if (view.library().kind().equals("group")) {
                    // who made it, and who last changed it if someone else, as group libraries answer
                    if (o.createdBy() != null) {
                        meta.set("createdByUser", user(o.createdBy(), view, base));
                    }
                    if (o.modifiedBy() != null && !o.modifiedBy().equals(o.createdBy())) {
                        meta.set("lastModifiedByUser", user(o.modifiedBy(), view, base));
                    }
                }
            }
            case "collection" -> {
                meta.put("numCollections", view.of("collection").values().stream().filter(c -> o.key().equals(c.parentKey())).count());
                meta.put("numItems", view.of("item").values().stream().filter(i -> !i.trashed() && i.data().path("collections").toString()
                        .contains("\"" + o.key() + "\"")).count());
            }
            default -> { }
        }
        out.set("data", data(o, view));
        return out;
    }

    private static ObjectNode user(long number, LibraryView view, String base) {
        String name = view.users().getOrDefault(number, "user " + number);
        ObjectNode out = JSON.createObjectNode().put("id", number).put("username", name).put("name", name);
        out.putObject("links").putObject("alternate").put("href", base + "/users/" + number).put("type", "text/html");
        return out;
    }

    /** The object's data with its version, an item's with every field of its type ("" where empty), in the schema's order. */
    ObjectNode data(Stored o, LibraryView view) {
        return dataOf(o, withRelatedBack(o, view));
    }

    private static ObjectNode withRelatedBack(Stored o, LibraryView view) {
        ObjectNode d = o.data();
        List<String> back = view.relatedBack().getOrDefault(o.key(), List.of());
        if ("item".equals(o.type()) && !back.isEmpty()) {
            d = d.deepCopy(); // the relations the items naming this one make, shown on it too
            java.util.LinkedHashSet<String> all = new java.util.LinkedHashSet<>(LibraryView.related(d));
            all.addAll(back);
            LibraryView.relate(d, all);
        }
        return d;
    }

    private ObjectNode dataOf(Stored o, ObjectNode d) {
        ObjectNode out = JSON.createObjectNode().put("key", o.key()).put("version", o.version());
        if (!"item".equals(o.type())) {
            d.properties().forEach(p -> {
                if (!p.getKey().equals("key") && !p.getKey().equals("version")) {
                    out.set(p.getKey(), p.getValue());
                }
            });
            return out;
        }
        if (d.has("parentItem")) {
            out.set("parentItem", d.get("parentItem"));
        }
        out.set("itemType", d.get("itemType"));
        types.fields(d.path("itemType").asText()).forEach(f -> out.set(f, d.has(f) ? d.get(f) : JSON.getNodeFactory().textNode("")));
        d.properties().forEach(p -> {
            if (!out.has(p.getKey())) {
                out.set(p.getKey(), p.getValue());
            }
        });
        return out;
    }
}
