package dev.idiom.services.app.zotero;

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
public record LibraryView(Library library, long version, Map<String, Map<String, Stored>> objects, Map<String, Integer> childCounts) {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** An object as read: its version, trash flag, parent and data (never changed once read). */
    public record Stored(String type, String key, long version, String parentKey, boolean trashed, ObjectNode data) {}

    static LibraryView read(ServedLibraries store, Library library, long version) {
        Map<String, Map<String, Stored>> all = new LinkedHashMap<>();
        for (String type : List.of("item", "collection", "search")) {
            Map<String, Stored> byKey = new java.util.TreeMap<>();
            for (ServedLibraries.StoredObject o : store.objects(library.id(), type)) {
                byKey.put(o.key(), new Stored(type, o.key(), o.version(), o.parentKey(), o.trashed(), parse(o.data())));
            }
            all.put(type, java.util.Collections.unmodifiableMap(byKey));
        }
        Map<String, Integer> counts = new java.util.HashMap<>(); // counted once a view: every page of a listing names each item's
        all.get("item").values().forEach(i -> {
            if (i.parentKey() != null && !i.trashed()) {
                counts.merge(i.parentKey(), 1, Integer::sum);
            }
        });
        return new LibraryView(library, version, java.util.Collections.unmodifiableMap(all), java.util.Collections.unmodifiableMap(counts));
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
