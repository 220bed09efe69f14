package dev.idiom.services;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.idiom.events.Author;
import dev.idiom.events.Field;
import dev.idiom.events.Metadata;
import dev.idiom.services.app.Application;
import dev.idiom.services.app.ReadPath;
import dev.idiom.wrappers.bibsonomy.BibSonomyStub;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code /admin/metrics} counts each request under its protocol, operation and outcome, in the
 * Prometheus text format for scrapers and as JSON for the pages; {@code /admin/health} says which
 * part is unwell with a 503. Against a real server: Tomcat, Axis2, Jersey, MariaDB.
 */
class MetricsAndHealthTest {
    private static RunningIdiom idiom;

    @BeforeAll
    static void start() {
        idiom = new RunningIdiom(Map.of("sync-interval-ms", "0"));
    }

    @AfterAll
    static void stop() {
        idiom.close();
    }

    private static HttpResponse<String> scrape(String accept) {
        return idiom.get("/admin/metrics", "Accept", accept);
    }

    /** The value of the first sample of {@code metric} whose labels include each of {@code labels}, or -1 (a label value may hold braces: {@code {id}}). */
    private static double sample(String exposition, String metric, String... labels) {
        Matcher m = Pattern.compile("(?m)^" + Pattern.quote(metric) + "(?:\\{(.*)})? (\\S+)$").matcher(exposition);
        while (m.find()) {
            String found = m.group(1) == null ? "" : m.group(1);
            boolean all = true;
            for (String l : labels) {
                all &= found.contains(l);
            }
            if (all) {
                return Double.parseDouble(m.group(2));
            }
        }
        return -1;
    }

    /** The container may hand the client its response a moment before the timing filter counts it: read until the count arrives. */
    private static String scrapeUntil(String metric, double atLeast, String... labels) throws InterruptedException {
        long deadline = System.nanoTime() + 5_000_000_000L;
        String text;
        do {
            text = scrape("text/plain").body();
            if (sample(text, metric, labels) >= atLeast) {
                return text;
            }
            Thread.sleep(20);
        } while (System.nanoTime() < deadline);
        return text;
    }

    @Test
    void prometheusTextCountsEachOperationUnderItsProtocolAndOutcome() throws InterruptedException {
        for (int i = 0; i < 3; i++) {
            assertEquals(200, idiom.soap("<de:empty/>").statusCode());
        }
        String id = RunningIdiom.json(idiom.post("/api/entities", "application/json", "{\"metadata\":{\"title\":\"Counted\"}}")).get("id").asText();
        assertEquals(200, idiom.get("/api/entities/" + id).statusCode());
        assertEquals(200, idiom.get("/api/entities/" + id).statusCode());
        assertEquals(404, idiom.get("/api/entities/" + UUID.randomUUID()).statusCode());
        // a SOAP fault is HTTP 500 by SOAP 1.1; an unknown id is still the client's mistake
        assertEquals(500, idiom.soap("<de:moreInfo><de:id>" + UUID.randomUUID() + "</de:id></de:moreInfo>").statusCode());

        String text = scrapeUntil("idiom_requests_seconds_count", 1, "operation=\"moreInfo\"", "outcome=\"client_error\"");
        assertEquals(3, sample(text, "idiom_requests_seconds_count", "operation=\"empty\"", "protocol=\"soap\"", "outcome=\"success\""), text);
        assertEquals(2, sample(text, "idiom_requests_seconds_count", "operation=\"GET /api/entities/{id}\"", "protocol=\"rest\"", "outcome=\"success\""), text);
        assertEquals(1, sample(text, "idiom_requests_seconds_count", "operation=\"GET /api/entities/{id}\"", "outcome=\"client_error\""), text);
        assertEquals(1, sample(text, "idiom_requests_seconds_count", "operation=\"moreInfo\"", "protocol=\"soap\"", "outcome=\"client_error\""), text);
        assertEquals(1, sample(text, "idiom_requests_seconds_count", "operation=\"POST /api/entities\"", "outcome=\"success\""), text);
        assertTrue(sample(text, "idiom_requests_seconds_bucket", "operation=\"empty\"", "le=\"+Inf\"") >= 3, "a latency histogram:\n" + text);
        assertTrue(text.contains("# TYPE idiom_db_pool_max gauge"), text);
        assertTrue(text.contains("# TYPE idiom_cache_hits_total counter"), text);
        assertTrue(text.contains("jvm_memory_used_bytes{"), "the JVM's own meters");
        assertTrue(sample(text, "idiom_events_appended_total") >= 1, "the entity created above was appended:\n" + text);
    }

    @Test
    void aScraperAskingForOpenMetricsGetsIt() {
        HttpResponse<String> r = scrape("application/openmetrics-text;version=1.0.0,text/plain;version=0.0.4;q=0.5,*/*;q=0.1");
        assertEquals(200, r.statusCode());
        assertTrue(r.headers().firstValue("Content-Type").orElse("").startsWith("application/openmetrics-text"), r.headers().toString());
        assertTrue(r.body().strip().endsWith("# EOF"), "OpenMetrics ends with # EOF");
        HttpResponse<String> asked = idiom.get("/admin/metrics?format=prometheus");
        assertTrue(asked.headers().firstValue("Content-Type").orElse("").startsWith("text/plain"), asked.headers().toString());
    }

    @Test
    void jsonForThePagesHasEachOperationsPercentilesAndThePool() throws InterruptedException {
        assertEquals(200, idiom.soap("<de:empty/>").statusCode());
        scrapeUntil("idiom_requests_seconds_count", 1, "operation=\"empty\"");
        JsonNode metrics = RunningIdiom.json(idiom.get("/admin/metrics"));
        JsonNode empty = null;
        for (JsonNode op : metrics.get("operations")) {
            if (op.get("protocol").asText().equals("soap") && op.get("operation").asText().equals("empty") && op.get("outcome").asText().equals("success")) {
                empty = op;
            }
        }
        assertTrue(empty != null && empty.get("count").asLong() >= 1, metrics.toPrettyString());
        assertTrue(empty.has("p50Millis") && empty.has("p99Millis"), empty.toString());
        assertTrue(metrics.at("/databasePool/max").asInt() > 0, metrics.toPrettyString());
        assertTrue(metrics.has("replicaPushes"), metrics.toPrettyString());
    }

    @Test
    void readersGetNoMetricsAndNoHealth() {
        String reader = RunningIdiom.json(idiom.post("/api/keys", "application/json", "{\"name\":\"metrics-reader\",\"role\":\"reader\"}")).get("key").asText();
        for (String path : new String[] {"/admin/metrics", "/admin/metrics?format=prometheus", "/admin/health"}) {
            assertEquals(403, idiom.anonymous(HttpRequest.newBuilder(URI.create(idiom.url(path))).header("Authorization", "Bearer " + reader)).statusCode(), path);
            assertEquals(401, idiom.anonymous(HttpRequest.newBuilder(URI.create(idiom.url(path)))).statusCode(), path);
        }
    }

    @Test
    void healthIs503AndNamesTheAccountWhenAToolRefusedAPushForGood() {
        HttpResponse<String> well = idiom.get("/admin/health");
        assertEquals(200, well.statusCode(), well.body());
        JsonNode checks = RunningIdiom.json(well).get("checks");
        assertTrue(checks.at("/database/healthy").asBoolean(), well.body());
        assertTrue(checks.has("changeFeed") && checks.has("searchFeed"), well.body());
        assertEquals("no-store", well.headers().firstValue("Cache-Control").orElse(""));

        try (BibSonomyStub bibsonomy = new BibSonomyStub()) {
            Application app = idiom.server.idiom().application();
            app.tools().accounts().put("bib-health", "bibsonomy", bibsonomy.uri().toString(), BibSonomyStub.USER, BibSonomyStub.KEY);
            UUID id = app.writes().create(Metadata.EMPTY.with(Field.TYPE, "article-journal").with(Field.TITLE, "Health")
                    .with(Field.AUTHORS, List.of(new Author("Lamport", "Leslie"))).with(Field.YEAR, 2001).with(Field.VENUE, "PODC"), "test").entity().id();
            app.replicas().upload(id, "bib-health");
            assertEquals(200, idiom.get("/admin/health").statusCode(), "in sync");

            Map<Field, Object> noYear = new HashMap<>();
            noYear.put(Field.YEAR, null); // BibSonomy refuses an entry without a year, for good
            app.writes().patch(id, noYear, version(app, id), "test");
            app.sync().pushOwed();

            HttpResponse<String> unwell = idiom.get("/admin/health");
            assertEquals(503, unwell.statusCode(), unwell.body());
            JsonNode account = RunningIdiom.json(unwell).at("/checks/tool:bib-health");
            assertFalse(account.get("healthy").asBoolean(), unwell.body());
            assertTrue(account.get("message").asText().contains("1 pushes parked"), unwell.body());
            assertTrue(RunningIdiom.json(unwell).at("/checks/database/healthy").asBoolean(), "the rest stays well");

            app.writes().patch(id, Map.of(Field.YEAR, 2002), version(app, id), "test"); // the record fixed: a new change un-parks it
            app.sync().pushOwed();
            HttpResponse<String> again = idiom.get("/admin/health");
            assertEquals(200, again.statusCode(), again.body());
        }
    }

    private static int version(Application app, UUID id) {
        return app.reads().describe(id, ReadPath.DB).entity().version();
    }
}
