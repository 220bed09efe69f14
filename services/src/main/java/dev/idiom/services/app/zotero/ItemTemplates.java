package dev.idiom.services.app.zotero;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.idiom.wrappers.zotero.ZoteroItemRules;
import dev.idiom.wrappers.zotero.ZoteroSchema;
import java.util.List;

/** The item types of the schema a served library runs: each one's fields in order, and a new item's template ({@code items/new?itemType=}). */
public final class ItemTemplates {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final ZoteroSchema schema;

    ItemTemplates(ZoteroSchema schema) {
        this.schema = schema;
    }

    /** Whether the type is a work (not a note, an attachment or an annotation). */
    public boolean isWork(String itemType) {
        return !ZoteroItemRules.NON_BIBLIOGRAPHIC.containsKey(itemType);
    }

    /** The type's fields in the schema's order (none for an unknown type or one that is no work). */
    public List<String> fields(String itemType) {
        ZoteroSchema.ItemType type = schema.type(itemType);
        return type == null ? List.of() : List.copyOf(type.fields().keySet());
    }

    /** A new item's template: every field empty, one creator of the primary type; 400 for an unknown type. */
    public ObjectNode template(String itemType) {
        ObjectNode out = JSON.createObjectNode().put("itemType", itemType);
        if (itemType != null && !isWork(itemType)) {
            ZoteroItemRules.NON_BIBLIOGRAPHIC.get(itemType).stream().sorted().forEach(f -> out.put(f, ""));
        } else {
            ZoteroSchema.ItemType type = itemType == null ? null : schema.type(itemType);
            if (type == null) {
                throw new ZoteroApiException(400, "Invalid item type '" + itemType + "'");
            }
            type.fields().keySet().forEach(f -> out.put(f, ""));
            if (!type.creatorTypes().isEmpty()) {
                out.putArray("creators").addObject().put("creatorType", type.primaryCreatorType()).put("firstName", "").put("lastName", "");
            }
        }
        out.putArray("tags");
        out.putArray("collections");
        out.putObject("relations");
        return out;
    }
}
