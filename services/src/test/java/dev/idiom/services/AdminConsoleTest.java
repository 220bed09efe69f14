package dev.idiom.services;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The admin console over real HTTP, as a browser meets it: logging in with a key gives a session
 * cookie (HttpOnly, SameSite=Strict, /admin only) and never the key; the live figures arrive as
 * Server-Sent Events and move after a REST update; actions need the page's CSRF token; a reader
 * key cannot log in; a revoked key ends its sessions.
 */
class AdminConsoleTest {
    private static RunningIdiom idiom;

    @BeforeAll
    static void start() {
        idiom = new RunningIdiom(Map.of("sync-interval-ms", "0"));
    }

    @AfterAll
    static void stop() {
        idiom.close();
    }

    private static HttpResponse<String> login(String key) {
        return idiom.anonymous(HttpRequest.newBuilder(URI.create(idiom.url("/admin/login"))).header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString("key=" + URLEncoder.encode(key, StandardCharsets.UTF_8))));
    }

    /** The session cookie's name=value, from a login's Set-Cookie. */
    private static String session(HttpResponse<String> login) {
        String set = login.headers().firstValue("Set-Cookie").orElseThrow(() -> new AssertionError("no cookie: " + login.headers()));
        return set.substring(0, set.indexOf(';'));
    }

    private static HttpResponse<String> withCookie(String cookie, String method, String path, String... headers) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(idiom.url(path))).header("Cookie", cookie).method(method, HttpRequest.BodyPublishers.noBody());
        if (headers.length > 0) {
            b.headers(headers);
        }
        return idiom.anonymous(b);
    }

    private static String csrf(String cookie) {
        Matcher m = Pattern.compile("name=\"idiom-csrf\" content=\"([^\"]+)\"").matcher(withCookie(cookie, "GET", "/admin").body());
        assertTrue(m.find(), "the dashboard carries the session's CSRF token");
        return m.group(1);
    }

    @Test
    void anAdminKeyLogsInAndTheBrowserKeepsOnlyAnHttpOnlySessionCookie() {
        HttpResponse<String> in = login(RunningIdiom.ADMIN_TOKEN);
        assertEquals(303, in.statusCode(), in.body());
        assertEquals("/admin", in.headers().firstValue("Location").orElse(""));
        String set = in.headers().firstValue("Set-Cookie").orElseThrow();
        assertTrue(set.contains("HttpOnly") && set.contains("SameSite=Strict") && set.contains("Path=/admin"), set);
        assertFalse(set.contains(RunningIdiom.ADMIN_TOKEN), "the cookie is a session id, not the key");

        HttpResponse<String> page = withCookie(session(in), "GET", "/admin");
        assertEquals(200, page.statusCode());
        assertTrue(page.headers().firstValue("Content-Security-Policy").orElse("").contains("script-src 'self'"), page.headers().toString());
        assertTrue(page.body().contains("/admin/assets/chart.umd.js"), "scripts from Idiom itself");
        assertTrue(page.body().contains("id=\"c-rate\""), "the rate chart");
    }

    @Test
    void withoutASessionAPersonIsSentToTheLoginFormAndAProgramGets401() {
        HttpResponse<String> browser = idiom.anonymous(HttpRequest.newBuilder(URI.create(idiom.url("/admin"))).header("Accept", "text/html,*/*"));
        assertEquals(303, browser.statusCode());
        assertEquals("/admin/login", browser.headers().firstValue("Location").orElse(""));
        assertEquals(401, idiom.anonymous(HttpRequest.newBuilder(URI.create(idiom.url("/admin/metrics")))).statusCode());
        HttpResponse<String> form = idiom.anonymous(HttpRequest.newBuilder(URI.create(idiom.url("/admin/login"))));
        assertEquals(200, form.statusCode());
        assertTrue(form.body().contains("type=\"password\""), form.body());
        assertEquals(401, login("not-a-key").statusCode());
    }

    @Test
    void aPathThatMeansOneThingToTheChecksAndAnotherToTheContainerIsRefusedBeforeAnyCheck() {
        String cookie = session(login(RunningIdiom.ADMIN_TOKEN));
        // Tomcat strips ";" and resolves "..": this is routed to SOAP; with the console's cookie it once ran as the admin
        HttpResponse<String> soap = idiom.anonymous(HttpRequest.newBuilder(URI.create(idiom.url("/admin/..;/services/DigitalEntityService")))
                .header("Cookie", cookie).header("Content-Type", "text/plain").header("SOAPAction", "\"\"")
                .POST(HttpRequest.BodyPublishers.ofString(RunningIdiom.envelope(
                        "<de:createDE><de:entity><de:title>Planted through the console cookie</de:title></de:entity></de:createDE>"))));
        assertEquals(400, soap.statusCode(), soap.body());
        assertEquals("Invalid", RunningIdiom.json(soap).get("code").asText());
        assertEquals(0, RunningIdiom.json(idiom.get("/api/entities?q=planted+console+cookie")).get("total").asInt(), "nothing was written");
        for (String path : List.of("/admin/assets/..;/api/keys", "/admin/%2e%2e/api/keys", "/admin/assets/%2E%2E/%2E%2E/api/keys",
                "/api/entities;jsessionid=1", "/admin/metrics;x", "/api/./keys")) {
            HttpResponse<String> r = withCookie(cookie, "GET", path);
            assertEquals(400, r.statusCode(), path + " " + r.body());
        }
        assertEquals(200, withCookie(cookie, "GET", "/admin/metrics").statusCode(), "the plain path still works");
    }

    @Test
    void aReaderKeyCannotLogInAndTheCookieOpensNothingOutsideAdmin() {
        String reader = RunningIdiom.json(idiom.post("/api/keys", "application/json", "{\"name\":\"console-reader\",\"role\":\"reader\"}")).get("key").asText();
        HttpResponse<String> refused = login(reader);
        assertEquals(403, refused.statusCode());
        assertTrue(refused.headers().firstValue("Set-Cookie").isEmpty(), "no session for a reader");
        assertTrue(refused.body().contains("admin key"), refused.body());

        String cookie = session(login(RunningIdiom.ADMIN_TOKEN));
        assertEquals(200, withCookie(cookie, "GET", "/admin/metrics").statusCode());
        assertEquals(401, withCookie(cookie, "GET", "/api/keys").statusCode(), "the API takes keys, never the console's cookie");
    }

    @Test
    void liveFiguresArriveAsServerSentEventsAndMoveAfterARestUpdate() throws Exception {
        String cookie = session(login(RunningIdiom.ADMIN_TOKEN));
        BlockingQueue<String> events = new LinkedBlockingQueue<>();
        CompletableFuture<HttpResponse<Stream<String>>> stream = idiom.http.sendAsync(HttpRequest.newBuilder(URI.create(idiom.url("/admin/live")))
                .header("Cookie", cookie).header("Accept", "text/event-stream").build(), HttpResponse.BodyHandlers.ofLines());
        HttpResponse<Stream<String>> live = stream.get(10, TimeUnit.SECONDS);
        assertEquals(200, live.statusCode());
        assertTrue(live.headers().firstValue("Content-Type").orElse("").startsWith("text/event-stream"));
        Thread reader = Thread.ofVirtual().start(() -> {
            try {
                live.body().filter(l -> l.startsWith("data: ")).forEach(l -> events.add(l.substring(6)));
            } catch (java.io.UncheckedIOException closedByTheTest) {
                // the stream is closed when the test ends
            }
        });
        try {
            String first = events.poll(5, TimeUnit.SECONDS);
            assertNotNull(first, "the first figures come at once");
            assertEquals(0, patches(RunningIdiom.JSON.readTree(first)));

            String id = RunningIdiom.json(idiom.post("/api/entities", "application/json", "{\"metadata\":{\"title\":\"Live\"}}")).get("id").asText();
            assertEquals(200, idiom.patch("/api/entities/" + id, "{\"metadata\":{\"title\":\"Live, changed\"}}", "If-Match", "\"1\"").statusCode());
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(3);
            long seen = 0;
            while (seen == 0 && System.nanoTime() < deadline) {
                String next = events.poll(500, TimeUnit.MILLISECONDS);
                if (next != null) {
                    seen = patches(RunningIdiom.JSON.readTree(next));
                }
            }
            assertEquals(1, seen, "the update shows in the live figures within a tick or two");
        } finally {
            live.body().close();
            reader.interrupt();
        }
    }

    private static long patches(JsonNode figures) {
        long n = 0;
        for (JsonNode op : figures.path("operations")) {
            if (op.path("operation").asText().equals("PATCH /api/entities/{id}") && op.path("outcome").asText().equals("success")) {
                n += op.path("count").asLong();
            }
        }
        return n;
    }

    @Test
    void actionsAndLogoutNeedTheCsrfTokenAndARevokedKeyEndsItsSessions() {
        idiom.server.idiom().application().tools().accounts().put("console-zot", "zotero", "http://127.0.0.1:9/", "users/1", "k");
        String key = RunningIdiom.json(idiom.post("/api/keys", "application/json", "{\"name\":\"console-admin\",\"role\":\"admin\"}")).get("key").asText();
        String cookie = session(login(key));
        String token = csrf(cookie);

        HttpResponse<String> noToken = withCookie(cookie, "POST", "/admin/actions/tools/console-zot/pause");
        assertEquals(403, noToken.statusCode(), "no token, no action: " + noToken.body());
        assertEquals(403, withCookie(cookie, "POST", "/admin/actions/tools/console-zot/pause", "X-CSRF-Token", "forged").statusCode());
        HttpResponse<String> paused = withCookie(cookie, "POST", "/admin/actions/tools/console-zot/pause", "X-CSRF-Token", token);
        assertEquals(200, paused.statusCode(), paused.body());
        assertEquals("{\"paused\":true}", paused.body());
        assertEquals("{\"paused\":false}", withCookie(cookie, "POST", "/admin/actions/tools/console-zot/resume", "X-CSRF-Token", token).body());
        assertEquals(404, withCookie(cookie, "POST", "/admin/actions/tools/nosuch/pause", "X-CSRF-Token", token).statusCode());

        assertEquals(403, withCookie(cookie, "POST", "/admin/logout").statusCode(), "a forged logout is refused too");
        assertEquals(204, idiom.send(HttpRequest.newBuilder(URI.create(idiom.url("/api/keys/console-admin"))).DELETE()).statusCode());
        assertEquals(401, withCookie(cookie, "GET", "/admin/metrics").statusCode(), "the key revoked, its session is over");
    }

    @Test
    void theConsoleServesItsOwnScriptsAndNothingElse() {
        HttpResponse<String> chart = idiom.anonymous(HttpRequest.newBuilder(URI.create(idiom.url("/admin/assets/chart.umd.js"))));
        assertEquals(200, chart.statusCode());
        assertTrue(chart.headers().firstValue("Content-Type").orElse("").startsWith("text/javascript"));
        assertTrue(chart.body().contains("Chart"), "Chart.js from its WebJar");
        assertEquals(200, idiom.anonymous(HttpRequest.newBuilder(URI.create(idiom.url("/admin/assets/console.js")))).statusCode());
        assertEquals(404, idiom.anonymous(HttpRequest.newBuilder(URI.create(idiom.url("/admin/assets/AdminConsole.class")))).statusCode());
    }
}
