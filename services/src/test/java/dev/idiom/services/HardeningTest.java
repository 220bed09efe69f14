package dev.idiom.services;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.idiom.db.TestDatabase;
import dev.idiom.wrappers.StubServer;
import dev.idiom.wrappers.zotero.ZoteroStub;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Hardening II over the real service: slow senders shed, outbound calls bounded, file accounts confined, the smaller guards. */
class HardeningTest {
    @TempDir
    Path dir;

    private static HttpResponse<String> as(RunningIdiom idiom, String key, HttpRequest.Builder b) {
        return idiom.send(b.header("Authorization", "Bearer " + key));
    }

    private static String key(RunningIdiom idiom, String name, String role) {
        HttpResponse<String> r = idiom.post("/api/keys", "application/json", "{\"name\":\"" + name + "\",\"role\":\"" + role + "\"}");
        assertEquals(201, r.statusCode(), r.body());
        return RunningIdiom.json(r).get("key").asText();
    }

    /** A connection that declares a large body and sends it a byte at a time, as a slow-loris does. */
    private static Socket trickle(RunningIdiom idiom, String path, String contentType, String key) throws Exception {
        URI u = URI.create(idiom.url(path));
        Socket s = new Socket(u.getHost(), u.getPort());
        OutputStream out = s.getOutputStream();
        out.write(("POST " + u.getRawPath() + " HTTP/1.1\r\nHost: " + u.getHost() + "\r\nContent-Type: " + contentType + "\r\n"
                + (key == null ? "" : "Authorization: Bearer " + key + "\r\nSOAPAction: \"\"\r\n") + "Content-Length: 4000\r\n\r\nk").getBytes(StandardCharsets.US_ASCII));
        out.flush();
        return s;
    }

    @Test
    void threeHundredSlowSendersDoNotStarveAnAuthenticatedMoreInfo() throws Exception {
        // a small admission limit, so that before the fix a tenth of these senders would have filled every place
        try (RunningIdiom idiom = new RunningIdiom(Map.of("max-in-flight", "16", "admission-wait-ms", "100"))) {
            String reader = key(idiom, "slow-reader", "reader");
            String id = RunningIdiom.json(idiom.post("/api/entities", "application/json", "{\"metadata\":{\"title\":\"Still served\"}}")).get("id").asText();
            List<Socket> slow = new ArrayList<>();
            try {
                for (int i = 0; i < 150; i++) {
                    slow.add(trickle(idiom, "/admin/login", "application/x-www-form-urlencoded", null));
                    slow.add(trickle(idiom, "/services/DigitalEntityService", "text/xml", reader));
                }
                Thread.sleep(500); // every one of them is now waiting for its body
                for (int i = 0; i < 20; i++) {
                    long start = System.nanoTime();
                    HttpResponse<String> r = as(idiom, reader, HttpRequest.newBuilder(URI.create(idiom.url("/api/entities/" + id))));
                    long millis = (System.nanoTime() - start) / 1_000_000;
                    assertEquals(200, r.statusCode(), r.body());
                    assertTrue(millis < 2_000, "MoreInfo answered in " + millis + " ms while 300 bodies trickled in");
                }
                assertEquals(0, idiom.server.admission().refused(), "no request was refused for want of a place");
            } finally {
                for (Socket s : slow) {
                    s.close();
                }
            }
        }
    }

    @Test
    void aBodyBelowTheMinimumRateIsCutOffWith408() throws Exception {
        try (RunningIdiom idiom = new RunningIdiom(Map.of("min-body-rate", "1000"))) {
            String reader = key(idiom, "rate-reader", "reader");
            try (Socket s = trickle(idiom, "/services/DigitalEntityService", "text/xml", reader)) {
                s.setSoTimeout(30_000);
                OutputStream out = s.getOutputStream();
                long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
                String answer = "";
                try {
                    while (System.nanoTime() < until) {
                        Thread.sleep(1_000);
                        out.write('x'); // a byte a second: far below 1,000
                        out.flush();
                        if (s.getInputStream().available() > 0) {
                            break;
                        }
                    }
                } catch (java.io.IOException closedByTheServer) {
                    // the server answered and closed: read what it sent
                }
                answer = new String(s.getInputStream().readNBytes(200), StandardCharsets.US_ASCII);
                assertTrue(answer.startsWith("HTTP/1.1 408"), answer);
                // and the connection is closed at once, not held while Tomcat swallows the rest of the body
                s.setSoTimeout(5_000);
                long closing = System.nanoTime();
                try {
                    for (int i = 0; i < 10 && s.getInputStream().read() >= 0; i++) {
                        out.write('x');
                        out.flush();
                        Thread.sleep(300);
                    }
                    while (s.getInputStream().read() >= 0) {
                        // what is left of the answer
                    }
                } catch (java.io.IOException reset) {
                    // closed: a reset is as good as an end
                }
                assertTrue(System.nanoTime() - closing < TimeUnit.SECONDS.toNanos(5), "the connection was held after its 408");
            }
        }
    }

    @Test
    void aClientTricklingHeaderLinesIsCutOffAtTheDeadline() throws Exception {
        try (RunningIdiom idiom = new RunningIdiom(Map.of())) {
            URI u = URI.create(idiom.url("/api/ping"));
            try (Socket s = new Socket(u.getHost(), u.getPort())) {
                s.setSoTimeout(500);
                OutputStream out = s.getOutputStream();
                out.write(("GET /api/ping HTTP/1.1\r\nHost: " + u.getHost() + "\r\n").getBytes(StandardCharsets.US_ASCII));
                long start = System.nanoTime();
                boolean closed = false;
                for (int line = 0; line < 40 && !closed; line++) { // a line a second: each read well inside connectionTimeout
                    try {
                        out.write(("X-Trickle-" + line + ": y\r\n").getBytes(StandardCharsets.US_ASCII));
                        out.flush();
                        closed = s.getInputStream().read() < 0;
                    } catch (java.net.SocketTimeoutException nothingYet) {
                        Thread.sleep(500);
                    } catch (java.io.IOException reset) {
                        closed = true;
                    }
                }
                long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start);
                assertTrue(closed, "still reading headers after 40 s");
                assertTrue(seconds <= 15, "closed after " + seconds + " s; the deadline is 10 s");
            }
            assertEquals(204, idiom.get("/api/ping").statusCode(), "others are served");
        }
    }

    @Test
    void toolAccountsAtLocalOrPrivateAddressesAreRefusedWithoutTheSetting() {
        try (RunningIdiom idiom = new RunningIdiom(Map.of("local-tool-hosts", "false"))) {
            for (String base : List.of("http://127.0.0.1:9", "http://169.254.169.254/latest", "http://10.0.0.7", "http://localhost:8080")) {
                HttpResponse<String> r = idiom.put("/api/tools/local", "{\"kind\":\"zotero\",\"baseUrl\":\"" + base + "\",\"account\":\"users/1\"}");
                assertEquals(400, r.statusCode(), base + " " + r.body());
                assertTrue(r.body().contains("local-tool-hosts"), r.body());
            }
            HttpResponse<String> peer = idiom.put("/api/tools/peer", "{\"kind\":\"idiom\",\"baseUrl\":\"" + idiom.server.url() + "\"}");
            assertEquals(400, peer.statusCode(), "a peer on this machine too: " + peer.body());
            // the library is part of every URL: nothing but users/<id> or groups/<id>
            try (RunningIdiom local = new RunningIdiom(Map.of())) {
                for (String account : List.of("users/1?x=1", "users/1/../../groups/2", "users/abc", "")) {
                    HttpResponse<String> r = local.put("/api/tools/z", "{\"kind\":\"zotero\",\"baseUrl\":\"http://127.0.0.1:9\",\"account\":\"" + account + "\"}");
                    assertEquals(400, r.statusCode(), account + " " + r.body());
                }
            }
        }
    }

    @Test
    void aToolsOwnErrorTextNeverReachesTheCaller() {
        try (ZoteroStub zotero = new ZoteroStub(); RunningIdiom idiom = new RunningIdiom(Map.of("sync-interval-ms", "0"))) {
            assertEquals(200, idiom.put("/api/tools/zot", "{\"kind\":\"zotero\",\"baseUrl\":\"" + zotero.uri() + "\",\"account\":\"" + ZoteroStub.LIBRARY
                    + "\",\"secret\":\"" + ZoteroStub.KEY + "\"}").statusCode());
            String id = RunningIdiom.json(idiom.post("/api/entities", "application/json", "{\"metadata\":{\"type\":\"article-journal\",\"title\":\"Refused\"}}"))
                    .get("id").asText();
            zotero.failNext(StubServer.Reply.of(400, "INTERNAL-DETAIL: db=10.0.0.3 user=zotero_rw"));
            HttpResponse<String> up = idiom.post("/api/entities/" + id + "/replicas", "application/json", "{\"tool\":\"zot\"}");
            assertTrue(up.statusCode() >= 400, up.body());
            assertFalse(up.body().contains("INTERNAL-DETAIL") || up.body().contains("10.0.0.3"), "the remote's words echoed: " + up.body());
            assertTrue(up.body().contains("400"), "a status and a reason of ours instead: " + up.body());
        }
    }

    @Test
    void fileAccountsStayInsideFilesDir() throws Exception {
        Path files = Files.createDirectories(dir.resolve("files"));
        Path outside = Files.createDirectories(dir.resolve("outside"));
        Files.createSymbolicLink(files.resolve("escape"), outside);
        Files.writeString(files.resolve("refs.bib"), "");
        try (RunningIdiom idiom = new RunningIdiom(Map.of("files-dir", files.toString()))) {
            for (String path : List.of(outside.resolve("refs.bib").toString(), "/etc/passwd", "../outside/refs.bib", "a/../../outside/x.bib",
                    "escape/refs.bib")) {
                HttpResponse<String> r = idiom.put("/api/tools/f", "{\"kind\":\"bibtex\",\"baseUrl\":\"" + path + "\"}");
                assertEquals(400, r.statusCode(), path + " " + r.body());
                assertTrue(r.body().contains("files-dir"), r.body());
            }
            assertEquals(200, idiom.put("/api/tools/f", "{\"kind\":\"bibtex\",\"baseUrl\":\"refs.bib\"}").statusCode(), "relative: inside files-dir");
            HttpResponse<String> written = idiom.post("/api/entities", "application/json", "{\"metadata\":{\"type\":\"article-journal\",\"title\":\"Filed\","
                    + "\"year\":2020,\"authors\":[{\"family\":\"Doe\"}]}}");
            String id = RunningIdiom.json(written).get("id").asText();
            assertEquals(201, idiom.post("/api/entities/" + id + "/replicas", "application/json", "{\"tool\":\"f\"}").statusCode());
            assertTrue(Files.readString(files.resolve("refs.bib")).contains("Filed"), "written where files-dir says");
            try (Stream<Path> left = Files.list(outside)) {
                assertEquals(0, left.count());
            }
        }
    }

    @Test
    void aLiveStreamEndsWhenItsKeyIsRevoked() throws Exception {
        try (RunningIdiom idiom = new RunningIdiom(Map.of())) {
            String admin = key(idiom, "watcher", "admin");
            CompletableFuture<HttpResponse<Stream<String>>> stream = idiom.http.sendAsync(HttpRequest.newBuilder(URI.create(idiom.url("/admin/live")))
                    .header("Authorization", "Bearer " + admin).header("Accept", "text/event-stream").build(), HttpResponse.BodyHandlers.ofLines());
            HttpResponse<Stream<String>> live = stream.get(10, TimeUnit.SECONDS);
            assertEquals(200, live.statusCode());
            CompletableFuture<Long> ended = CompletableFuture.supplyAsync(() -> live.body().filter(l -> l.startsWith("data: ")).count());
            Thread.sleep(1_200);
            assertFalse(ended.isDone(), "streaming while the key is valid");
            assertEquals(204, idiom.send(HttpRequest.newBuilder(URI.create(idiom.url("/api/keys/watcher"))).DELETE()).statusCode());
            long figures = ended.get(5, TimeUnit.SECONDS); // within a tick or two of the revocation
            assertTrue(figures >= 1, "it had streamed figures");
        }
    }

    @Test
    void theSmallerGuards() throws Exception {
        // an admin token anyone could guess is refused at start
        IllegalArgumentException weak = assertThrows(IllegalArgumentException.class, () -> IdiomConfig.from(Map.of(), Map.of("IDIOM_ADMIN_TOKEN", "letmein"), k -> null));
        assertTrue(weak.getMessage().contains("at least 32"), weak.getMessage());
        // a database password as a flag shows in ps: refused, with the ways that do not
        IllegalArgumentException flag = assertThrows(IllegalArgumentException.class, () -> IdiomConfig.from(Map.of("db-password", "s3cret"), Map.of(), k -> null));
        assertTrue(flag.getMessage().contains("IDIOM_DB_PASSWORD") && flag.getMessage().contains("db-password-file"), flag.getMessage());
        Path pw = Files.writeString(dir.resolve("db.pw"), "from-a-file\n");
        assertEquals("from-a-file", IdiomConfig.from(Map.of("db-password-file", pw.toString()), Map.of(), k -> null).dbPassword());

        try (RunningIdiom idiom = new RunningIdiom(Map.of("auth-failures-per-minute", "5"))) {
            // the login key from the form's body only: never from the address
            HttpResponse<String> inQuery = idiom.anonymous(HttpRequest.newBuilder(URI.create(idiom.url("/admin/login?key=" + RunningIdiom.ADMIN_TOKEN)))
                    .header("Content-Type", "application/x-www-form-urlencoded").POST(HttpRequest.BodyPublishers.noBody()));
            assertEquals(400, inQuery.statusCode(), inQuery.body());
            assertTrue(inQuery.headers().firstValue("Set-Cookie").isEmpty());
            for (String encoded : List.of("%6bey", "%4B%45%59", "KEY")) { // the servlet decodes parameter names: so does the check
                HttpResponse<String> hidden = idiom.anonymous(HttpRequest.newBuilder(URI.create(idiom.url("/admin/login?" + encoded + "="
                        + RunningIdiom.ADMIN_TOKEN))).header("Content-Type", "application/x-www-form-urlencoded").POST(HttpRequest.BodyPublishers.noBody()));
                assertEquals(400, hidden.statusCode(), encoded + ": " + hidden.body());
                assertTrue(hidden.headers().firstValue("Set-Cookie").isEmpty(), encoded);
            }

            // security headers on pages and answers
            for (String path : List.of("/", "/admin/reports", "/api/ping")) {
                HttpResponse<String> r = idiom.get(path);
                assertEquals("nosniff", r.headers().firstValue("X-Content-Type-Options").orElse(""), path);
                assertTrue(r.headers().firstValue("Content-Security-Policy").orElse("").contains("frame-ancestors"), path);
                assertTrue(r.headers().firstValue("X-Frame-Options").isPresent(), path);
            }

            // a list is held to its cap as sent: 201 copies of one tag are over 200
            StringBuilder tags = new StringBuilder();
            for (int i = 0; i < 201; i++) {
                tags.append(i == 0 ? "" : ",").append("\"same\"");
            }
            HttpResponse<String> many = idiom.post("/api/entities", "application/json", "{\"metadata\":{\"title\":\"Dup tags\",\"tags\":[" + tags + "]}}");
            assertEquals(400, many.statusCode(), many.body());
            assertTrue(many.body().contains("max-tags"), many.body());

            // wrong keys from one address: past the limit, 429 with Retry-After before any lookup
            int throttled = 0;
            String retryAfter = null;
            for (int i = 0; i < 8; i++) {
                HttpResponse<String> r = as(idiom, "idiom_wrong_" + i, HttpRequest.newBuilder(URI.create(idiom.url("/api/entities?limit=1"))));
                if (r.statusCode() == 429) {
                    throttled++;
                    retryAfter = r.headers().firstValue("Retry-After").orElse(null);
                } else {
                    assertEquals(401, r.statusCode());
                }
            }
            assertTrue(throttled >= 2, "the 6th wrong key on is throttled: " + throttled);
            assertTrue(retryAfter != null && Long.parseLong(retryAfter) >= 1, "Retry-After: " + retryAfter);
            JsonNode problem = RunningIdiom.json(as(idiom, "idiom_wrong_9", HttpRequest.newBuilder(URI.create(idiom.url("/api/entities?limit=1")))));
            assertEquals("Throttled", problem.get("code").asText());
            // the valid key from the same address is not refused for the guesser's failures
            assertEquals(200, as(idiom, RunningIdiom.ADMIN_TOKEN, HttpRequest.newBuilder(URI.create(idiom.url("/api/entities?limit=1")))).statusCode());
            // the console's login counts in the same budget: a guesser gets no more tries there
            HttpResponse<String> loginGuess = idiom.anonymous(HttpRequest.newBuilder(URI.create(idiom.url("/admin/login")))
                    .header("Content-Type", "application/x-www-form-urlencoded").POST(HttpRequest.BodyPublishers.ofString("key=idiom_wrong_login")));
            assertEquals(429, loginGuess.statusCode(), loginGuess.body());
            assertTrue(loginGuess.headers().firstValue("Retry-After").isPresent());
        }
        try (RunningIdiom idiom = new RunningIdiom(Map.of("auth-failures-per-minute", "3"))) {
            int refused = 0;
            for (int i = 0; i < 6; i++) { // wrong keys at the console's login alone
                HttpResponse<String> r = idiom.anonymous(HttpRequest.newBuilder(URI.create(idiom.url("/admin/login")))
                        .header("Content-Type", "application/x-www-form-urlencoded").POST(HttpRequest.BodyPublishers.ofString("key=idiom_wrong_" + i)));
                refused += r.statusCode() == 429 ? 1 : 0;
                assertTrue(r.statusCode() == 401 || r.statusCode() == 429, r.statusCode() + " " + r.body());
            }
            assertEquals(3, refused, "past 3 wrong logins a minute, the login form answers 429");
        }
        assertTrue(TestDatabase.freshUrl().contains("password="), "the tests' database is a locked one too");
    }

    @Test
    void wrongKeysThrottleOnlyTheirClientAndPrefixAndAKeyInTheAddressIsRefusedEverywhere() {
        try (RunningIdiom idiom = new RunningIdiom(Map.of("auth-failures-per-minute", "5", "trusted-proxies", "127.0.0.1"))) {
            String fresh = key(idiom, "fresh-reader", "reader"); // made, never presented: not remembered by the key check
            java.util.function.BiFunction<String, String, HttpResponse<String>> from = (client, key) -> idiom.send(HttpRequest.newBuilder(
                    URI.create(idiom.url("/api/entities?limit=1"))).header("X-Forwarded-For", client).header("Authorization", "Bearer " + key));
            int throttled = 0;
            for (int i = 0; i < 8; i++) { // one client retrying a stale key
                throttled += from.apply("203.0.113.5", "idiom_stale0" + i).statusCode() == 429 ? 1 : 0;
            }
            assertTrue(throttled >= 2, "the client's stale key is throttled: " + throttled);
            assertEquals(401, from.apply("203.0.113.9", "idiom_stale0x").statusCode(), "another client behind the same proxy has its own budget");
            assertEquals(200, from.apply("203.0.113.5", fresh).statusCode(), "a valid key never presented before is not refused for another's failures");
            // a client that is not a trusted proxy cannot name another address for itself
            try (RunningIdiom direct = new RunningIdiom(Map.of("auth-failures-per-minute", "5"))) {
                int refused = 0;
                for (int i = 0; i < 8; i++) {
                    refused += direct.send(HttpRequest.newBuilder(URI.create(direct.url("/api/entities?limit=1")))
                            .header("X-Forwarded-For", "198.51.100." + i).header("Authorization", "Bearer idiom_stale0" + i)).statusCode() == 429 ? 1 : 0;
                }
                assertTrue(refused >= 2, "X-Forwarded-For from an untrusted peer is ignored: " + refused);
            }
            // a key in a query string is refused on every path, good key or not, encoded or not
            for (String q : List.of("key=" + RunningIdiom.ADMIN_TOKEN, "%6bey=x", "KEY=idiom_x")) {
                HttpResponse<String> r = idiom.get("/api/entities?" + q);
                assertEquals(400, r.statusCode(), q + ": " + r.body());
                assertTrue(r.body().contains("Authorization"), r.body());
            }
        }
    }
}
