package dev.idiom.services;

import static org.junit.jupiter.api.Assertions.assertEquals;
import org.junit.jupiter.api.io.TempDir;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * What a saturation run needs from the server: the bare baselines beside Idiom (and Idiom's own
 * SOAP endpoint unharmed by a second Axis2 in the same context), Idiom's own account of request
 * and database time, and the reports served to admins only, never a file outside their folder.
 */
class SaturationSupportTest {
    private static RunningIdiom idiom;
    @TempDir
    static Path scratch;
    private static Path reports;
    private static String readerKey;

    @BeforeAll
    static void start() throws Exception {
        reports = Files.createDirectory(scratch.resolve("reports"));
        Path report = Files.createDirectories(reports.resolve("2026-11-22T10-00-00"));
        Files.writeString(report.resolve("summary.json"), "{\"complete\":false,\"incompleteReason\":\"interrupted during soap-empty closed N=4\","
                + "\"startedAt\":\"2026-11-22T10:00:00Z\",\"target\":\"embedded\",\"baseline\":\"soap-empty\",\"operations\":[]}");
        Files.writeString(report.resolve("report.html"), "<!doctype html><title>Idiom saturation report</title>");
        Files.writeString(reports.resolveSibling(reports.getFileName() + "-secret.txt"), "outside the folder");
        idiom = new RunningIdiom(Map.of("baseline", "true", "reports", reports.toString(), "sync-interval-ms", "0"));
        readerKey = RunningIdiom.json(idiom.post("/api/keys", "application/json", "{\"name\":\"a-portal\",\"role\":\"reader\"}")).get("key").asText();
    }

    @AfterAll
    static void stop() {
        idiom.close();
    }

    @Test
    void theBaselinesAnswerWithoutAKeyAndIdiomsOwnSoapStillWorksBesideThem() {
        HttpRequest.Builder bare = HttpRequest.newBuilder(URI.create(idiom.url("/baseline/servlet"))).GET();
        assertEquals(204, idiom.anonymous(bare).statusCode());
        HttpResponse<String> echo = idiom.anonymous(HttpRequest.newBuilder(URI.create(idiom.url("/baseline/services/EchoService")))
                .header("Content-Type", "text/xml; charset=UTF-8").header("SOAPAction", "\"urn:echo\"")
                .POST(HttpRequest.BodyPublishers.ofString(RunningIdiom.envelope("<de:echo>hello</de:echo>"))));
        assertEquals(200, echo.statusCode(), echo.body());
        assertTrue(echo.body().contains(">hello</"), echo.body());
        // Axis2 keeps "the" configuration in a context attribute: the second one must not have taken Idiom's place
        HttpResponse<String> empty = idiom.soap("<de:empty/>");
        assertEquals(200, empty.statusCode(), empty.body());
        assertTrue(empty.body().contains("emptyResponse"), empty.body());
        assertEquals(401, idiom.anonymous(HttpRequest.newBuilder(URI.create(idiom.url("/api/entities"))).GET()).statusCode(),
                "Idiom's own paths still need a key");
    }

    @Test
    void idiomCountsTheTimeItsRequestsSpendInsideIdiomAndOnTheDatabase() {
        JsonNode before = RunningIdiom.json(idiom.get("/admin/metrics")).get("requests");
        HttpResponse<String> created = idiom.post("/api/entities", "application/json", "{\"metadata\":{\"title\":\"Timed\"}}");
        assertEquals(201, created.statusCode());
        idiom.get("/baseline/servlet"); // not Idiom's: not counted
        JsonNode after = RunningIdiom.json(idiom.get("/admin/metrics")).get("requests");
        assertEquals(2, after.get("served").asLong() - before.get("served").asLong(), "the create and the first metrics read");
        long served = after.get("servedMicros").asLong() - before.get("servedMicros").asLong();
        long db = after.get("databaseMicros").asLong() - before.get("databaseMicros").asLong();
        assertTrue(db > 0, "a create commits: some database time");
        assertTrue(served > db, "time inside Idiom " + served + " µs includes its database time " + db + " µs");
    }

    @Test
    void adminsListAndOpenReportsAndNothingOutsideTheirFolderIsServed() {
        JsonNode listed = RunningIdiom.json(idiom.get("/admin/reports", "Accept", "application/json"));
        assertEquals(1, listed.get("reports").size());
        JsonNode r = listed.get("reports").get(0);
        assertEquals("2026-11-22T10-00-00", r.get("name").asText());
        assertFalse(r.get("complete").asBoolean());
        assertTrue(r.get("incompleteReason").asText().startsWith("interrupted"));
        assertTrue(idiom.get("/admin/reports").body().contains("incomplete"), "the page says so too");

        HttpResponse<String> page = idiom.get("/admin/reports/2026-11-22T10-00-00/");
        assertEquals(200, page.statusCode());
        assertTrue(page.body().contains("Idiom saturation report"));
        assertEquals("text/html;charset=UTF-8", page.headers().firstValue("Content-Type").orElse(""));
        assertEquals(200, idiom.get("/admin/reports/2026-11-22T10-00-00/summary.json").statusCode());

        String escape = "/admin/reports/..%2f" + reports.getFileName() + "-secret.txt";
        for (String path : new String[] {escape, "/admin/reports/%2e%2e/" + reports.getFileName() + "-secret.txt", "/admin/reports/nothing/here.html"}) {
            HttpResponse<String> refused = idiom.get(path);
            assertTrue(refused.statusCode() == 404 || refused.statusCode() == 400, path + " answered " + refused.statusCode());
            assertFalse(refused.body().contains("outside the folder"), path);
        }
        HttpRequest.Builder asReader = HttpRequest.newBuilder(URI.create(idiom.url("/admin/reports"))).header("Authorization", "Bearer " + readerKey);
        assertEquals(403, idiom.send(asReader).statusCode(), "reports are for admins");
    }
}
