package dev.idiom.wrappers.zotero;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Zotero's item types as its published schema defines them (zotero/zotero-schema, schema.json,
 * trimmed to item types, their fields with base fields, and creator types; the resource names its
 * version): which fields a type has, which of them is the type's form of a base field
 * ({@code bookTitle}, {@code blogTitle} … are {@code publicationTitle}; {@code university},
 * {@code institution} … are {@code publisher}), and which creator types it takes, primary first.
 */
public final class ZoteroSchema {
    /** One item type: its fields (field → base field or null) and creator types, primary first. */
    public record ItemType(String name, Map<String, String> fields, List<String> creatorTypes) {
        public boolean has(String field) {
            return fields.containsKey(field);
        }

        /** This type's field for {@code base} (the field itself or one mapped to it), or null. */
        public String fieldFor(String base) {
            if (fields.containsKey(base)) {
                return base;
            }
            for (Map.Entry<String, String> f : fields.entrySet()) {
                if (base.equals(f.getValue())) {
                    return f.getKey();
                }
            }
            return null;
        }

        /** The creator type the type lists first (author, or artist, director … for some types). */
        public String primaryCreatorType() {
            return creatorTypes.isEmpty() ? "author" : creatorTypes.getFirst();
        }
    }

    private static final ZoteroSchema PUBLISHED = load("item-types.json");

    private final String source;
    private final Map<String, ItemType> types;

    private ZoteroSchema(String source, Map<String, ItemType> types) {
        this.source = source;
        this.types = Collections.unmodifiableMap(types);
    }

    /** The schema Idiom ships: the published one, at the version the resource names. */
    public static ZoteroSchema published() {
        return PUBLISHED;
    }

    private static ZoteroSchema load(String resource) {
        try (InputStream in = ZoteroSchema.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("the Zotero schema resource " + resource + " is missing from the build");
            }
            JsonNode root = new ObjectMapper().readTree(in);
            Map<String, ItemType> types = new LinkedHashMap<>();
            root.path("itemTypes").properties().forEach(t -> {
                Map<String, String> fields = new LinkedHashMap<>();
                t.getValue().path("fields").properties().forEach(f -> fields.put(f.getKey(), f.getValue().isNull() ? null : f.getValue().asText()));
                List<String> creators = new ArrayList<>();
                t.getValue().path("creatorTypes").forEach(c -> creators.add(c.asText()));
                types.put(t.getKey(), new ItemType(t.getKey(), Collections.unmodifiableMap(fields), List.copyOf(creators)));
            });
            return new ZoteroSchema(root.path("source").asText(), types);
        } catch (IOException e) {
            throw new UncheckedIOException("the Zotero schema resource " + resource + " is unreadable", e);
        }
    }

    /**
     * The schema a Zotero service serves at {@code GET /schema} (zotero/zotero-schema's format:
     * {@code version}, and {@code itemTypes} as a list of {@code {itemType, fields: [{field,
     * baseField}], creatorTypes: [{creatorType, primary}]}}), the primary creator type first.
     *
     * @throws IllegalArgumentException the answer is no schema (no item types)
     */
    public static ZoteroSchema served(JsonNode root, String from) {
        Map<String, ItemType> types = new LinkedHashMap<>();
        for (JsonNode t : root.path("itemTypes")) {
            Map<String, String> fields = new LinkedHashMap<>();
            t.path("fields").forEach(f -> fields.put(f.path("field").asText(), f.hasNonNull("baseField") ? f.path("baseField").asText() : null));
            List<String> creators = new ArrayList<>();
            t.path("creatorTypes").forEach(c -> {
                if (c.path("primary").asBoolean(false)) {
                    creators.addFirst(c.path("creatorType").asText());
                } else {
                    creators.add(c.path("creatorType").asText());
                }
            });
            types.put(t.path("itemType").asText(), new ItemType(t.path("itemType").asText(), Collections.unmodifiableMap(fields), List.copyOf(creators)));
        }
        if (types.isEmpty()) {
            throw new IllegalArgumentException("the schema " + from + " served has no item types");
        }
        return new ZoteroSchema(from + ", schema version " + root.path("version").asText("?"), types);
    }

    /** Whether some item type has this field. */
    public boolean isField(String name) {
        return types.values().stream().anyMatch(t -> t.has(name));
    }

    /** Every creator type some item type takes. */
    public java.util.Set<String> creatorTypes() {
        java.util.Set<String> all = new java.util.TreeSet<>();
        types.values().forEach(t -> all.addAll(t.creatorTypes()));
        return all;
    }

    /** The item types, in the schema's order. */
    public List<String> names() {
        return List.copyOf(types.keySet());
    }

    /** This schema with {@code t} in place of the item type of its name. */
    public ZoteroSchema with(ItemType t) {
        Map<String, ItemType> next = new LinkedHashMap<>(types);
        next.put(t.name(), t);
        return new ZoteroSchema(source, next);
    }

    /** The item type called {@code name}, or null for a type the schema does not define. */
    public ItemType type(String name) {
        return name == null ? null : types.get(name);
    }

    public String source() {
        return source;
    }
}
