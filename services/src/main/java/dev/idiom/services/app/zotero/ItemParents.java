package dev.idiom.services.app.zotero;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.idiom.events.zotero.ServedLibraries.LibraryWrite;
import dev.idiom.events.zotero.ServedLibraries.StoredObject;
import java.util.Optional;
import java.util.Set;

/**
 * Which item may be whose child, by the dataserver's rules (model/Item.inc.php): a note's or an
 * attachment's parent is a regular item (an embedded image's may be a note, and it must have a
 * parent); an annotation's is a file attachment of a type it can annotate; a regular item has none.
 */
final class ItemParents {
    private static final Set<String> FILE_LINK_MODES = Set.of("imported_file", "imported_url", "linked_file");
    private static final Set<String> READER_TYPES = Set.of("application/pdf", "application/epub+zip", "text/html");

    private ItemParents() {}

    /** The item's parent key (null: a top-level item), or the API's refusal (400, 409 with the parent named). */
    static String check(LibraryWrite w, String key, ObjectNode data, boolean existed) {
        String type = data.path("itemType").asText();
        JsonNode given = data.get("parentItem");
        String parent = given == null || given.isNull() || given.isBoolean() || given.asText().isEmpty() ? null : given.asText();
        boolean image = type.equals("attachment") && "embedded_image".equals(data.path("linkMode").asText());
        if (type.equals("attachment") && image && !data.path("contentType").asText().startsWith("image/")) {
            throw new ZoteroApiException(400, "Embedded-image attachment must have an image content type");
        }
        if (parent == null) {
            data.remove("parentItem");
            if (type.equals("annotation")) {
                throw new ZoteroApiException(400, existed ? "Annotation must have a parent item" : "Annotation item must have a parent item");
            }
            if (image) {
                throw new ZoteroApiException(400, "Embedded-image attachment must have a parent item");
            }
            return null;
        }
        if (!type.equals("note") && !type.equals("attachment") && !type.equals("annotation")) {
            throw new ZoteroApiException(400, "Only notes, attachments and annotations can have a parent item");
        }
        if (parent.equals(key)) {
            throw new ZoteroApiException(400, "Item " + key + " cannot be a child of itself");
        }
        Optional<StoredObject> stored = w.object("item", parent);
        if (stored.isEmpty()) {
            throw new ZoteroApiException(409, "Parent item " + parent + " not found", "parentItem", parent);
        }
        JsonNode p = LibraryView.parse(stored.get().data());
        String parentType = p.path("itemType").asText();
        if (type.equals("annotation")) {
            annotationParent(data.path("annotationType").asText(), parent, p, existed);
        } else {
            if (type.equals("attachment") && stored.get().parentKey() != null && !image) {
                throw new ZoteroApiException(400, "Parent item " + parent + " cannot be a child item");
            }
            boolean regular = !Set.of("note", "attachment", "annotation").contains(parentType);
            if (!regular && !(image && parentType.equals("note"))) {
                throw new ZoteroApiException(409, "Parent item cannot be a note or attachment", "parentItem", parent);
            }
        }
        data.putArray("collections"); // a child item is in no collection: its parent is
        return parent;
    }

    private static void annotationParent(String annotationType, String parent, JsonNode p, boolean existed) {
        boolean file = p.path("itemType").asText().equals("attachment") && FILE_LINK_MODES.contains(p.path("linkMode").asText());
        String contentType = p.path("contentType").asText();
        boolean readable = Set.of("note", "highlight", "underline").contains(annotationType) ? READER_TYPES.contains(contentType)
                : contentType.equals("application/pdf");
        if (existed && (!file || !readable)) {
            throw new ZoteroApiException(400, "Parent item of " + annotationType + " annotation must be a PDF attachment");
        }
        if (!file) {
            throw new ZoteroApiException(400, "Parent item " + parent + " of annotation must be a file attachment");
        }
        if (!readable) {
            throw new ZoteroApiException(400, Set.of("note", "highlight", "underline").contains(annotationType)
                    ? "Parent item " + parent + " of " + annotationType + " annotation must be a PDF attachment"
                    : "Parent attachment " + parent + " of " + annotationType + " annotation must be a PDF");
        }
    }
}
