package dev.idiom.wrappers.zotero;

import com.fasterxml.jackson.databind.JsonNode;
import dev.idiom.events.Field;
import dev.idiom.events.ZoteroCslMapping;
import dev.idiom.wrappers.zotero.ZoteroSchema.ItemType;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Zotero's own mapping to CSL ({@link ZoteroCslMapping}) as the adapter reads it: which item type
 * each CSL type is, which base fields hold each CSL variable. Idiom's record follows CSL, so this is
 * the whole of the Zotero mapping but for dates, names and {@code extra}.
 */
final class ZoteroCsl {
    private static final ZoteroCsl PUBLISHED = load();

    private final Map<String, String> cslTypeOfItemType;
    private final Map<String, String> itemTypeOfCslType;
    private final Map<String, List<String>> baseFieldsOfVariable;
    private final Map<Field, List<String>> extraKeys;

    private ZoteroCsl(Map<String, String> cslTypeOfItemType, Map<String, String> itemTypeOfCslType, Map<String, List<String>> baseFields) {
        this.cslTypeOfItemType = cslTypeOfItemType;
        this.itemTypeOfCslType = itemTypeOfCslType;
        this.baseFieldsOfVariable = baseFields;
        this.extraKeys = keysOfLines();
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

    /** The Zotero base fields of {@code f}'s CSL variable (Zotero's mapping names CSL 1.0.2's container-title-short by its former name). */
    private List<String> basesOf(Field f) {
        return baseFieldsOfVariable.getOrDefault(f.cslName(), f == Field.CONTAINER_TITLE_SHORT
                ? baseFieldsOfVariable.getOrDefault("journalAbbreviation", List.of()) : List.of());
    }

    /** The field of item type {@code t} that holds {@code f}, by the CSL variable's base fields; null if the type has none. */
    String fieldOf(ItemType t, Field f) {
        if (f.cslName() == null) {
            return null;
        }
        for (String base : basesOf(f)) {
            String own = t.fieldFor(base);
            if (own != null) {
                return own;
            }
        }
        return null;
    }

    /**
     * The keys an {@code extra} line giving {@code f} may have, as Zotero reads them: the CSL
     * variable ({@code event-title}) and the Zotero fields it maps ({@code Conference Name} is
     * {@code conference-name}), each as {@link ZoteroItems} normalises a line's key; a field name
     * two variables share ({@code place}) and {@code type} (the item type's line) are left out.
     */
    List<String> extraKeys(Field f) {
        return extraKeys.getOrDefault(f, List.of());
    }

    private Map<Field, List<String>> keysOfLines() {
        Map<String, Integer> uses = new java.util.HashMap<>();
        baseFieldsOfVariable.values().forEach(bases -> bases.forEach(b -> uses.merge(b, 1, Integer::sum)));
        Map<Field, List<String>> out = new java.util.EnumMap<>(Field.class);
        for (Field f : Field.values()) {
            if (f.cslName() == null) {
                continue;
            }
            List<String> keys = new ArrayList<>(List.of(f.cslName().toLowerCase(java.util.Locale.ROOT)));
            for (String base : basesOf(f)) {
                String key = base.replaceAll("([a-z])([A-Z])", "$1-$2").toLowerCase(java.util.Locale.ROOT);
                if (uses.get(base) == 1 && !key.equals("type") && !keys.contains(key)) {
                    keys.add(key);
                }
            }
            out.put(f, List.copyOf(keys));
        }
        return out;
    }

    private static ZoteroCsl load() {
        JsonNode csl = ZoteroCslMapping.csl();
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
    }
}
