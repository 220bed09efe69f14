package dev.idiom.services.app.zotero;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.idiom.events.zotero.ServedLibraries;
import dev.idiom.events.zotero.ServedLibraries.Library;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One library at one version, read once and kept until the next write: what every read answers
 * from, so paging through a library (100 at a time) reads the store once, not once a page.
 *
 * @param objects each object type's objects by key, in key order
 */
public record LibraryView(Library library, long version, Map<String, Map<String, Stored>> objects, Map<String, Integer> childCounts,
        Map<Long, String> users, Map<String, List<String>> relatedBack) {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** An object as read: its version, trash flag, parent and data (never changed once read). */
    /** An object of the library; {@code createdBy}, {@code modifiedBy}: the users who made it and last changed it (null: not known). */
    public record Stored(String type, String key, long version, String parentKey, boolean trashed, ObjectNode data, Long createdBy, Long modifiedBy) {}

    static LibraryView read(ServedLibraries store, Library library, long version) {
        Map<String, Map<String, Stored>> all = new LinkedHashMap<>();
        for (String type : List.of("item", "collection", "search")) {
            Map<String, Stored> byKey = new java.util.TreeMap<>();
            for (ServedLibraries.StoredObject o : store.objects(library.id(), type)) {
                byKey.put(o.key(), new Stored(type, o.key(), o.version(), o.parentKey(), o.trashed(), parse(o.data()), o.createdBy(), o.modifiedBy()));
            }
            all.put(type, java.util.Collections.unmodifiableMap(byKey));
        }
        Map<String, Integer> counts = new java.util.HashMap<>(); // counted once a view: every page of a listing names each item's
        all.get("item").values().forEach(i -> {
            if (i.parentKey() != null && !i.trashed()) {
                counts.merge(i.parentKey(), 1, Integer::sum);
            }
        });
        Map<Long, String> users = new java.util.TreeMap<>(); // the names the users who made or changed an object sign in with, read once a view
        all.values().forEach(byKey -> byKey.values().forEach(o -> java.util.stream.Stream.of(o.createdBy(), o.modifiedBy())
                .filter(java.util.Objects::nonNull).forEach(u -> users.computeIfAbsent(u, n -> store.signInOf(n).map(ServedLibraries.SignIn::username)
                        .orElseGet(() -> store.library("user", n).map(Library::name).orElse("user " + n))))));
        // related items are related both ways: each item's URI in the dc:relation of the items that name it
        Map<String, List<String>> back = new java.util.HashMap<>();
        String prefix = ObjectWrites.itemUri(library.path(), "");
        all.get("item").values().forEach(i -> {
            for (String uri : related(i.data())) {
                if (uri.startsWith(prefix)) {
                    back.computeIfAbsent(uri.substring(prefix.length()), k -> new java.util.ArrayList<>()).add(prefix + i.key());
                }
            }
        });
        return new LibraryView(library, version, java.util.Collections.unmodifiableMap(all), java.util.Collections.unmodifiableMap(counts),
                java.util.Collections.unmodifiableMap(users), back);
    }

    /** An item's {@code dc:relation} URIs: the API writes one as a string, several as an array. */
    public static List<String> related(JsonNode data) {
        JsonNode v = data.path("relations").path("dc:relation");
        List<String> out = new java.util.ArrayList<>();
        if (v.isArray()) {
            v.forEach(u -> out.add(u.asText()));
        } else if (!v.isMissingNode() && !v.isNull()) {
            out.add(v.asText());
        }
        return out;
    }

    /** Sets an item's {@code dc:relation} URIs as the API writes them (none: no property; one: a string; several: an array). */
    public static void relate(ObjectNode data, java.util.Collection<String> uris) {
        ObjectNode relations = data.with("relations");
        if (uris.isEmpty()) {
            relations.remove("dc:relation");
        } else if (uris.size() == 1) {
            relations.put("dc:relation", uris.iterator().next());
        } else {
            uris.forEach(relations.putArray("dc:relation")::add);
        }
    }

    public static ObjectNode parse(String json) {
        try {
            return (ObjectNode) JSON.readTree(json);
        } catch (IOException e) {
            throw new UncheckedIOException("a stored object is not JSON", e);
        }
    }

    public Map<String, Stored> of(String type) {
        return objects.get(type);
    }

    /** How many child items (notes, attachments) an item has, trashed ones left out. */
    public int children(String itemKey) {
        return childCounts.getOrDefault(itemKey, 0);
    }
}
