package dev.idiom.wrappers.zotero;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Map;
import java.util.Set;

/**
 * Which item data Zotero refuses, and why, in the API's words (zotero.org/support/dev/web_api/v3
 * /write_requests and the dataserver's item validation): an item type must be in the schema, a
 * non-empty field the type does not have is refused, so is a creator type the item type does not
 * take. Shared by Idiom's served libraries and the strict stand-in its adapter is tested against.
 */
public final class ZoteroItemRules {
    /**
     * The item types that are not works (the API's templates, {@code items/new?itemType=…}): a note's
     * HTML, an attachment's link or file, an annotation on a PDF. Their properties besides the common ones.
     */
    public static final Map<String, Set<String>> NON_BIBLIOGRAPHIC = Map.of(
            "note", Set.of("note"),
            "attachment", Set.of("linkMode", "title", "accessDate", "url", "note", "contentType", "charset", "filename", "md5", "mtime", "path"),
            "annotation", Set.of("annotationType", "annotationText", "annotationComment", "annotationColor", "annotationPageLabel",
                    "annotationSortIndex", "annotationPosition", "annotationAuthorName", "annotationIsExternal"));

    /** The properties every item may carry besides its type's fields. */
    private static final Set<String> COMMON = Set.of("key", "version", "itemType", "tags", "collections", "relations", "deleted", "dateAdded",
            "dateModified", "parentItem");

    private ZoteroItemRules() {}

    /** Why Zotero would refuse this item data by this schema, or null. */
    public static String invalid(ZoteroSchema schema, JsonNode data) {
        if (!data.isObject()) {
            return "Invalid item data: an item is a JSON object";
        }
        if (!data.has("itemType")) {
            return "'itemType' property not provided";
        }
        String itemType = data.path("itemType").asText();
        Set<String> notBibliographic = NON_BIBLIOGRAPHIC.get(itemType);
        if (notBibliographic != null) {
            for (var p : data.properties()) {
                if (!notBibliographic.contains(p.getKey()) && !COMMON.contains(p.getKey())) {
                    return "'" + p.getKey() + "' is not a valid field for type '" + itemType + "'";
                }
            }
            return null;
        }
        ZoteroSchema.ItemType type = schema.type(itemType);
        if (type == null) {
            return "'" + itemType + "' is not a valid itemType";
        }
        for (var p : data.properties()) {
            boolean empty = p.getValue().isTextual() && p.getValue().asText().isEmpty();
            if (!COMMON.contains(p.getKey()) && !Set.of("creators", "note", "inPublications").contains(p.getKey()) && !type.has(p.getKey()) && !empty) {
                return "'" + p.getKey() + "' is not a valid field for type '" + type.name() + "'";
            }
        }
        for (JsonNode c : data.path("creators")) {
            String ct = c.path("creatorType").asText();
            if (!type.creatorTypes().contains(ct)) {
                return "'" + ct + "' is not a valid creator type for item type '" + type.name() + "'";
            }
            if (c.has("name") && (c.has("firstName") || c.has("lastName"))) {
                return "'name' and 'firstName'/'lastName' cannot both be set on a creator";
            }
        }
        return null;
    }

    /** Whether the item data says it is in the trash ({@code deleted} true or 1). */
    public static boolean trashed(JsonNode data) {
        JsonNode d = data.path("deleted");
        return d.asBoolean(false) || d.asInt(0) == 1;
    }
}
