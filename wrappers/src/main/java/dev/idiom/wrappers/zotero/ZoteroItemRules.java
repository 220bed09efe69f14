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

    /** A refusal in the API's words: its code (400, or 413 for a value too long) and what the failed object's {@code data} names. */
    public record Refusal(int code, String message, Map<String, String> data) {
        static Refusal of(String message) {
            return new Refusal(400, message, Map.of());
        }
    }

    private static final Set<String> LINK_MODES = Set.of("imported_file", "imported_url", "linked_file", "linked_url", "embedded_image");
    private static final Set<String> ITEM_PREDICATES = Set.of("owl:sameAs", "dc:replaces", "dc:relation", "mendeleyDB:documentUUID",
            "mendeleyDB:remoteDocumentUUID", "mendeleyDB:fileHash", "mendeleyDB:annotationUUID", "mendeleyDB:relatedDocumentUUID",
            "mendeleyDB:relatedRemoteDocumentUUID", "mendeleyDB:relatedFileHash", "mendeleyDB:notebookUUID");
    private static final java.util.regex.Pattern ITEM_URI = java.util.regex.Pattern.compile(
            "^http://zotero.org/(users|groups)/[0-9]+/(publications/)?items/[A-Z0-9]{8}$");
    private static final Set<String> COLLECTION_PREDICATES = Set.of("owl:sameAs", "mendeleyDB:remoteFolderUUID");
    private static final java.util.regex.Pattern COLLECTION_URI = java.util.regex.Pattern.compile(
            "^http://zotero.org/(users|groups)/[0-9]+/(publications/)?collections/[A-Z0-9]{8}$");
    private static final java.util.regex.Pattern KEY = java.util.regex.Pattern.compile("^[23456789ABCDEFGHIJKLMNPQRSTUVWXYZ]{8}$");
    private static final java.util.regex.Pattern SQL_DATE = java.util.regex.Pattern.compile("^\\d{4}-\\d{2}-\\d{2}$");
    private static final java.util.regex.Pattern SQL_DATE_TIME = java.util.regex.Pattern.compile("^\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}$");
    private static final java.util.regex.Pattern ISO_8601 = java.util.regex.Pattern.compile(
            "^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?(Z|[+-]\\d{2}:?\\d{2})$");
    /** The longest tag and collection name ({@code Zotero_Tags::$maxLength}), and note ({@code Zotero_Notes::$MAX_NOTE_LENGTH}). */
    public static final int MAX_NAME = 255;
    public static final int MAX_NOTE = 500_000;
    /** The longest field value, in bytes ({@code Zotero_Items::$maxDataValueLength}). */
    public static final int MAX_FIELD_BYTES = 65_535;

    /** Why Zotero would refuse this new item's data by this schema, or null. */
    public static String invalid(ZoteroSchema schema, JsonNode data) {
        Refusal r = refusal(schema, data, null);
        return r == null ? null : r.message();
    }

    /**
     * Why Zotero would refuse this item data, or null: the dataserver's item validation
     * ({@code Zotero_Items::validateJSONItem}) property by property, in its words.
     *
     * @param before the item as stored before this write (null: a new item)
     */
    public static Refusal refusal(ZoteroSchema schema, JsonNode data, JsonNode before) {
        if (!data.isObject()) {
            return Refusal.of("Invalid item object");
        }
        if (!data.has("itemType")) {
            return Refusal.of("'itemType' property not provided");
        }
        String itemType = data.path("itemType").asText();
        if ("attachment".equals(itemType) && !data.has("linkMode")) {
            return Refusal.of("'linkMode' property not provided");
        }
        boolean isNew = before == null;
        JsonNode parent = data.path("parentItem");
        boolean child = parent.isTextual() && !parent.asText().isEmpty();
        String linkMode = data.path("linkMode").asText(before == null ? "" : before.path("linkMode").asText()).toLowerCase(java.util.Locale.ROOT);
        ZoteroSchema.ItemType type = schema.type(itemType);
        for (var p : data.properties()) {
            String k = p.getKey();
            JsonNode v = p.getValue();
            Refusal r = switch (k) {
                case "key", "version", "dateAdded", "dateModified" -> k.startsWith("date") && !v.asText().isEmpty()
                        && !SQL_DATE_TIME.matcher(v.asText()).matches() && !ISO_8601.matcher(v.asText()).matches()
                        ? Refusal.of("'" + k + "' must be in ISO 8601 or UTC 'YYYY-MM-DD hh:mm:ss' format (" + v.asText() + ")") : null;
                case "parentItem" -> v.isBoolean() && !v.asBoolean() || v.isNull() || v.isTextual() && (v.asText().isEmpty() || KEY.matcher(v.asText()).matches())
                        ? null : Refusal.of("'parentItem' must be a valid item key or false");
                case "itemType" -> itemTypeRefusal(schema, v, child);
                case "tags" -> tags(v);
                case "collections" -> collections(v, child);
                case "relations" -> relations(v, false);
                case "creators" -> creators(v, type, itemType, isNew);
                case "note" -> note(itemType, linkMode, v);
                case "deleted" -> v.isBoolean() || v.isInt() && (v.asInt() == 0 || v.asInt() == 1) ? null : Refusal.of("'deleted' must be a boolean");
                case "inPublications" -> v.asBoolean(false) && !child && Set.of("note", "attachment").contains(itemType)
                        ? Refusal.of("Top-level notes and attachments cannot be added to My Publications") : null;
                case "linkMode" -> !LINK_MODES.contains(v.asText().toLowerCase(java.util.Locale.ROOT)) ? Refusal.of("'" + v.asText() + "' is not a valid linkMode")
                        : !isNew && before.has("linkMode") && !before.path("linkMode").asText().equalsIgnoreCase(v.asText())
                        ? Refusal.of("Cannot change attachment linkMode") : null;
                case "contentType", "charset", "filename", "md5", "mtime", "path" -> attachmentProperty(k, v, itemType, linkMode);
                case "lastRead" -> !"attachment".equals(itemType) ? Refusal.of("'lastRead' is valid only for attachment items")
                        : v.isNull() || v.isBoolean() && !v.asBoolean() || v.isTextual() && v.asText().isEmpty() || v.isIntegralNumber() ? null
                        : Refusal.of("'lastRead' must be a Unix timestamp integer");
                case "annotationType", "annotationAuthorName", "annotationText", "annotationComment", "annotationColor", "annotationPageLabel",
                     "annotationSortIndex", "annotationPosition", "annotationIsExternal" -> !"annotation".equals(itemType)
                        ? Refusal.of("'" + k + "' is valid only for annotation items")
                        : k.equals("annotationText") && !v.asText().isEmpty() && !Set.of("highlight", "underline").contains(data.path("annotationType").asText())
                        ? Refusal.of("'annotationText' can only be set for highlight and underline annotations") : null;
                case "accessDate" -> v.asText().isEmpty() || v.asText().equals("CURRENT_TIMESTAMP") || SQL_DATE.matcher(v.asText()).matches()
                        || SQL_DATE_TIME.matcher(v.asText()).matches() || ISO_8601.matcher(v.asText()).matches() ? null
                        : Refusal.of("'accessDate' must be in ISO 8601 or UTC 'YYYY-MM-DD[ hh:mm:ss]' format or 'CURRENT_TIMESTAMP' (" + v.asText() + ")");
                default -> field(schema, type, itemType, k, v);
            };
            if (r != null) {
                return r;
            }
        }
        return null;
    }

    private static Refusal itemTypeRefusal(ZoteroSchema schema, JsonNode v, boolean child) {
        if (!v.isTextual()) {
            return Refusal.of("'itemType' must be a string");
        }
        boolean other = NON_BIBLIOGRAPHIC.containsKey(v.asText());
        if (!other && schema.type(v.asText()) == null) {
            return Refusal.of("'" + v.asText() + "' is not a valid itemType");
        }
        return child && !other ? Refusal.of("Child item must be note, attachment, or annotation") : null;
    }

    private static Refusal tags(JsonNode v) {
        if (!v.isArray()) {
            return Refusal.of("'tags' property must be an array");
        }
        for (JsonNode tag : v) {
            if (!tag.isObject()) {
                return Refusal.of("Tag must be an object");
            }
            if (tag.isEmpty()) {
                return Refusal.of("Tag object is empty");
            }
            for (var p : tag.properties()) {
                switch (p.getKey()) {
                    case "tag" -> {
                        if (!p.getValue().isValueNode() || p.getValue().isNull()) {
                            return Refusal.of("Invalid tag name");
                        }
                        String name = p.getValue().asText().strip();
                        if (name.codePointCount(0, name.length()) > MAX_NAME) {
                            return new Refusal(413, "Tag '" + name.substring(0, name.offsetByCodePoints(0, 50)) + "…' too long", Map.of("tag", name));
                        }
                    }
                    case "type" -> {
                        if (!p.getValue().isNumber() && !p.getValue().asText().matches("-?[0-9]+(\\.[0-9]+)?")) {
                            return Refusal.of("Invalid tag type '" + p.getValue().asText() + "'");
                        }
                    }
                    default -> {
                        return Refusal.of("Invalid tag property '" + p.getKey() + "'");
                    }
                }
            }
        }
        return null;
    }

    private static Refusal collections(JsonNode v, boolean child) {
        if (!v.isArray()) {
            return Refusal.of("'collections' property must be an array");
        }
        if (child && !v.isEmpty()) {
            return Refusal.of("Child items cannot be assigned to collections");
        }
        for (JsonNode k : v) {
            if (!KEY.matcher(k.asText()).matches()) {
                return Refusal.of("'" + k.asText() + "' is not a valid collection key");
            }
        }
        return null;
    }

    /** An item's (or collection's) relations: an object of allowed predicates to Zotero item (collection) URIs or one, an empty array allowed. */
    public static Refusal relations(JsonNode v, boolean collection) {
        if (!v.isObject() && !(v.isArray() && v.isEmpty())) {
            return Refusal.of("'relations' property must be an object");
        }
        for (var p : v.properties()) {
            if (!(collection ? COLLECTION_PREDICATES : ITEM_PREDICATES).contains(p.getKey())) {
                return Refusal.of("Unsupported predicate '" + p.getKey() + "'");
            }
            if (p.getKey().startsWith("mendeleyDB:")) {
                continue;
            }
            for (JsonNode uri : p.getValue().isArray() ? p.getValue() : java.util.List.of(p.getValue())) {
                if (!(collection ? COLLECTION_URI : ITEM_URI).matcher(uri.asText()).matches()) {
                    return Refusal.of("'relations' values currently must be Zotero " + (collection ? "collection" : "item") + " URIs");
                }
            }
        }
        return null;
    }

    private static Refusal creators(JsonNode v, ZoteroSchema.ItemType type, String itemType, boolean isNew) {
        if (!v.isArray()) {
            return Refusal.of("'creators' property must be an array");
        }
        for (JsonNode c : v) {
            if (!c.has("creatorType")) {
                return Refusal.of("creator object must contain 'creatorType'");
            }
            if (c.path("name").asText("").isBlank() && c.path("firstName").asText("").isBlank() && c.path("lastName").asText("").isBlank()) {
                if (v.size() == 1 && isNew) {
                    continue; // the template's nameless creator
                }
                return Refusal.of("creator object must contain 'firstName'/'lastName' or 'name'");
            }
            for (var p : c.properties()) {
                String problem = switch (p.getKey()) {
                    case "creatorType" -> {
                        String ct = p.getValue().asText();
                        if (!ZoteroSchema.published().creatorTypes().contains(ct)) {
                            yield "'" + ct + "' is not a valid creator type";
                        }
                        yield type != null && !type.creatorTypes().contains(ct) && !ct.equals("author")
                                ? "'" + ct + "' is not a valid creator type for item type '" + itemType + "'" : null;
                    }
                    case "firstName" -> !c.has("lastName") ? "'lastName' creator field must be set if 'firstName' is set"
                            : c.has("name") ? "'firstName' and 'name' creator fields are mutually exclusive" : null;
                    case "lastName" -> !c.has("firstName") ? "'firstName' creator field must be set if 'lastName' is set"
                            : c.has("name") ? "'lastName' and 'name' creator fields are mutually exclusive" : null;
                    case "name" -> c.has("firstName") ? "'firstName' and 'name' creator fields are mutually exclusive"
                            : c.has("lastName") ? "'lastName' and 'name' creator fields are mutually exclusive" : null;
                    default -> "Invalid creator property '" + p.getKey() + "'";
                };
                if (problem != null) {
                    return Refusal.of(problem);
                }
            }
        }
        return null;
    }

    private static Refusal note(String itemType, String linkMode, JsonNode v) {
        if (!Set.of("note", "attachment").contains(itemType)) {
            return Refusal.of("'note' property is valid only for note and attachment items");
        }
        if ("embedded_image".equals(linkMode) && !v.asText().isEmpty()) {
            return Refusal.of("'note' property is not valid for embedded images");
        }
        String text = v.asText();
        if (text.codePointCount(0, text.length()) > MAX_NOTE) {
            return new Refusal(413, "Note '" + noteExcerpt(text) + "...' too long", Map.of());
        }
        return null;
    }

    /** The start of a note as the dataserver's refusal quotes it ({@code Zotero_Notes::noteToTitle}: 79 bytes of its text, spaces folded). */
    static String noteExcerpt(String html) {
        String text = html.strip();
        // as PHP's strip_tags: an unclosed comment or tag runs to the end
        text = text.substring(0, Math.min(text.length(), 79 * 5)).replaceAll("</p>\\s*<p>", "</p>\n<p>")
                .replaceAll("(?s)<!--.*?-->", "").replaceAll("(?s)<!--.*", "").replaceAll("<[^>]*>", "").replaceAll("<[^>]*$", "").replace("&nbsp;", "\u00a0").replace("&lt;", "<").replace("&gt;", ">")
                .replace("&quot;", "\"").replace("&amp;", "&");
        String excerpt = utf8Prefix(text, 79).replaceAll("[ \\t\\n\\r\\x0B\\f]+", " ").replaceAll("^[\\s\u00a0]+|[\\s\u00a0]+$", "");
        if (excerpt.isEmpty()) { // nothing but markup: the raw HTML's start
            excerpt = html.strip().substring(0, Math.min(html.strip().length(), 79)).replaceAll("\\s+", " ").replace("&nbsp;", "\u00a0")
                    .replaceAll("^[\\s\u00a0]+|[\\s\u00a0]+$", "");
        }
        return excerpt.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }

    /** The longest start of {@code text} that is at most {@code bytes} bytes of UTF-8 (PHP's mb_strcut). */
    private static String utf8Prefix(String text, int bytes) {
        int used = 0;
        int i = 0;
        while (i < text.length()) {
            int cp = text.codePointAt(i);
            int size = cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
            if (used + size > bytes) {
                break;
            }
            used += size;
            i += Character.charCount(cp);
        }
        return text.substring(0, i);
    }

    private static Refusal attachmentProperty(String k, JsonNode v, String itemType, String linkMode) {
        if (!"attachment".equals(itemType)) {
            return Refusal.of("'" + k + "' is valid only for attachment items");
        }
        if (Set.of("filename", "md5", "mtime").contains(k) && !linkMode.startsWith("imported_") && !linkMode.equals("embedded_image")) {
            return Refusal.of("'" + k + "' is valid only for imported and embedded-image attachments");
        }
        if (k.equals("path") && !linkMode.equals("linked_file")) {
            return Refusal.of("'path' is valid only for linked file attachment items");
        }
        if (k.equals("charset") && linkMode.equals("embedded_image") && !v.asText().isEmpty()) {
            return Refusal.of("'charset' is not valid for embedded images");
        }
        if (k.equals("md5") && !v.isNull() && !v.asText().isEmpty() && !v.asText().matches("^[a-f0-9]{32}$")) {
            return Refusal.of("'" + v.asText() + "' is not a valid MD5 hash");
        }
        // a '/', a drive letter or a UNC prefix is a path; a bare backslash is not (LaTeX in a title puts one there)
        if (k.equals("filename") && (v.asText().contains("/") || v.asText().matches("^[A-Za-z]:.*") || v.asText().startsWith("\\\\"))) {
            return Refusal.of("Stored-file filename '" + v.asText() + "' cannot contain a directory path");
        }
        return null;
    }

    /** A field: one the schema knows, of this type (an empty value of another type's field is let be, as the templates carry them). */
    private static Refusal field(ZoteroSchema schema, ZoteroSchema.ItemType type, String itemType, String k, JsonNode v) {
        if (!schema.isField(k) && !NON_BIBLIOGRAPHIC.getOrDefault(itemType, Set.of()).contains(k)) {
            return Refusal.of("Invalid property '" + k + "'");
        }
        if (v.isArray()) {
            return Refusal.of("Unexpected array for property '" + k + "'");
        }
        if (v.isTextual() && v.asText().getBytes(java.nio.charset.StandardCharsets.UTF_8).length > MAX_FIELD_BYTES) {
            String label = ZoteroLabels.published().field(ZoteroLabels.DEFAULT, k);
            String start = v.asText().substring(0, v.asText().offsetByCodePoints(0, 50));
            return new Refusal(413, label + " field value '" + start + "…' too long", Map.of("field", label, "value", start));
        }
        boolean empty = v.isTextual() && v.asText().isEmpty() || v.isNull();
        boolean has = type != null ? type.has(k) : NON_BIBLIOGRAPHIC.getOrDefault(itemType, Set.of()).contains(k);
        return has || empty ? null : Refusal.of("'" + k + "' is not a valid field for type '" + itemType + "'");
    }

    private static final java.time.format.DateTimeFormatter UTC = java.time.format.DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss'Z'");

    /**
     * An {@code accessDate}, {@code dateAdded} or {@code dateModified} as the dataserver keeps and
     * answers it ({@code Zotero_Item::save}, {@code Zotero_Date::sqlToISO8601}): {@code CURRENT_TIMESTAMP}
     * the write's time ({@code now}), the SQL form ({@code YYYY-MM-DD hh:mm:ss}, UTC) and ISO 8601 with
     * any offset as UTC {@code YYYY-MM-DDThh:mm:ssZ}; anything else (a bare {@code YYYY-MM-DD}) as given.
     */
    public static String timestamp(String value, java.time.Instant now) {
        if (value == null) {
            return null;
        }
        String v = value.strip();
        if (v.equals("CURRENT_TIMESTAMP") && now != null) {
            return UTC.format(now.atOffset(java.time.ZoneOffset.UTC));
        }
        if (SQL_DATE_TIME.matcher(v).matches()) {
            return v.replace(' ', 'T') + "Z";
        }
        if (ISO_8601.matcher(v).matches()) {
            java.time.OffsetDateTime t = java.time.OffsetDateTime.parse(v.replaceAll("([+-]\\d{2})(\\d{2})$", "$1:$2"));
            return UTC.format(t.withOffsetSameInstant(java.time.ZoneOffset.UTC));
        }
        return v;
    }

    /** Whether the item data says it is in the trash ({@code deleted} true or 1). */
    public static boolean trashed(JsonNode data) {
        JsonNode d = data.path("deleted");
        return d.asBoolean(false) || d.asInt(0) == 1;
    }
}
