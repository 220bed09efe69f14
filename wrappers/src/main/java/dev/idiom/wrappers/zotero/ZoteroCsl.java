package dev.idiom.wrappers.zotero;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.idiom.events.Field;
import dev.idiom.wrappers.zotero.ZoteroSchema.ItemType;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Zotero's own mapping to CSL, as its published schema keeps it (zotero/zotero-schema, schema.json,
 * the {@code csl} section; the resource names its version): which item type each CSL type is, which
 * base fields hold each CSL variable, which CSL role each creator type is. Idiom's record follows
 * CSL, so this is the whole of the Zotero mapping but for dates, names and {@code extra}.
 */
final class ZoteroCsl {
    private static final ZoteroCsl PUBLISHED = load("csl-mappings.json");

    private final Map<String, String> cslTypeOfItemType;
    private final Map<String, String> itemTypeOfCslType;
    private final Map<String, List<String>> baseFieldsOfVariable;

    private ZoteroCsl(Map<String, String> cslTypeOfItemType, Map<String, String> itemTypeOfCslType, Map<String, List<String>> baseFields) {
        this.cslTypeOfItemType = cslTypeOfItemType;
        this.itemTypeOfCslType = itemTypeOfCslType;
        this.baseFieldsOfVariable = baseFields;
    }

    static ZoteroCsl published() {
        return PUBLISHED;
    }

    /**
     * Idiom's type of an item type: its CSL type, but {@code preprint} for Zotero's preprint (CSL
     * {@code article}: Idiom's former {@code article} meant a journal article); null if CSL has none.
     */
    String type(String itemType) {
        String csl = cslTypeOfItemType.get(itemType);
        return "article".equals(csl) ? "preprint" : csl;
    }

    /** The item type Idiom's type is created as (the first Zotero lists), or null when Zotero has none. */
    String itemType(String type) {
        return itemTypeOfCslType.get("preprint".equals(type) ? "article" : type);
    }

    /** The field of item type {@code t} that holds {@code f}, by the CSL variable's base fields; null if the type has none. */
    String fieldOf(ItemType t, Field f) {
        if (f.cslName() == null) {
            return null;
        }
        // Zotero's mapping names CSL 1.0.2's container-title-short by its former name
        List<String> bases = baseFieldsOfVariable.getOrDefault(f.cslName(), f == Field.CONTAINER_TITLE_SHORT
                ? baseFieldsOfVariable.getOrDefault("journalAbbreviation", List.of()) : List.of());
        for (String base : bases) {
            String own = t.fieldFor(base);
            if (own != null) {
                return own;
            }
        }
        return null;
    }

    private static ZoteroCsl load(String resource) {
        try (InputStream in = ZoteroCsl.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("the Zotero CSL mapping resource " + resource + " is missing from the build");
            }
            JsonNode csl = new ObjectMapper().readTree(in).path("csl");
            Map<String, String> toCsl = new LinkedHashMap<>();
            Map<String, String> toItem = new LinkedHashMap<>();
            csl.path("types").properties().forEach(t -> {
                t.getValue().forEach(item -> toCsl.putIfAbsent(item.asText(), t.getKey()));
                toItem.put(t.getKey(), t.getValue().path(0).asText());
            });
            Map<String, List<String>> fields = new LinkedHashMap<>();
            csl.path("fields").path("text").properties().forEach(v -> {
                List<String> bases = new ArrayList<>();
                v.getValue().forEach(b -> bases.add(b.asText()));
                fields.put(v.getKey(), List.copyOf(bases));
            });
            csl.path("fields").path("date").properties().forEach(v -> fields.put(v.getKey(), List.of(v.getValue().asText())));
            return new ZoteroCsl(Map.copyOf(toCsl), Map.copyOf(toItem), Map.copyOf(fields));
        } catch (IOException e) {
            throw new UncheckedIOException("the Zotero CSL mapping resource " + resource + " is unreadable", e);
        }
    }
}
