package dev.idiom.wrappers.zotero;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.idiom.wrappers.StubServer;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Zotero Web API v3 as published, for one user library: {@code Zotero-API-Version: 3} and the
 * key required (403 otherwise), library and item versions, {@code Last-Modified-Version} on every
 * answer, {@code If-Modified-Since-Version} → 304, {@code If-Unmodified-Since-Version} → 412 when
 * stale, write tokens (a reused one → 412), at most 50 keys or objects per call (413), deletions
 * with {@code deleted?since=}.
 *
 * <p>Writes are validated as the API does (zotero.org/support/dev/web_api/v3/write_requests and
 * the dataserver's item validation): an item type must be in the published schema, a non-empty
 * field the type does not have is a 400, so is a creator type the item type does not take; a PUT
 * replaces the whole item and must carry {@code collections} and {@code relations} (400 "'relations'
 * property not provided"); a PATCH changes only the properties it carries (arrays and objects it
 * carries replace the old ones whole). A PUT without {@code deleted} takes the item out of the
 * trash. Trashed items are left out of item lists unless {@code includeTrashed=1}. The exact
 * wording of the 400 messages is inferred from the dataserver's source, not from the docs.
 */
public final class ZoteroStub extends StubServer {
    private static final ObjectMapper JSON = new ObjectMapper();
    public static final String KEY = "stub-api-key";
    public static final String LIBRARY = "users/475425";

    private long libraryVersion = 0;
    private final Map<String, ObjectNode> items = new LinkedHashMap<>();
    private final Map<String, Long> deletedAt = new LinkedHashMap<>();
    private final Set<String> tokens = new HashSet<>();
    private int nextKey = 1;
    private final java.util.concurrent.atomic.AtomicInteger writeRequests = new java.util.concurrent.atomic.AtomicInteger();

    /** The library this stub serves ({@value #LIBRARY} unless given). */
    private final String library;

    public ZoteroStub() {
        this(LIBRARY);
    }

    /** A stub serving another library ({@code users/N} or {@code groups/N}), with the same key. */
    public ZoteroStub(String library) {
        super();
        this.library = library;
    }

    /** A stub that takes requests concurrently on {@code executor} (a saturation run's tool). */
    public ZoteroStub(java.util.concurrent.Executor executor) {
        super(executor);
        this.library = LIBRARY;
    }

    @Override
    protected Reply answer(Request r) {
        if (!"3".equals(r.header("Zotero-API-Version"))) {
            return Reply.of(400, "Zotero-API-Version 3 required");
        }
        if (r.path().equals("/schema") && r.method().equals("GET")) {
            return schema(r); // public, as api.zotero.org/schema is: no key needed
        }
        if (!KEY.equals(r.header("Zotero-API-Key"))) {
            return Reply.of(403, "Forbidden");
        }
        String prefix = "/" + library + "/";
        if (!r.path().startsWith(prefix)) {
            return Reply.of(404, "Not found");
        }
        String rest = r.path().substring(prefix.length());
        if (!r.method().equals("GET")) {
            writeRequests.incrementAndGet();
        }
        return switch (r.method() + " " + (rest.startsWith("items/") && !rest.equals("items/top") ? "items/{key}" : rest)) {
            case "GET items/top" -> versions(r);
            case "GET items" -> byKeys(r);
            case "GET items/{key}" -> rest.endsWith("/children") ? children(rest.substring(6, rest.length() - "/children".length())) : one(rest.substring(6));
            case "GET deleted" -> deleted(r);
            case "POST items" -> create(r);
            case "PUT items/{key}" -> update(rest.substring(6), r, false);
            case "PATCH items/{key}" -> update(rest.substring(6), r, true);
            case "DELETE items/{key}" -> delete(rest.substring(6), r);
            default -> Reply.of(405, "Method not allowed");
        };
    }

    private Reply ok(int status, String body) {
        return Reply.of(status, body, "Last-Modified-Version", Long.toString(libraryVersion), "Content-Type", "application/json");
    }

    private Reply versions(Request r) {
        if (!"versions".equals(r.query().get("format"))) {
            return Reply.of(400, "stub supports format=versions here");
        }
        String ims = r.header("If-Modified-Since-Version");
        if (ims != null && Long.parseLong(ims) >= libraryVersion) {
            return Reply.of(304, null, "Last-Modified-Version", Long.toString(libraryVersion));
        }
        long since = Long.parseLong(r.query().getOrDefault("since", "0"));
        ObjectNode out = JSON.createObjectNode();
        boolean trash = "1".equals(r.query().get("includeTrashed"));
        items.forEach((k, v) -> {
            // items/top: child notes, attachments and annotations are listed under their parent, not here
            if (v.path("version").asLong() > since && (trash || !trashed(v)) && !v.path("data").has("parentItem")) {
                out.put(k, v.path("version").asLong());
            }
        });
        return ok(200, out.toString());
    }

    private Reply byKeys(Request r) {
        if (!r.query().containsKey("itemKey")) {
            return listing(r);
        }
        String[] keys = r.query().getOrDefault("itemKey", "").split(",");
        if (keys.length > 50) {
            return Reply.of(400, "Too many keys (max 50)");
        }
        ArrayNode out = JSON.createArrayNode();
        boolean trash = "1".equals(r.query().get("includeTrashed"));
        for (String k : keys) {
            if (items.containsKey(k) && (trash || !trashed(items.get(k)))) {
                out.add(items.get(k));
            }
        }
        return ok(200, out.toString());
    }

    /**
     * {@code GET items} without {@code itemKey}: every item (children too), as the API pages them —
     * {@code limit} 25 by default and at most 100, {@code start}, {@code Total-Results} — filtered by
     * {@code itemType} (one type, or {@code -type} for all others), {@code since} and {@code includeTrashed}.
     */
    private Reply listing(Request r) {
        String type = r.query().get("itemType");
        long since = Long.parseLong(r.query().getOrDefault("since", "0"));
        boolean trash = "1".equals(r.query().get("includeTrashed"));
        int limit = Math.min(100, Integer.parseInt(r.query().getOrDefault("limit", "25")));
        int start = Integer.parseInt(r.query().getOrDefault("start", "0"));
        if (limit < 1 || start < 0) {
            return Reply.of(400, "Invalid 'limit' or 'start'");
        }
        List<ObjectNode> all = items.entrySet().stream().sorted(Map.Entry.comparingByKey()).map(Map.Entry::getValue)
                .filter(v -> v.path("version").asLong() > since && (trash || !trashed(v)))
                .filter(v -> type == null || (type.startsWith("-") ? !v.path("data").path("itemType").asText().equals(type.substring(1))
                        : v.path("data").path("itemType").asText().equals(type)))
                .toList();
        ArrayNode out = JSON.createArrayNode();
        all.stream().skip(start).limit(limit).forEach(out::add);
        return Reply.of(200, out.toString(), "Last-Modified-Version", Long.toString(libraryVersion), "Content-Type", "application/json",
                "Total-Results", Integer.toString(all.size()));
    }

    /** {@code GET items/{key}/children}: the item's child items (notes, attachments), trashed ones left out; 404 for no such item. */
    private Reply children(String key) {
        if (!items.containsKey(key)) {
            return Reply.of(404, "Not found");
        }
        ArrayNode out = JSON.createArrayNode();
        items.values().stream().filter(v -> key.equals(v.path("data").path("parentItem").asText(null)) && !trashed(v)).forEach(out::add);
        return ok(200, out.toString());
    }

    private Reply one(String key) {
        return items.containsKey(key) ? ok(200, items.get(key).toString()) : Reply.of(404, "Not found");
    }

    private Reply deleted(Request r) {
        long since = Long.parseLong(r.query().getOrDefault("since", "0"));
        ArrayNode keys = JSON.createArrayNode();
        deletedAt.forEach((k, v) -> {
            if (v > since) {
                keys.add(k);
            }
        });
        ObjectNode out = JSON.createObjectNode();
        out.set("items", keys);
        out.putArray("collections");
        out.putArray("searches");
        out.putArray("tags");
        return ok(200, out.toString());
    }

    private Reply create(Request r) {
        String token = r.header("Zotero-Write-Token");
        if (token != null && !tokens.add(token)) {
            return Reply.of(412, "Write token already used");
        }
        String iusv = r.header("If-Unmodified-Since-Version");
        if (iusv != null && Long.parseLong(iusv) != libraryVersion) {
            return Reply.of(412, "Library has been modified since specified version");
        }
        JsonNode body;
        try {
            body = JSON.readTree(r.body());
        } catch (Exception e) {
            return Reply.of(400, "Invalid JSON");
        }
        if (!body.isArray()) {
            return Reply.of(400, "Uploaded data must be a JSON array");
        }
        if (body.size() > 50) {
            return Reply.of(413, "Too many objects (max 50)");
        }
        libraryVersion++;
        ObjectNode result = JSON.createObjectNode();
        ObjectNode successful = result.putObject("successful");
        ObjectNode success = result.putObject("success");
        result.putObject("unchanged");
        ObjectNode failed = result.putObject("failed");
        for (int i = 0; i < body.size(); i++) {
            JsonNode data = body.get(i);
            String invalid = refused(data);
            if (invalid != null) {
                failed.putObject(Integer.toString(i)).put("key", "").put("code", 400).put("message", invalid);
                continue;
            }
            // Zotero keys are 8 random characters from its alphabet, unique across libraries; a client may make one
            String key = data.hasNonNull("key") ? data.path("key").asText() : randomKey();
            if (data.hasNonNull("key")) {
                String refused = clientKeyRefused(key, data, iusv != null);
                if (refused != null) {
                    int code = Integer.parseInt(refused.substring(0, 3));
                    failed.putObject(Integer.toString(i)).put("key", key).put("code", code).put("message", refused.substring(4));
                    continue;
                }
            }
            ObjectNode created = (ObjectNode) data.deepCopy();
            // Zotero answers (and later returns) a new item with every property present
            for (String array : List.of("creators", "tags", "collections")) {
                if (!created.has(array)) {
                    created.putArray(array);
                }
            }
            if (!created.has("relations")) {
                created.putObject("relations");
            }
            ObjectNode item = item(key, created);
            items.put(key, item);
            successful.set(Integer.toString(i), item);
            success.put(Integer.toString(i), key);
        }
        return ok(200, result.toString());
    }

    private final java.util.Random random = new java.security.SecureRandom();

    /**
     * Why a new object with a client-made key is refused ("CODE message"), or null: the key must be
     * 8 characters of Zotero's alphabet; an object that exists is refused with 412 when the client
     * says it must not ({@code "version": 0}) or names another version (this stub takes no updates
     * through POST); one that does not exist needs {@code "version": 0} (404 for any other, 428
     * without a version or the library's precondition header), as the dataserver's tests state.
     */
    private String clientKeyRefused(String key, JsonNode data, boolean libraryPrecondition) {
        if (!key.matches("[23456789ABCDEFGHIJKLMNPQRSTUVWXYZ]{8}")) {
            return "400 '" + key + "' is not a valid item key";
        }
        JsonNode version = data.get("version");
        if (items.containsKey(key)) {
            return "412 Item has been modified since specified version (expected " + (version == null ? "none" : version.asText()) + ", found "
                    + items.get(key).path("version").asLong() + ")";
        }
        if (version == null) {
            return libraryPrecondition ? null : "428 Item version not provided";
        }
        return version.asLong() == 0 ? null : "404 Item doesn't exist (expected version " + version.asText() + "; use 0 instead)";
    }

    private String randomKey() {
        String alphabet = "23456789ABCDEFGHIJKLMNPQRSTUVWXYZ";
        StringBuilder k = new StringBuilder();
        for (int i = 0; i < 8; i++) {
            k.append(alphabet.charAt(random.nextInt(alphabet.length())));
        }
        nextKey++;
        return k.toString();
    }

    private ObjectNode item(String key, ObjectNode data) {
        data.put("key", key);
        data.put("version", libraryVersion);
        // the server stamps every write, wherever it was made (dateAdded once)
        java.time.Instant at = java.time.Instant.now();
        String now = at.truncatedTo(java.time.temporal.ChronoUnit.SECONDS).toString();
        for (String date : java.util.List.of("accessDate", "dateAdded")) { // kept and answered as the dataserver does (CURRENT_TIMESTAMP is now)
            if (data.hasNonNull(date) && !data.path(date).asText().isEmpty()) {
                data.put(date, ZoteroItemRules.timestamp(data.path(date).asText(), at));
            }
        }
        data.put("dateModified", now);
        if (!data.hasNonNull("dateAdded")) {
            data.put("dateAdded", now);
        }
        ObjectNode item = JSON.createObjectNode();
        item.put("key", key);
        item.put("version", libraryVersion);
        item.putObject("library").put("type", library.startsWith("groups/") ? "group" : "user").put("id", Long.parseLong(library.substring(library.indexOf('/') + 1)));
        item.set("data", data);
        return item;
    }

    private Reply update(String key, Request r, boolean partial) {
        ObjectNode current = items.get(key);
        if (current == null) {
            return Reply.of(404, "Not found");
        }
        JsonNode data;
        try {
            data = JSON.readTree(r.body());
        } catch (Exception e) {
            return Reply.of(400, "Invalid JSON");
        }
        if (!data.isObject()) {
            return Reply.of(400, "Uploaded data must be a JSON object");
        }
        String iusv = r.header("If-Unmodified-Since-Version");
        long expected = iusv != null ? Long.parseLong(iusv) : data.path("version").asLong(-1);
        if (expected < 0) {
            return Reply.of(428, "If-Unmodified-Since-Version not provided");
        }
        if (expected != current.path("version").asLong()) {
            return Reply.of(412, "Item has been modified since specified version");
        }
        ObjectNode next;
        if (partial) {
            next = (ObjectNode) current.get("data").deepCopy();
            data.properties().forEach(p -> next.set(p.getKey(), p.getValue()));
        } else {
            for (String required : List.of("collections", "relations")) {
                if (!data.has(required)) {
                    return Reply.of(400, "'" + required + "' property not provided");
                }
            }
            next = (ObjectNode) data.deepCopy();
        }
        String invalid = invalidHere(next);
        if (invalid != null) {
            return Reply.of(400, invalid);
        }
        libraryVersion++;
        items.put(key, item(key, next));
        return Reply.of(204, null, "Last-Modified-Version", Long.toString(libraryVersion));
    }

    static final Map<String, Set<String>> NON_BIBLIOGRAPHIC = ZoteroItemRules.NON_BIBLIOGRAPHIC;

    /**
     * The schema this server runs (the published one unless a test serves an older one): what it
     * validates items against, and what {@code GET /schema} answers, in Zotero's own format
     * ({@code itemTypes} as a list of {@code {itemType, fields: [{field, baseField}], creatorTypes:
     * [{creatorType, primary}]}}), with an ETag; {@code If-None-Match} with it answers 304.
     */
    private volatile ZoteroSchema served = ZoteroSchema.published();
    private volatile int schemaVersion = 41;
    private final java.util.concurrent.atomic.AtomicInteger schemaRequests = new java.util.concurrent.atomic.AtomicInteger();

    /** This server runs an older schema: {@code field} is not a field of {@code itemType} here (as before the field was added). */
    public void servesSchemaWithout(String itemType, String field) {
        ZoteroSchema.ItemType t = served.type(itemType);
        java.util.Map<String, String> fields = new java.util.LinkedHashMap<>(t.fields());
        fields.remove(field);
        served = served.with(new ZoteroSchema.ItemType(t.name(), java.util.Collections.unmodifiableMap(fields), t.creatorTypes()));
        schemaVersion--;
    }

    /** How many times the schema was asked for (a 304 included). */
    public int schemaRequests() {
        return schemaRequests.get();
    }

    /** A failure a test queues is for the library's requests: the schema is a file of its own (api.zotero.org/schema), read once an hour. */
    @Override
    protected boolean takesInjected(String method, String path) {
        return !path.equals("/schema");
    }

    private Reply schema(Request r) {
        schemaRequests.incrementAndGet();
        String etag = "\"schema-" + schemaVersion + "\"";
        if (etag.equals(r.header("If-None-Match"))) {
            return Reply.of(304, null, "ETag", etag);
        }
        ObjectNode root = JSON.createObjectNode().put("version", schemaVersion);
        ArrayNode types = root.putArray("itemTypes");
        for (String name : served.names()) {
            ZoteroSchema.ItemType t = served.type(name);
            ObjectNode type = types.addObject().put("itemType", name);
            ArrayNode fields = type.putArray("fields");
            t.fields().forEach((f, base) -> {
                ObjectNode field = fields.addObject().put("field", f);
                if (base != null) {
                    field.put("baseField", base);
                }
            });
            ArrayNode creators = type.putArray("creatorTypes");
            for (int i = 0; i < t.creatorTypes().size(); i++) {
                ObjectNode c = creators.addObject().put("creatorType", t.creatorTypes().get(i));
                if (i == 0) {
                    c.put("primary", true);
                }
            }
        }
        return Reply.of(200, root.toString(), "ETag", etag, "Content-Type", "application/json");
    }

    /** Why Zotero would refuse this item data, or null: the item type, its fields and creator types by the published schema. */
    static String invalid(JsonNode data) {
        return invalid(ZoteroSchema.published(), data);
    }

    private String invalidHere(JsonNode data) {
        return invalid(served, data);
    }

    /** Why this library refuses a new item, or null: as {@link #invalidHere}, and a child item's parent must be a regular item of it. */
    private String refused(JsonNode data) {
        String invalid = invalidHere(data);
        if (invalid != null || !data.hasNonNull("parentItem")) {
            return invalid;
        }
        ObjectNode parent = items.get(data.path("parentItem").asText());
        return parent == null ? "Parent item " + data.path("parentItem").asText() + " doesn't exist"
                : NON_BIBLIOGRAPHIC.containsKey(parent.path("data").path("itemType").asText()) ? "Parent item cannot be a note or attachment"
                : data.path("collections").isEmpty() ? null : "Child items cannot be assigned to collections";
    }

    /** As above, by the schema this server runs. */
    static String invalid(ZoteroSchema schema, JsonNode data) {
        return ZoteroItemRules.invalid(schema, data);
    }

    private static boolean trashed(ObjectNode item) {
        return ZoteroItemRules.trashed(item.path("data"));
    }

    /** Someone moves the item to the trash in Zotero. */
    public synchronized void trash(String key) {
        ObjectNode data = (ObjectNode) items.get(key).get("data").deepCopy();
        data.put("deleted", 1);
        libraryVersion++;
        items.put(key, item(key, data));
    }

    /** Someone edits the item in Zotero itself: sets properties of its data as given (JSON object). */
    public synchronized void editData(String key, String json) {
        ObjectNode data = (ObjectNode) items.get(key).get("data").deepCopy();
        try {
            JSON.readTree(json).properties().forEach(p -> data.set(p.getKey(), p.getValue()));
        } catch (Exception e) {
            throw new IllegalArgumentException(e);
        }
        libraryVersion++;
        items.put(key, item(key, data));
    }

    /** Someone creates an item in Zotero itself (data as JSON); returns its key. */
    public synchronized String addRemotely(String json) {
        try {
            ObjectNode data = (ObjectNode) JSON.readTree(json);
            String problem = refused(data);
            if (problem != null) {
                throw new IllegalArgumentException(problem);
            }
            libraryVersion++;
            String key = randomKey();
            items.put(key, item(key, data));
            return key;
        } catch (java.io.IOException e) {
            throw new IllegalArgumentException(e);
        }
    }

    /** How many write requests (POST, PUT, PATCH, DELETE) the library was sent, answered or not. */
    public int writeRequests() {
        return writeRequests.get();
    }

    /** How many items the library holds (trashed ones included). */
    public synchronized int size() {
        return items.size();
    }

    /** Every item's version by its key (trashed ones included): what a change of any of them shows. */
    public synchronized Map<String, Long> itemVersions() {
        Map<String, Long> out = new LinkedHashMap<>();
        items.forEach((k, i) -> out.put(k, i.path("version").asLong()));
        return out;
    }

    /** The item's data as the stub holds it. */
    public synchronized ObjectNode data(String key) {
        return (ObjectNode) items.get(key).get("data").deepCopy();
    }

    /** The text (HTML) of each child note of item {@code parentKey}. */
    public java.util.List<String> childNotes(String parentKey) {
        java.util.List<String> out = new java.util.ArrayList<>();
        items.values().forEach(i -> {
            if (i.path("data").path("itemType").asText().equals("note") && i.path("data").path("parentItem").asText().equals(parentKey)) {
                out.add(i.path("data").path("note").asText());
            }
        });
        return out;
    }

    private Reply delete(String key, Request r) {
        ObjectNode current = items.get(key);
        if (current == null) {
            return Reply.of(404, "Not found");
        }
        String iusv = r.header("If-Unmodified-Since-Version");
        if (iusv == null) {
            return Reply.of(428, "If-Unmodified-Since-Version not provided");
        }
        if (Long.parseLong(iusv) != current.path("version").asLong()) {
            return Reply.of(412, "Item has been modified since specified version");
        }
        libraryVersion++;
        items.remove(key);
        deletedAt.put(key, libraryVersion);
        return Reply.of(204, null, "Last-Modified-Version", Long.toString(libraryVersion));
    }

    /** Someone edits an item in Zotero itself (bumps its version). */
    public synchronized void editRemotely(String key, String title) {
        editRemotely(key, "title", title);
    }

    /** Someone changes one field of an item in Zotero itself (bumps its version). */
    public synchronized void editRemotely(String key, String field, String value) {
        ObjectNode data = (ObjectNode) items.get(key).get("data").deepCopy();
        data.put(field, value);
        libraryVersion++;
        items.put(key, item(key, data));
    }
}
