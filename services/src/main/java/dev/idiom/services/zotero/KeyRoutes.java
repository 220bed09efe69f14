package dev.idiom.services.zotero;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.idiom.events.zotero.ServedLibraries.ClientKey;
import dev.idiom.services.app.zotero.ServedZotero;
import dev.idiom.services.app.zotero.ZoteroApiException;
import dev.idiom.services.app.zotero.ZoteroKeys;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.List;

/**
 * The API keys, as the dataserver's {@code KeysController} serves them: {@code keys/{key}} and
 * {@code keys/current} read (the key is its own credential), changed and revoked; {@code POST keys}
 * makes a key for a name and password (Zotero desktop 7 and 8 sign in so) and {@code PUT keys/{key}}
 * with them changes one; {@code users/{id}/keys} lists and makes keys for the test root alone
 * (zotero.org's website), and with a key names the deprecated path of one. A key is kept only as a
 * hash, so a listing names each key's user, name, access and date, never the key.
 */
final class KeyRoutes {
    private final ServedZotero zotero;
    private final TestRoot root;
    private final Credentials credentials;

    /** Checks a name and password against the sign-ins, counting a wrong one against the client. */
    interface Credentials {
        long signIn(HttpServletRequest req, JsonNode body);
    }

    KeyRoutes(ServedZotero zotero, TestRoot root, Credentials credentials) {
        this.zotero = zotero;
        this.root = root;
        this.credentials = credentials;
    }

    /**
     * @param user the user a {@code users/{id}/keys} path names, or null ({@code keys})
     * @param rest the path after {@code keys}: empty, or a key ({@code current}: the one presented)
     */
    void serve(HttpServletRequest req, HttpServletResponse resp, Long user, List<String> rest, String base) throws IOException {
        if (rest.size() > 1) {
            throw new ZoteroApiException(404, "Not found");
        }
        boolean website = root.isRoot(req);
        String presented = rest.isEmpty() ? null : rest.get(0).equals("current") ? ZoteroApi.keyOf(req) : rest.get(0);
        ClientKey key = presented == null ? null : zotero.keys().find(presented).orElseThrow(() -> rest.get(0).equals("current")
                ? ZoteroApiException.wrongCredentials("Invalid key") : new ZoteroApiException(404, "Key '" + presented + "' not found"));
        if (key != null && user != null && key.userNumber() != user && !req.getMethod().equals("PUT")) {
            throw new ZoteroApiException(404, "Key not found");
        }
        switch (req.getMethod()) {
            case "GET" -> {
                if (key != null) {
                    ObjectNode out = answer(key, presented, website);
                    if (!website) {
                        out.remove("name");
                    }
                    ZoteroApi.json(resp, 200, out);
                    return;
                }
                if (user == null || !website) {
                    throw new ZoteroApiException(403, "Forbidden");
                }
                ArrayNode out = ZoteroAnswers.JSON.createArrayNode();
                zotero.keys().forUser(user).forEach(k -> out.add(answer(k, null, true)));
                ZoteroApi.json(resp, 200, out);
            }
            case "DELETE" -> {
                if (key == null) {
                    throw new ZoteroApiException(400, "DELETE requests must include a key");
                }
                zotero.keys().revoke(presented);
                resp.setStatus(204);
            }
            case "POST" -> {
                if (key != null) {
                    throw new ZoteroApiException(400, "POST requests cannot include a key (did you mean PUT?)");
                }
                JsonNode body = json(req);
                if (!body.path("key").asText("").isEmpty()) {
                    throw new ZoteroApiException(400, "POST requests cannot contain a key");
                }
                long owner;
                if (website) {
                    if (user == null) {
                        throw new ZoteroApiException(400, "The user a key is for is named by the path: POST users/{id}/keys");
                    }
                    owner = user;
                } else {
                    if (user != null) {
                        throw new ZoteroApiException(403, "Forbidden");
                    }
                    owner = credentials.signIn(req, body);
                }
                String name = name(body);
                String made = zotero.keys().issue(owner, name, ZoteroKeys.granted(body.path("access"), g -> zotero.memberOf(owner, g)));
                resp.setHeader("Location", base + "/keys/" + made);
                ZoteroApi.json(resp, 201, answer(zotero.caller(made), made, website));
            }
            case "PUT" -> {
                if (key == null) {
                    throw new ZoteroApiException(400, "PUT requests must include a key (did you mean POST?)");
                }
                JsonNode body = json(req);
                if (!website) {
                    if (user != null) {
                        throw new ZoteroApiException(403, "Forbidden");
                    }
                    if (credentials.signIn(req, body) != key.userNumber()) {
                        throw new ZoteroApiException(403, "Forbidden"); // a sign-in changes its own user's keys only
                    }
                }
                if (!body.path("key").asText(presented).equals(presented)) {
                    throw new ZoteroApiException(400, "Key '" + body.path("key").asText() + "' does not match key '" + presented + "' from URI");
                }
                long owner = key.userNumber();
                // an empty access leaves the key's grants as they are, as the dataserver reads it
                ObjectNode access = body.path("access").isObject() && !body.path("access").isEmpty()
                        ? ZoteroKeys.granted(body.path("access"), g -> zotero.memberOf(owner, g)) : null;
                ClientKey changed = zotero.keys().update(key, body.has("name") ? name(body) : key.name(), access);
                ZoteroApi.json(resp, 200, answer(changed, presented, website));
            }
            default -> throw new ZoteroApiException(405, "Method not allowed");
        }
    }

    private static JsonNode json(HttpServletRequest req) throws IOException {
        JsonNode body;
        try {
            body = ZoteroApi.body(req);
        } catch (com.fasterxml.jackson.core.JacksonException e) {
            throw new ZoteroApiException(400, req.getMethod() + " data is not valid JSON");
        }
        if (!body.isObject()) {
            throw new ZoteroApiException(400, req.getMethod() + " data is not valid JSON");
        }
        return body;
    }

    private static String name(JsonNode body) {
        if (!body.path("name").isTextual()) {
            throw new ZoteroApiException(400, "Key name not provided");
        }
        String name = body.path("name").textValue();
        if (name.length() > 255) {
            throw new ZoteroApiException(400, "Key name too long");
        }
        return name;
    }

    /** A key as the API answers it; {@code presented} null: a listing (the key itself is not kept); {@code website}: with its date. */
    private ObjectNode answer(ClientKey k, String presented, boolean website) {
        ObjectNode out = ZoteroAnswers.JSON.createObjectNode();
        if (presented != null) {
            out.put("key", presented);
        }
        out.put("userID", k.userNumber()).put("username", zotero.username(k.userNumber())).put("displayName", zotero.displayName(k.userNumber()))
                .put("name", k.name());
        out.set("access", ZoteroKeys.access(k));
        if (website) {
            out.put("dateAdded", k.createdAt().truncatedTo(java.time.temporal.ChronoUnit.SECONDS).toString());
        }
        return out;
    }
}
