package dev.idiom.services.app.zotero;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.idiom.wrappers.zotero.ZoteroItemRules;
import dev.idiom.wrappers.zotero.ZoteroLabels;
import dev.idiom.wrappers.zotero.ZoteroSchema;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The item types of the schema a served library runs, as the API's schema routes answer them
 * ({@code itemTypes}, {@code itemFields}, {@code itemTypeFields}, {@code itemTypeCreatorTypes},
 * {@code creatorFields}, each name with its locale's label), and a new item's template
 * ({@code items/new?itemType=}) as the dataserver makes it.
 */
public final class ItemTemplates {
    /** A name and its label in the asked locale. */
    public record Named(String name, String localized) {}

    private static final ObjectMapper JSON = new ObjectMapper();
    /** An attachment's fields in the schema (zotero-schema's {@code attachment} type). */
    private static final List<String> ATTACHMENT_FIELDS = List.of("title", "accessDate", "url");
    private static final Set<String> LINK_MODES = Set.of("imported_file", "imported_url", "linked_file", "linked_url", "embedded_image");
    private static final Set<String> ANNOTATION_TYPES = Set.of("highlight", "note", "image", "ink", "underline", "text");
    /** The dataserver sorts labels with PHP's strcmp: by code point, not by a locale's collation. */
    private static final Comparator<Named> BY_LABEL = Comparator.comparing(Named::localized);

    private final ZoteroSchema schema;
    private final ZoteroLabels labels = ZoteroLabels.published();

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

    /** Every item type one can make an item of (no attachment, no annotation: the dataserver leaves them out), by label. */
    public List<Named> itemTypes(String locale) {
        String l = labels.resolve(locale);
        List<Named> out = new ArrayList<>();
        for (String t : schema.names()) {
            out.add(new Named(t, labels.itemType(l, t)));
        }
        out.add(new Named("note", labels.itemType(l, "note")));
        return out.stream().sorted(BY_LABEL).toList();
    }

    /** Every field some item type has, by label. */
    public List<Named> itemFields(String locale) {
        String l = labels.resolve(locale);
        Set<String> all = new LinkedHashSet<>(ATTACHMENT_FIELDS);
        schema.names().forEach(t -> all.addAll(schema.type(t).fields().keySet()));
        return all.stream().map(f -> new Named(f, labels.field(l, f))).sorted(BY_LABEL).toList();
    }

    /** The type's fields in the schema's order; 400 for a missing or unknown type. */
    public List<Named> typeFields(String itemType, String locale) {
        String l = labels.resolve(locale);
        return fieldsOf(known(itemType)).stream().map(f -> new Named(f, labels.field(l, f))).toList();
    }

    /** The type's creator types, its primary one first and the rest by label; none for notes and attachments. */
    public List<Named> creatorTypes(String itemType, String locale) {
        String l = labels.resolve(locale);
        ZoteroSchema.ItemType type = schema.type(known(itemType));
        if (type == null) {
            return List.of();
        }
        List<Named> rest = type.creatorTypes().stream().skip(1).map(c -> new Named(c, labels.creatorType(l, c))).sorted(BY_LABEL).toList();
        List<Named> out = new ArrayList<>();
        out.add(new Named(type.primaryCreatorType(), labels.creatorType(l, type.primaryCreatorType())));
        out.addAll(rest);
        return out;
    }

    /** A field's, an item type's or a creator type's label in English, as an Atom entry's HTML table shows it. */
    public String label(String kind, String name) {
        String l = labels.resolve("en-US");
        return switch (kind) {
            case "field" -> labels.field(l, name);
            case "itemType" -> labels.itemType(l, name);
            case "creatorType" -> labels.creatorType(l, name);
            default -> throw new IllegalArgumentException(kind);
        };
    }

    /** A creator's fields: the dataserver has them in English alone. */
    public List<Named> creatorFields() {
        return List.of(new Named("firstName", "First"), new Named("lastName", "Last"), new Named("name", "Name"));
    }

    private String known(String itemType) {
        if (itemType == null || itemType.isEmpty()) {
            throw new ZoteroApiException(400, "'itemType' not provided");
        }
        if (!"note".equals(itemType) && !"attachment".equals(itemType) && schema.type(itemType) == null) {
            throw new ZoteroApiException(400, "Invalid item type '" + itemType + "'");
        }
        return itemType;
    }

    private List<String> fieldsOf(String itemType) {
        return switch (itemType) {
            case "note", "annotation" -> List.of();
            case "attachment" -> ATTACHMENT_FIELDS;
            default -> fields(itemType);
        };
    }

    /**
     * A new item's template: every field empty, one creator of the primary type; an attachment's
     * by its {@code linkMode}, an annotation's by its {@code annotationType}; 400 for an unknown type.
     */
    public ObjectNode template(String itemType, String linkMode, String annotationType) {
        if (itemType == null || itemType.isEmpty()) {
            throw new ZoteroApiException(400, "'itemType' not provided");
        }
        boolean attachment = itemType.equals("attachment");
        boolean annotation = itemType.equals("annotation");
        if (attachment && (linkMode == null || linkMode.isEmpty())) {
            throw new ZoteroApiException(400, "linkMode required for itemType=attachment");
        }
        if (attachment && !LINK_MODES.contains(linkMode)) {
            throw new ZoteroApiException(400, "Invalid linkMode '" + linkMode + "'");
        }
        if (annotation && (annotationType == null || annotationType.isEmpty())) {
            throw new ZoteroApiException(400, "annotationType required for itemType=annotation");
        }
        if (annotation && !ANNOTATION_TYPES.contains(annotationType)) {
            throw new ZoteroApiException(400, "Invalid annotationType '" + annotationType + "'");
        }
        if (!annotation) {
            known(itemType);
        }
        ObjectNode out = JSON.createObjectNode().put("itemType", itemType);
        if (attachment) {
            out.put("linkMode", linkMode);
        }
        boolean image = attachment && linkMode.equals("embedded_image");
        boolean first = true;
        for (String f : fieldsOf(itemType)) {
            if (attachment && f.equals("url") && !linkMode.endsWith("_url")) {
                continue;
            }
            out.put(f, "");
            ZoteroSchema.ItemType type = schema.type(itemType);
            if (first && type != null) {
                out.putArray("creators").addObject().put("creatorType", type.primaryCreatorType()).put("firstName", "").put("lastName", "");
                first = false;
            }
        }
        if (image) {
            out.put("parentItem", "");
        } else if (annotation) {
            annotation(out, annotationType);
        }
        if (itemType.equals("note") || attachment) {
            out.put("note", "");
        }
        out.putArray("tags");
        out.putArray("collections");
        out.putObject("relations");
        if (attachment) {
            out.put("contentType", "").put("charset", "");
            if (linkMode.equals("linked_file")) {
                out.put("path", "");
            }
            if (linkMode.startsWith("imported_") || image) {
                out.put("filename", "").putNull("md5").putNull("mtime");
            }
            if (image) {
                out.remove(List.of("title", "url", "accessDate", "tags", "collections", "relations", "note", "charset"));
            }
        } else if (annotation) {
            out.remove(List.of("collections", "relations"));
        }
        return out;
    }

    private static void annotation(ObjectNode out, String type) {
        out.put("parentItem", "").put("annotationType", type);
        if (type.equals("highlight") || type.equals("underline")) {
            out.put("annotationText", "");
        }
        out.put("annotationComment", "").put("annotationColor", "").put("annotationPageLabel", "").put("annotationSortIndex", "00000|000000|00000");
        ObjectNode position = out.putObject("annotationPosition").put("pageIndex", 0);
        if (type.equals("ink")) {
            position.putArray("paths");
            position.put("width", 2);
        } else {
            position.putArray("rects");
        }
        if (type.equals("image")) {
            position.put("width", 0).put("height", 0);
        }
    }
}
