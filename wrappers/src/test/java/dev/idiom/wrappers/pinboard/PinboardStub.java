package dev.idiom.wrappers.pinboard;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.idiom.events.Fingerprint;
import dev.idiom.wrappers.StubServer;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Pinboard API v1 as published: every method a GET under /v1/, {@code auth_token=user:TOKEN}
 * (401 otherwise), {@code format=json}; posts/update, posts/all (meta=yes), posts/get,
 * posts/add (replace=no refuses an existing URL), posts/delete; result codes as Pinboard gives them.
 */
public final class PinboardStub extends StubServer {
    private static final ObjectMapper JSON = new ObjectMapper();
    public static final String TOKEN = "curator:0123456789ABCDEF";

    private final Map<String, ObjectNode> posts = new LinkedHashMap<>();
    private Instant updated = Instant.parse("2026-01-01T00:00:00Z");
    private int edits;

    @Override
    protected Reply answer(Request r) {
        if (!TOKEN.equals(r.query().get("auth_token"))) {
            return Reply.of(401, "401 Forbidden");
        }
        if (!"json".equals(r.query().get("format"))) {
            return Reply.of(200, "<?xml version=\"1.0\"?><result code=\"something went wrong\"/>");
        }
        String url = r.query().get("url");
        return switch (r.path()) {
            case "/v1/posts/update" -> json(JSON.createObjectNode().put("update_time", updated.toString()));
            case "/v1/posts/all" -> {
                ArrayNode all = JSON.createArrayNode();
                posts.values().forEach(all::add);
                yield json(all);
            }
            case "/v1/posts/get" -> {
                ObjectNode out = JSON.createObjectNode().put("date", updated.toString()).put("user", "curator");
                ArrayNode list = out.putArray("posts");
                if (url != null && posts.containsKey(url)) {
                    list.add(posts.get(url));
                }
                yield json(out);
            }
            case "/v1/posts/add" -> {
                if (url == null || r.query().get("description") == null) {
                    yield json(JSON.createObjectNode().put("result_code", "missing url"));
                }
                if ("no".equals(r.query().get("replace")) && posts.containsKey(url)) {
                    yield json(JSON.createObjectNode().put("result_code", "item already exists"));
                }
                put(url, r.query().get("description"), r.query().getOrDefault("extended", ""), r.query().getOrDefault("tags", ""));
                yield json(JSON.createObjectNode().put("result_code", "done"));
            }
            case "/v1/posts/delete" -> {
                if (posts.remove(url) == null) {
                    yield json(JSON.createObjectNode().put("result_code", "item not found"));
                }
                updated = updated.plusSeconds(1);
                yield json(JSON.createObjectNode().put("result_code", "done"));
            }
            default -> Reply.of(404, "Not Found");
        };
    }

    void put(String url, String description, String extended, String tags) {
        updated = updated.plusSeconds(1);
        edits++;
        ObjectNode p = JSON.createObjectNode().put("href", url).put("description", description).put("extended", extended)
                .put("hash", Fingerprint.of(url)).put("time", updated.toString()).put("shared", "no").put("toread", "no").put("tags", tags);
        p.put("meta", Fingerprint.of(url + description + extended + tags + edits));
        posts.put(url, p);
    }

    private static Reply json(Object node) {
        return Reply.of(200, node.toString(), "Content-Type", "application/json");
    }
}
