package dev.idiom.services;

import static org.junit.jupiter.api.Assertions.assertEquals;
import org.junit.jupiter.api.io.TempDir;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.idiom.db.TestDatabase;
import dev.idiom.services.app.Role;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Every endpoint, REST and SOAP, with no key, a wrong key, and a key of each role: 401 / fault
 * Unauthorized without a good key, 403 / fault Forbidden when the role is too low, and neither
 * when it suffices. The REST roles are the ones the OpenAPI document promises ("Needs role: …"),
 * and every documented operation is called, so the document and the code cannot drift apart.
 */
class KeysAndRolesTest {
    private static RunningIdiom idiom;
    private static final Map<Role, String> KEYS = new EnumMap<>(Role.class);
    private static String entity;

    /** One call: how to make it, and the role it needs (null: anonymous). */
    private record Call(String label, Role needs, String method, String path, String contentType, String body) {}

    @BeforeAll
    static void start() {
        idiom = new RunningIdiom(Map.of("sync-interval-ms", "0"));
        for (Role r : Role.values()) {
            HttpResponse<String> created = idiom.post("/api/keys", "application/json", "{\"name\":\"the-" + r.id() + "\",\"role\":\"" + r.id() + "\"}");
            assertEquals(201, created.statusCode(), created.body());
            KEYS.put(r, RunningIdiom.json(created).get("key").asText());
        }
        HttpResponse<String> de = idiom.post("/api/entities", "application/json", "{\"metadata\":{\"title\":\"Role matrix\"}}");
        entity = RunningIdiom.json(de).get("id").asText();
    }

    @AfterAll
    static void stop() {
        idiom.close();
    }

    private static HttpResponse<String> call(Call c, String key) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(idiom.url(c.path())))
                .method(c.method(), c.body() == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(c.body()));
        if (c.contentType() != null) {
            b.header("Content-Type", c.contentType());
        }
        if (c.path().startsWith("/services/")) {
            b.header("SOAPAction", "\"\"");
        }
        if (key != null) {
            b.header("Authorization", "Bearer " + key);
        }
        return idiom.anonymous(b);
    }

    /** The REST operations of the OpenAPI document, each with the role its description names. */
    private static List<Call> restCalls() {
        JsonNode doc = RunningIdiom.json(idiom.anonymous(HttpRequest.newBuilder(URI.create(idiom.url("/api/openapi.json")))));
        Pattern needs = Pattern.compile("Needs role: (reader|curator|admin)");
        List<Call> calls = new ArrayList<>();
        doc.get("paths").properties().forEach(p -> p.getValue().properties().forEach(op -> {
            String method = op.getKey().toUpperCase();
            Matcher m = needs.matcher(op.getValue().path("description").asText(""));
            Role role = m.find() ? Role.parse(m.group(1)) : null;
            boolean open = op.getValue().has("security") && op.getValue().get("security").isEmpty();
            assertTrue(open || role != null, method + " " + p.getKey() + " is neither anonymous nor says which role it needs");
            String path = "/api" + p.getKey().replace("{id}", entity).replace("{name}", "nosuch");
            boolean body = op.getValue().has("requestBody");
            calls.add(new Call(method + " " + p.getKey(), open ? null : role, method, path, body ? contentType(op.getValue()) : null, body ? "{}" : null));
        }));
        return calls;
    }

    private static String contentType(JsonNode op) {
        return op.get("requestBody").get("content").fieldNames().next();
    }

    private static Call soap(String operation, Role needs, String inner) {
        return new Call("SOAP " + operation, needs, "POST", "/services/DigitalEntityService", "text/xml; charset=UTF-8",
                RunningIdiom.envelope("<de:" + operation + ">" + inner + "</de:" + operation + ">"));
    }

    private static List<Call> soapCalls() {
        String id = "<de:id>" + entity + "</de:id>";
        return List.of(soap("empty", Role.READER, ""), soap("moreInfo", Role.READER, id), soap("history", Role.READER, id),
                soap("search", Role.READER, ""), soap("createDE", Role.CURATOR, "<de:entity><de:title>x</de:title></de:entity>"),
                soap("updateDE", Role.CURATOR, id + "<de:field>notes</de:field><de:value>n</de:value><de:expectedVersion>99</de:expectedVersion>"),
                soap("download", Role.CURATOR, "<de:tool>nosuch</de:tool><de:remoteId>r</de:remoteId>"),
                soap("upload", Role.CURATOR, id + "<de:tool>nosuch</de:tool>"), soap("importAll", Role.CURATOR, "<de:tool>nosuch</de:tool>"),
                soap("sync", Role.CURATOR, "<de:tool>nosuch</de:tool>"), soap("consistencyReport", Role.CURATOR, ""),
                soap("conflicts", Role.CURATOR, ""));
    }

    /** The code of a REST problem or a SOAP fault (empty for other answers). */
    private static String code(HttpResponse<String> r) {
        if (r.body().startsWith("<") || r.body().startsWith("<?xml")) {
            Matcher m = Pattern.compile("<(?:\\w+:)?code>(\\w+)</").matcher(r.body());
            return m.find() ? m.group(1) : "";
        }
        return r.body().startsWith("{") ? RunningIdiom.json(r).path("code").asText("") : "";
    }

    @Test
    void everyEndpointRefusesAMissingOrWrongKeyAndARoleTooLowAndServesARoleHighEnough() {
        List<Call> calls = new ArrayList<>(restCalls());
        calls.addAll(soapCalls());
        calls.add(new Call("GET /admin", Role.ADMIN, "GET", "/admin", null, null));
        calls.add(new Call("GET /admin/metrics", Role.ADMIN, "GET", "/admin/metrics", null, null));
        calls.add(new Call("GET /", null, "GET", "/", null, null));
        calls.add(new Call("GET WSDL", null, "GET", "/services/DigitalEntityService?wsdl", null, null));
        calls.add(new Call("GET /api/openapi.json", null, "GET", "/api/openapi.json", null, null));
        List<String> wrong = new ArrayList<>();
        for (Call c : calls) {
            expect(wrong, c, "no key", call(c, null), c.needs() == null ? null : "Unauthorized");
            expect(wrong, c, "a wrong key", call(c, "idiom_not-a-key-" + UUID.randomUUID()), c.needs() == null ? null : "Unauthorized");
            for (Role r : Role.values()) {
                expect(wrong, c, r.id(), call(c, KEYS.get(r)), c.needs() == null || r.includes(c.needs()) ? null : "Forbidden");
            }
        }
        assertTrue(wrong.isEmpty(), String.join("\n", wrong));
        assertTrue(calls.size() > 35, "the matrix covers every endpoint: " + calls.size());
    }

    private static void expect(List<String> wrong, Call c, String as, HttpResponse<String> r, String refusal) {
        boolean soap = c.path().startsWith("/services/") && c.method().equals("POST");
        String got = code(r);
        if (refusal == null) {
            if (r.statusCode() == 401 || r.statusCode() == 403 || got.equals("Unauthorized") || got.equals("Forbidden")) {
                wrong.add(c.label() + " as " + as + ": refused (" + r.statusCode() + " " + got + ")");
            }
            return;
        }
        int status = soap ? 500 : refusal.equals("Unauthorized") ? 401 : 403;
        if (r.statusCode() != status || !got.equals(refusal)) {
            wrong.add(c.label() + " as " + as + ": expected " + status + " " + refusal + ", got " + r.statusCode() + " " + got + " " + r.body());
        }
        if (!soap && refusal.equals("Unauthorized") && r.headers().firstValue("WWW-Authenticate").isEmpty()) {
            wrong.add(c.label() + " as " + as + ": 401 without WWW-Authenticate");
        }
        if (r.body().contains("Exception") || r.body().contains("\tat ")) {
            wrong.add(c.label() + " as " + as + ": a stack trace in the answer");
        }
    }

    @Test
    void eachEventNamesTheKeyThatCausedItSoProvenanceNamesThePrincipal() {
        HttpRequest.Builder create = HttpRequest.newBuilder(URI.create(idiom.url("/api/entities"))).header("Content-Type", "application/json")
                .header("Authorization", "Bearer " + KEYS.get(Role.CURATOR)).header("Idiom-Source", "portal-x")
                .POST(HttpRequest.BodyPublishers.ofString("{\"metadata\":{\"title\":\"Whose is it\"}}"));
        HttpResponse<String> created = idiom.send(create);
        assertEquals(201, created.statusCode(), created.body());
        String id = RunningIdiom.json(created).get("id").asText();
        String soap = idiom.send(HttpRequest.newBuilder(URI.create(idiom.url("/services/DigitalEntityService")))
                .header("Content-Type", "text/xml; charset=UTF-8").header("SOAPAction", "\"\"").header("Authorization", "Bearer " + KEYS.get(Role.ADMIN))
                .POST(HttpRequest.BodyPublishers.ofString(RunningIdiom.envelope("<de:updateDE><de:id>" + id
                        + "</de:id><de:field>venue</de:field><de:value>CSUR</de:value><de:expectedVersion>1</de:expectedVersion></de:updateDE>")))).body();
        assertTrue(soap.contains("updateDEResponse"), soap);
        JsonNode history = RunningIdiom.json(idiom.get("/api/entities/" + id + "/events")).get("events");
        assertEquals("key:the-curator (rest, portal-x)", history.get(0).get("source").asText());
        assertEquals("key:the-admin (soap)", history.get(1).get("source").asText());
        assertEquals("key:the-admin (soap)", RunningIdiom.json(idiom.get("/api/entities/" + id + "/provenance")).get("fields").get("venue").get("source").asText());
    }

    @Test
    void anAdminCreatesListsAndRevokesKeysAndARevokedKeyStopsWorkingAtOnce() {
        HttpResponse<String> created = idiom.post("/api/keys", "application/json", "{\"name\":\"portal-b\",\"role\":\"reader\"}");
        assertEquals(201, created.statusCode());
        assertTrue(created.headers().firstValue("Location").orElse("").endsWith("/api/keys/portal-b"));
        String key = RunningIdiom.json(created).get("key").asText();
        assertTrue(key.startsWith("idiom_") && key.length() >= 40, "a long random key: " + key);
        Call read = new Call("GET", Role.READER, "GET", "/api/entities/" + entity, null, null);
        assertEquals(200, call(read, key).statusCode());

        String listed = idiom.get("/api/keys").body();
        assertTrue(listed.contains("\"portal-b\"") && !listed.contains(key), "listed, never with the key: " + listed);
        assertEquals(409, idiom.post("/api/keys", "application/json", "{\"name\":\"portal-b\",\"role\":\"reader\"}").statusCode(), "names are unique");
        assertEquals(400, idiom.post("/api/keys", "application/json", "{\"name\":\"x\",\"role\":\"owner\"}").statusCode(), "roles are closed");
        assertEquals(400, idiom.post("/api/keys", "application/json", "{\"name\":\"x\",\"role\":\"reader\",\"extra\":1}").statusCode());
        assertEquals(400, idiom.post("/api/keys", "application/json", "{\"name\":\"bad name/\",\"role\":\"reader\"}").statusCode());

        assertEquals(204, idiom.send(HttpRequest.newBuilder(URI.create(idiom.url("/api/keys/portal-b"))).DELETE()).statusCode());
        HttpResponse<String> after = call(read, key);
        assertEquals(401, after.statusCode(), "revoked on this node at once");
        assertEquals(404, idiom.send(HttpRequest.newBuilder(URI.create(idiom.url("/api/keys/portal-b"))).DELETE()).statusCode(), "revoked already");
        assertEquals(404, idiom.send(HttpRequest.newBuilder(URI.create(idiom.url("/api/keys/n%C3%BCmmer"))).DELETE()).statusCode());
    }

    @Test
    void theCommandLineCreatesListsAndRevokesKeys() {
        String url = TestDatabase.freshUrl();
        List<String> db = List.of("--db-url", url, "--data", "target/test-data/keys-cli");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
        PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8);
        assertEquals(0, IdiomMain.run(concat(List.of("keys", "create", "--name", "portal-c", "--role", "curator"), db), o, e), err.toString());
        String printed = out.toString(StandardCharsets.UTF_8);
        Matcher key = Pattern.compile("(idiom_[A-Za-z0-9_-]{43})").matcher(printed);
        assertTrue(key.find(), printed);
        out.reset();
        assertEquals(0, IdiomMain.run(concat(List.of("keys", "list"), db), o, e));
        assertTrue(out.toString().contains("portal-c") && out.toString().contains("curator") && !out.toString().contains(key.group(1)), out.toString());
        assertEquals(0, IdiomMain.run(concat(List.of("keys", "revoke", "--name", "portal-c"), db), o, e));
        assertNotEquals(0, IdiomMain.run(concat(List.of("keys", "revoke", "--name", "portal-c"), db), o, e));
        assertEquals(2, IdiomMain.run(concat(List.of("keys", "create", "--name", "x", "--role", "owner"), db), o, e), "a clear usage error");
        assertEquals(2, IdiomMain.run(List.of("keys"), o, e));
    }

    @Test
    void aNewInstallationGetsOneAdminKeyWrittenForItsOwnerOnly(@TempDir java.nio.file.Path data) throws Exception {
        try (RunningIdiom fresh = new RunningIdiom(TestDatabase.freshUrl(), Map.of(), Map.of())) {
            String key = fresh.server.idiom().application().keys().firstAdminKey(data).orElseThrow();
            assertEquals(key, java.nio.file.Files.readString(data.resolve("admin.key")).strip());
            assertEquals("rw-------", java.nio.file.attribute.PosixFilePermissions.toString(
                    java.nio.file.Files.getPosixFilePermissions(data.resolve("admin.key"))));
            assertFalse(fresh.server.idiom().application().keys().firstAdminKey(data).isPresent(), "only the first start makes one");
            HttpResponse<String> tools = fresh.send(HttpRequest.newBuilder(URI.create(fresh.url("/api/keys"))).header("Authorization", "Bearer " + key));
            assertEquals(200, tools.statusCode(), "it is an admin key");
            Set<String> names = new TreeSet<>();
            RunningIdiom.json(tools).forEach(k -> names.add(k.get("name").asText()));
            assertEquals(Set.of("admin"), names);
        }
    }

    private static List<String> concat(List<String> a, List<String> b) {
        List<String> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }
}
