package dev.idiom.services.zotero;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.idiom.events.zotero.ServedLibraries.ClientKey;
import dev.idiom.events.zotero.ServedLibraries.Library;
import dev.idiom.services.app.zotero.LibraryView.Stored;
import dev.idiom.services.app.zotero.ServedZotero;
import dev.idiom.services.app.zotero.ZoteroApiException;
import dev.idiom.services.app.zotero.LoginSessions;
import dev.idiom.services.http.AuthFailures;
import dev.idiom.services.http.PublicUrl;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.zip.GZIPInputStream;

/**
 * The Zotero Web API v3 (www.zotero.org/support/dev/web_api/v3) at the root of Idiom's port:
 * {@code keys}, {@code users/{id}/…} and {@code groups/{id}/…} with items, collections, searches,
 * tags, settings and deletions, and item templates. Keys come in {@code Zotero-API-Key},
 * {@code Authorization: Bearer} or {@code ?key=}; every 2xx and 412 names the library's version.
 * A test root (its name and password from the environment) adds the set-up routes Zotero's own API
 * suite uses ({@link TestRoot}); without one they do not exist.
 */
public final class ZoteroApi extends HttpServlet {
    /** The version of the Zotero schema Idiom serves (zotero-schema's schema.json it is built with). */
    static final int SCHEMA_VERSION = 41;
    private final ServedZotero zotero;
    private final ZoteroAnswers answers;
    private final PublicUrl publicUrl;
    private final TestRoot root;
    private final transient AuthFailures failures;
    private final transient KeyRoutes keyRoutes;
    private final transient java.util.function.IntSupplier backoff;

    /**
     * @param failures the wrong keys and passwords each client presented lately: one count with Idiom's other faces
     * @param backoff the seconds clients should hold back now (0: none), sent as {@code Backoff}
     */
    public ZoteroApi(ServedZotero zotero, PublicUrl publicUrl, TestRoot root, AuthFailures failures, java.util.function.IntSupplier backoff) {
        this.zotero = zotero;
        this.answers = new ZoteroAnswers(zotero.types());
        this.publicUrl = publicUrl;
        this.root = root;
        this.failures = failures;
        this.backoff = backoff;
        this.keyRoutes = new KeyRoutes(zotero, root, this::signIn);
    }

    @Override
    protected void service(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        resp.setHeader("Zotero-API-Version", "3");
        resp.setHeader("Zotero-Schema-Version", Integer.toString(SCHEMA_VERSION));
        int holdBack = backoff.getAsInt();
        if (holdBack > 0) {
            resp.setHeader("Backoff", Integer.toString(holdBack)); // Idiom is busy: only the requests a client must make (the API's Backoff)
        }
        String path = req.getRequestURI().substring(req.getContextPath().length());
        List<String> parts = new ArrayList<>(Arrays.asList(path.replaceAll("^/+|/+$", "").split("/")));
        String presented = optionalKey(req);
        try {
            String version = req.getHeader("Zotero-API-Version");
            if (version != null && !version.equals("3")) {
                throw new ZoteroApiException(400, "Invalid API version '" + version + "'; Idiom serves version 3");
            }
            throttled(req, presented);
            route(req, resp, parts);
        } catch (ZoteroApiException e) {
            if (e.isWrongCredentials() && presented != null) {
                failures.failed(publicUrl.clientAddress(req), presented);
            }
            if (e.libraryVersion() >= 0) {
                resp.setHeader("Last-Modified-Version", Long.toString(e.libraryVersion()));
            }
            if (e.retryAfterSeconds() > 0) {
                resp.setHeader("Retry-After", Long.toString(e.retryAfterSeconds()));
            }
            text(resp, e.status(), e.getMessage());
        } catch (com.fasterxml.jackson.core.JacksonException e) {
            text(resp, 400, "Invalid JSON: " + e.getOriginalMessage());
        }
    }

    /**
     * Refuses (429 with {@code Retry-After}, as the dataserver answers "Too many authentication
     * failures") a client past its bound of wrong keys or passwords, before the key is looked up.
     */
    private void throttled(HttpServletRequest req, String bucket) {
        failures.wait(publicUrl.clientAddress(req), bucket == null ? "" : bucket).ifPresent(wait -> {
            throw ZoteroApiException.throttled("Too many authentication failures", Math.max(1, wait.toSeconds() + 1));
        });
    }

    /** The user a body's {@code username} and {@code password} sign in ({@code POST /keys}); 403 otherwise, counted against the client. */
    private long signIn(HttpServletRequest req, JsonNode body) {
        String username = body.path("username").asText("");
        String password = body.path("password").asText("");
        if (username.isEmpty() || password.isEmpty()) {
            throw new ZoteroApiException(403, "Forbidden");
        }
        String bucket = "sign-in " + username;
        throttled(req, bucket);
        return zotero.signIns().authenticate(username, password).orElseThrow(() -> {
            failures.failed(publicUrl.clientAddress(req), bucket);
            return new ZoteroApiException(403, "Invalid username/password");
        });
    }

    private void route(HttpServletRequest req, HttpServletResponse resp, List<String> p) throws IOException {
        String method = req.getMethod();
        if (root.routes(req, resp, p)) {
            return;
        }
        switch (p.get(0)) {
            case "keys" -> keys(req, resp, p);
            case "items" -> {
                if (p.size() == 2 && p.get(1).equals("new") && method.equals("GET")) {
                    json(resp, 200, zotero.types().template(req.getParameter("itemType"), req.getParameter("linkMode"),
                            req.getParameter("annotationType")));
                    return;
                }
                throw new ZoteroApiException(404, "Not found");
            }
            case "itemTypes", "itemFields", "itemTypeFields", "itemTypeCreatorTypes", "creatorFields" -> {
                if (p.size() != 1 || !method.equals("GET")) {
                    throw new ZoteroApiException(p.size() != 1 ? 404 : 405, p.size() != 1 ? "Not found" : "Method not allowed");
                }
                json(resp, 200, schemaRoute(p.get(0), req.getParameter("itemType"), req.getParameter("locale")));
            }
            case "users", "groups" -> {
                if (p.size() >= 2 && !p.get(1).matches("[0-9]{1,18}")) {
                    throw new ZoteroApiException(400, "Invalid " + (p.get(0).equals("users") ? "user" : "group") + " ID");
                }
                if (p.size() < 3) {
                    throw new ZoteroApiException(404, "Not found");
                }
                if (p.get(0).equals("users") && p.get(2).equals("keys")) {
                    keyRoutes.serve(req, resp, Long.parseLong(p.get(1)), p.subList(3, p.size()), publicUrl.of(req));
                    return;
                }
                if (p.size() == 3 && p.get(0).equals("users") && p.get(2).equals("groups") && method.equals("GET")) {
                    long user = Long.parseLong(p.get(1));
                    if (zotero.caller(keyOf(req)).userNumber() != user) {
                        throw new ZoteroApiException(403, "Forbidden");
                    }
                    groups(zotero, publicUrl.of(req), req, resp, user);
                    return;
                }
                Library library = zotero.library(p.get(0).equals("users") ? "user" : "group", Long.parseLong(p.get(1)));
                boolean write = !method.equals("GET") && !method.equals("HEAD");
                if (write || !root.isRoot(req)) { // the test root reads any library (the suite's superGet), and writes none without a key
                    zotero.check(zotero.caller(keyOf(req)), library, write);
                }
                new LibraryRoutes(zotero, answers, publicUrl.of(req)).serve(req, resp, library, p.subList(2, p.size()));
            }
            default -> throw new ZoteroApiException(404, "Not found");
        }
    }

    /** A schema route's answer: each name with its label, as {@code [{itemType|field|creatorType, localized}]}. */
    private ArrayNode schemaRoute(String route, String itemType, String locale) {
        var types = zotero.types();
        List<dev.idiom.services.app.zotero.ItemTemplates.Named> named = switch (route) {
            case "itemTypes" -> types.itemTypes(locale);
            case "itemFields" -> types.itemFields(locale);
            case "itemTypeFields" -> types.typeFields(itemType, locale);
            case "itemTypeCreatorTypes" -> types.creatorTypes(itemType, locale);
            default -> types.creatorFields();
        };
        String property = switch (route) {
            case "itemTypes" -> "itemType";
            case "itemTypeCreatorTypes" -> "creatorType";
            default -> "field";
        };
        ArrayNode out = array();
        named.forEach(n -> out.addObject().put(property, n.name()).put("localized", n.localized()));
        return out;
    }

    /**
     * The groups a user owns or is a member of ({@code users/N/groups}), as zotero.org lists them;
     * {@code format=versions}: each group's library version by id (desktop's sync starts so).
     */
    static void groups(ServedZotero zotero, String base, HttpServletRequest req, HttpServletResponse resp, long user) throws IOException {
        List<Library> groups = zotero.groupsOf(user);
        long newest = groups.stream().mapToLong(Library::version).max().orElse(0);
        resp.setHeader("Total-Results", Integer.toString(groups.size()));
        resp.setHeader("Last-Modified-Version", Long.toString(newest));
        if ("versions".equals(req.getParameter("format"))) {
            ObjectNode out = ZoteroAnswers.JSON.createObjectNode();
            groups.forEach(g -> out.put(Long.toString(g.number()), g.version()));
            json(resp, 200, out);
            return;
        }
        ArrayNode out = array();
        for (Library g : groups) {
            ObjectNode o = out.addObject().put("id", g.number()).put("version", g.version());
            o.putObject("links").putObject("alternate").put("href", base + "/groups/" + g.number()).put("type", "text/html");
            o.putObject("meta").put("numItems", zotero.view(g).of("item").size());
            ObjectNode data = (ObjectNode) dev.idiom.services.app.zotero.LibraryView.parse(g.meta()).deepCopy();
            data.put("id", g.number()).put("version", g.version()).put("name", g.name());
            o.set("data", data);
        }
        json(resp, 200, out);
    }

    /** {@code keys}: the API keys ({@link KeyRoutes}), and desktop's web login at {@code keys/sessions}. */
    private void keys(HttpServletRequest req, HttpServletResponse resp, List<String> p) throws IOException {
        if (p.size() >= 2 && p.get(1).equals("sessions")) {
            sessions(req, resp, p.subList(2, p.size()));
            return;
        }
        keyRoutes.serve(req, resp, null, p.subList(1, p.size()), publicUrl.of(req));
    }

    /**
     * {@code keys/sessions}: Zotero desktop's web login. POST opens a session (a key presented: that
     * key's update) and answers its token and the page where it is approved; GET polls it, DELETE
     * cancels it; {@code {token}/info} and {@code complete} are the approver's (the test root's here;
     * a curator approves at the login page of the workspace).
     */
    private void sessions(HttpServletRequest req, HttpServletResponse resp, List<String> p) throws IOException {
        var logins = zotero.logins();
        String method = req.getMethod();
        if (p.isEmpty() && method.equals("POST")) {
            String presented = optionalKey(req);
            ClientKey key = presented == null || presented.isBlank() ? null : zotero.caller(presented);
            byte[] raw = req.getInputStream().readAllBytes();
            JsonNode body = raw.length == 0 ? null : ZoteroAnswers.JSON.readTree(new String(raw, StandardCharsets.UTF_8));
            Long user = body != null && body.path("userID").canConvertToLong() && body.path("userID").asLong() > 0 ? body.path("userID").asLong() : null;
            LoginSessions.Session s = logins.open(key, user, req.getHeader("User-Agent"));
            json(resp, 201, ZoteroAnswers.JSON.createObjectNode().put("sessionToken", s.token())
                    .put("loginURL", publicUrl.of(req) + LoginSessions.APPROVAL_PATH + "/" + s.token()));
            return;
        }
        if (p.size() == 1 && p.get(0).equals("complete") && method.equals("POST")) {
            if (!root.isRoot(req)) {
                throw new ZoteroApiException(403, "Forbidden");
            }
            JsonNode body = body(req);
            logins.complete(body.path("sessionToken").asText(null), body.path("userID").canConvertToLong() && body.has("userID")
                    ? body.path("userID").asLong() : null, body.get("access"));
            resp.setStatus(204);
            return;
        }
        if (p.size() == 2 && p.get(1).equals("info") && method.equals("GET")) {
            if (!root.isRoot(req)) {
                throw new ZoteroApiException(403, "Forbidden");
            }
            json(resp, 200, logins.info(logins.get(p.get(0))));
            return;
        }
        if (p.size() != 1) {
            throw new ZoteroApiException(404, "Not found");
        }
        switch (method) {
            case "GET" -> json(resp, 200, logins.answer(logins.get(p.get(0))));
            case "DELETE" -> {
                logins.cancel(p.get(0));
                resp.setStatus(204);
            }
            default -> throw new ZoteroApiException(405, "Method not allowed");
        }
    }


    /** The key a request presents, or null where it presents none. */
    private static String optionalKey(HttpServletRequest req) {
        try {
            return keyOf(req);
        } catch (ZoteroApiException none) {
            return null;
        }
    }

    /** The key a request presents: {@code Zotero-API-Key}, {@code Authorization: Bearer}, or {@code ?key=}. */
    static String keyOf(HttpServletRequest req) {
        String header = req.getHeader("Zotero-API-Key");
        if (header != null) {
            return header;
        }
        String auth = req.getHeader("Authorization");
        if (auth != null && auth.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return auth.substring(7).strip();
        }
        String q = req.getParameter("key");
        if (q == null) {
            throw new ZoteroApiException(403, "Forbidden");
        }
        return q;
    }

    static JsonNode body(HttpServletRequest req) throws IOException {
        InputStream in = req.getInputStream();
        if ("gzip".equalsIgnoreCase(req.getHeader("Content-Encoding"))) {
            in = new GZIPInputStream(in);
        }
        byte[] bytes = in.readAllBytes();
        if (bytes.length == 0) {
            throw new ZoteroApiException(400, "Empty body");
        }
        return ZoteroAnswers.JSON.readTree(new String(bytes, StandardCharsets.UTF_8));
    }

    static void json(HttpServletResponse resp, int status, JsonNode body) throws IOException {
        resp.setStatus(status);
        resp.setContentType("application/json"); // exactly: Zotero's clients (and its suite) compare the type whole
        resp.getOutputStream().write(WRITER.writeValueAsBytes(body));
    }

    /** PHP's pretty JSON, a character beyond the BMP (an emoji) written as its four UTF-8 bytes, not as two escaped surrogates. */
    private static final com.fasterxml.jackson.databind.ObjectWriter WRITER = ZoteroAnswers.JSON.writer(php())
            .with(com.fasterxml.jackson.core.json.JsonWriteFeature.COMBINE_UNICODE_SURROGATES_IN_UTF8);

    /** A JSON body as {@link #json} writes it. */
    static String pretty(JsonNode body) {
        try {
            return ZoteroAnswers.JSON.writer(PHP_PRETTY).writeValueAsString(body);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    static void atom(HttpServletResponse resp, String body) throws IOException {
        resp.setStatus(200);
        resp.setContentType(ZoteroAtom.TYPE);
        resp.getOutputStream().write(body.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * The answer's format: {@code format}, else Atom when {@code content} is given (as the dataserver
     * reads them), else JSON; {@code content} with another format is refused.
     */
    static String format(HttpServletRequest req) {
        String format = req.getParameter("format");
        if (format == null) {
            return req.getParameter("content") == null ? "json" : "atom";
        }
        if (req.getParameter("content") != null && !format.equals("atom")) {
            throw new ZoteroApiException(400, "'content' is valid only for format=atom");
        }
        return format;
    }

    /** The dataserver's PHP JSON_PRETTY_PRINT: four spaces, {@code "key": value}, {@code []} and {@code {}} when empty (clients and the suite read the text). */
    private static final com.fasterxml.jackson.core.util.DefaultPrettyPrinter PHP_PRETTY = php();

    private static com.fasterxml.jackson.core.util.DefaultPrettyPrinter php() {
        var indent = new com.fasterxml.jackson.core.util.DefaultIndenter("    ", "\n");
        var separators = com.fasterxml.jackson.core.util.Separators.createDefaultInstance()
                .withObjectFieldValueSpacing(com.fasterxml.jackson.core.util.Separators.Spacing.AFTER)
                .withArrayEmptySeparator("").withObjectEmptySeparator("");
        return new com.fasterxml.jackson.core.util.DefaultPrettyPrinter(separators).withObjectIndenter(indent).withArrayIndenter(indent);
    }

    static void text(HttpServletResponse resp, int status, String body) throws IOException {
        resp.setStatus(status);
        resp.setContentType("text/plain");
        resp.getOutputStream().write(body.getBytes(StandardCharsets.UTF_8));
    }

    static ArrayNode array() {
        return ZoteroAnswers.JSON.createArrayNode();
    }

    static List<Stored> page(List<Stored> all, HttpServletRequest req) {
        int start = intParam(req, "start", 0);
        if (start < 0) {
            throw new ZoteroApiException(400, "Invalid 'limit' or 'start'");
        }
        return all.stream().skip(start).limit(limit(req)).toList();
    }

    /**
     * A page's size: {@code limit} (25 by default, at most 100); with object keys named
     * ({@code itemKey}, {@code collectionKey}, {@code searchKey}) always 50, as the dataserver forces it.
     */
    static int limit(HttpServletRequest req) {
        for (String keys : List.of("itemKey", "collectionKey", "searchKey")) {
            if (req.getParameter(keys) != null) {
                return 50;
            }
        }
        int limit = intParam(req, "limit", 25);
        if (limit < 1) {
            throw new ZoteroApiException(400, "Invalid 'limit' or 'start'");
        }
        return Math.min(limit, 100);
    }

    static int intParam(HttpServletRequest req, String name, int otherwise) {
        String v = req.getParameter(name);
        if (v == null || v.isEmpty()) {
            return otherwise;
        }
        try {
            return Integer.parseInt(v);
        } catch (NumberFormatException e) {
            throw new ZoteroApiException(400, "Invalid '" + name + "' value '" + v + "'");
        }
    }
}
