package dev.idiom.wrappers.zotero;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.idiom.wrappers.StubServer;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * Zotero Web API v3 as published, for one user library: {@code Zotero-API-Version: 3} and the
 * key required (403 otherwise), library and item versions, {@code Last-Modified-Version} on every
 * answer, {@code If-Modified-Since-Version} → 304, {@code If-Unmodified-Since-Version} → 412 when
 * stale, write tokens (a reused one → 412), at most 50 keys or objects per call (413), deletions
 * with {@code deleted?since=}.
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

    @Override
    protected Reply answer(Request r) {
        if (!"3".equals(r.header("Zotero-API-Version"))) {
            return Reply.of(400, "Zotero-API-Version 3 required");
        }
        if (!KEY.equals(r.header("Zotero-API-Key"))) {
            return Reply.of(403, "Forbidden");
        }
        String prefix = "/" + LIBRARY + "/";
        if (!r.path().startsWith(prefix)) {
            return Reply.of(404, "Not found");
        }
        String rest = r.path().substring(prefix.length());
        return switch (r.method() + " " + (rest.startsWith("items/") && !rest.equals("items/top") ? "items/{key}" : rest)) {
            case "GET items/top" -> versions(r);
            case "GET items" -> byKeys(r);
            case "GET items/{key}" -> one(rest.substring(6));
            case "GET deleted" -> deleted(r);
            case "POST items" -> create(r);
            case "PUT items/{key}" -> update(rest.substring(6), r);
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
        items.forEach((k, v) -> {
            if (v.path("version").asLong() > since) {
                out.put(k, v.path("version").asLong());
            }
        });
        return ok(200, out.toString());
    }

    private Reply byKeys(Request r) {
        String[] keys = r.query().getOrDefault("itemKey", "").split(",");
        if (keys.length > 50) {
            return Reply.of(400, "Too many keys (max 50)");
        }
        ArrayNode out = JSON.createArrayNode();
        for (String k : keys) {
            if (items.containsKey(k)) {
                out.add(items.get(k));
            }
        }
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
            if (!data.has("itemType")) {
                failed.putObject(Integer.toString(i)).put("code", 400).put("message", "'itemType' property not provided");
                continue;
            }
            // Zotero keys are 8 random characters from its alphabet, unique across libraries
            String key = randomKey();
            ObjectNode item = item(key, (ObjectNode) data.deepCopy());
            items.put(key, item);
            successful.set(Integer.toString(i), item);
            success.put(Integer.toString(i), key);
        }
        return ok(200, result.toString());
    }

    private final java.util.Random random = new java.security.SecureRandom();

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
        ObjectNode item = JSON.createObjectNode();
        item.put("key", key);
        item.put("version", libraryVersion);
        item.putObject("library").put("type", "user").put("id", 475425);
        item.set("data", data);
        return item;
    }

    private Reply update(String key, Request r) {
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
        String iusv = r.header("If-Unmodified-Since-Version");
        long expected = iusv != null ? Long.parseLong(iusv) : data.path("version").asLong(-1);
        if (expected < 0) {
            return Reply.of(428, "If-Unmodified-Since-Version not provided");
        }
        if (expected != current.path("version").asLong()) {
            return Reply.of(412, "Item has been modified since specified version");
        }
        libraryVersion++;
        items.put(key, item(key, (ObjectNode) data.deepCopy()));
        return Reply.of(204, null, "Last-Modified-Version", Long.toString(libraryVersion));
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
    public void editRemotely(String key, String title) {
        ObjectNode data = (ObjectNode) items.get(key).get("data").deepCopy();
        data.put("title", title);
        libraryVersion++;
        items.put(key, item(key, data));
    }
}
