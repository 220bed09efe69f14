package dev.idiom.services;

import static org.junit.jupiter.api.Assertions.assertEquals;
import org.junit.jupiter.api.io.TempDir;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
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
import org.w3c.dom.Document;

/** The whole service on a free port: REST and SOAP over real HTTP, Axis2, Jersey, MariaDB. */
class EndToEndTest {
    private static RunningIdiom idiom;

    @BeforeAll
    static void start() {
        idiom = new RunningIdiom(Map.of());
    }

    @AfterAll
    static void stop() {
        idiom.close();
    }

    private static String createOverRest(String title) {
        HttpResponse<String> r = idiom.post("/api/entities", "application/json",
                "{\"metadata\":{\"type\":\"article-journal\",\"title\":\"" + title + "\",\"year\":2005,"
                        + "\"authors\":[{\"family\":\"Saito\",\"given\":\"Yasushi\"}],\"tags\":[\"replication\"]}}");
        assertEquals(201, r.statusCode(), r.body());
        return RunningIdiom.json(r).get("id").asText();
    }

    private static String soapUpdate(String id, String field, String value, int expected) {
        return "<de:updateDE><de:id>" + id + "</de:id><de:field>" + field + "</de:field><de:value>" + value
                + "</de:value><de:expectedVersion>" + expected + "</de:expectedVersion></de:updateDE>";
    }

    private static int eventCount(String id) {
        return RunningIdiom.json(idiom.get("/api/entities/" + id + "/events")).get("events").size();
    }

    @Test
    void anEntityCreatedOverRestAndUpdatedOverSoapReadsTheSameOverBoth() {
        HttpResponse<String> created = idiom.post("/api/entities", "application/json",
                "{\"metadata\":{\"title\":\"Optimistic replication\",\"year\":2005,\"tags\":[\"replication\",\"survey\"]}}");
        assertEquals(201, created.statusCode(), created.body());
        String id = RunningIdiom.json(created).get("id").asText();
        assertEquals("\"1\"", created.headers().firstValue("ETag").orElseThrow());
        assertTrue(created.headers().firstValue("Location").orElseThrow().endsWith("/api/entities/" + id));

        HttpResponse<String> updated = idiom.soap(soapUpdate(id, "venue", "ACM Computing Surveys", 1));
        assertEquals(200, updated.statusCode(), updated.body());
        assertEquals("2", Xml.text(Xml.parse(updated.body()), "updateDEResponse/entity/version"));

        HttpResponse<String> rest = idiom.get("/api/entities/" + id);
        assertEquals(200, rest.statusCode());
        assertEquals("\"2\"", rest.headers().firstValue("ETag").orElseThrow());
        JsonNode de = RunningIdiom.json(rest);

        Document soap = Xml.parse(idiom.soap("<de:moreInfo><de:id>" + id + "</de:id></de:moreInfo>").body());
        assertEquals(de.get("version").asText(), Xml.text(soap, "entity/version"));
        assertEquals(de.get("metadata").get("title").asText(), Xml.text(soap, "entity/title"));
        assertEquals("ACM Computing Surveys", de.get("metadata").get("venue").asText());
        assertEquals(de.get("metadata").get("venue").asText(), Xml.text(soap, "entity/venue"));
        assertEquals(de.get("metadata").get("year").asText(), Xml.text(soap, "entity/year"));
        assertEquals(2, Xml.count(soap, "tag"));
        assertEquals(de.get("updatedAt").asText(), Xml.text(soap, "entity/updatedAt"));

        // both read paths give the same answer
        assertEquals(rest.body(), idiom.get("/api/entities/" + id + "?source=db").body());
        assertEquals("2", Xml.text(Xml.parse(idiom.soap("<de:moreInfo><de:id>" + id + "</de:id><de:source>db</de:source></de:moreInfo>").body()),
                "entity/version"));
    }

    @Test
    void staleUpdatesAreRejectedOverBothProtocolsAndChangeNothing() {
        String id = createOverRest("Stale");
        assertEquals(200, idiom.patch("/api/entities/" + id, "{\"metadata\":{\"venue\":\"First\"}}", "If-Match", "\"1\"").statusCode());
        String before = idiom.get("/api/entities/" + id).body();

        HttpResponse<String> rest = idiom.patch("/api/entities/" + id, "{\"metadata\":{\"venue\":\"Late\"}}", "If-Match", "\"1\"");
        assertEquals(412, rest.statusCode());
        assertEquals("application/problem+json", rest.headers().firstValue("Content-Type").orElseThrow());
        assertEquals("StaleVersion", RunningIdiom.json(rest).get("code").asText());

        HttpResponse<String> soap = idiom.soap(soapUpdate(id, "venue", "Late", 1));
        assertEquals(500, soap.statusCode());
        Document fault = Xml.parse(soap.body());
        assertTrue(Xml.text(fault, "faultcode").endsWith(":StaleVersion"), soap.body());
        assertEquals("StaleVersion", Xml.text(fault, "detail/fault/code"));
        assertTrue(Xml.text(fault, "faultstring").contains("version 2"));

        assertEquals(before, idiom.get("/api/entities/" + id).body());
        assertEquals(2, eventCount(id));
    }

    @Test
    void aMergePatchAppendsOneEventPerChangedFieldAtomically() {
        String id = createOverRest("Patch me");
        HttpResponse<String> r = idiom.patch("/api/entities/" + id,
                "{\"metadata\":{\"title\":\"Patched\",\"year\":null,\"tags\":[\"replication\",\"cfdar\"],\"notes\":\"n\"}}", "If-Match", "\"1\"");
        assertEquals(200, r.statusCode(), r.body());
        JsonNode de = RunningIdiom.json(r);
        assertEquals(5, de.get("version").asInt()); // title, year cleared, notes, tag cfdar added
        assertFalse(de.get("metadata").has("year"));
        JsonNode events = RunningIdiom.json(idiom.get("/api/entities/" + id + "/events")).get("events");
        assertEquals("RecordImported", events.get(0).get("type").asText());
        assertTrue(events.get(0).get("major").asBoolean());
        assertEquals("TagAdded", events.get(3).get("type").asText()); // fields in canonical order: title, year, tags, notes
        assertEquals("FieldChanged", events.get(4).get("type").asText());

        // a patch with one invalid field writes none of them
        HttpResponse<String> bad = idiom.patch("/api/entities/" + id, "{\"metadata\":{\"title\":\"x\",\"year\":\"soon\"}}", "If-Match", "\"5\"");
        assertEquals(400, bad.statusCode());
        assertEquals(5, eventCount(id));
    }

    @Test
    void writesNeedIfMatchAndReadsHonourIfNoneMatch() {
        String id = createOverRest("Preconditions");
        HttpResponse<String> noIfMatch = idiom.patch("/api/entities/" + id, "{\"metadata\":{\"title\":\"x\"}}");
        assertEquals(428, noIfMatch.statusCode());
        assertEquals("PreconditionRequired", RunningIdiom.json(noIfMatch).get("code").asText());
        assertEquals(304, idiom.get("/api/entities/" + id, "If-None-Match", "\"1\"").statusCode());
        assertEquals(200, idiom.get("/api/entities/" + id, "If-None-Match", "\"0\"").statusCode());
    }

    @Test
    void theWsdlIsServedAndDescribesEveryOperationAtTheRealAddress() {
        HttpResponse<String> r = idiom.get("/services/DigitalEntityService?wsdl");
        assertEquals(200, r.statusCode());
        Document wsdl = Xml.parse(r.body());
        for (String op : new String[] {"empty", "createDE", "moreInfo", "updateDE", "history", "search"}) {
            assertTrue(r.body().contains("name=\"" + op + "\""), op);
        }
        assertTrue(Xml.count(wsdl, "binding") >= 1);
        assertTrue(r.body().contains(":" + idiom.server.port() + "/services/DigitalEntityService"), "address names the real port");
    }

    @Test
    void theOpenApiDocumentParsesAndListsThePaths() {
        HttpResponse<String> r = idiom.get("/api/openapi.json");
        assertEquals(200, r.statusCode());
        JsonNode doc = RunningIdiom.json(r);
        assertTrue(doc.get("openapi").asText().startsWith("3."));
        for (String p : new String[] {"/ping", "/entities", "/entities/{id}", "/entities/{id}/events", "/changes"}) {
            assertNotNull(doc.get("paths").get(p), p);
        }
    }

    @Test
    void theEmptyOperationAnswersOverBoth() {
        assertEquals(204, idiom.get("/api/ping").statusCode());
        HttpResponse<String> soap = idiom.soap("<de:empty/>");
        assertEquals(200, soap.statusCode());
        assertEquals(1, Xml.count(Xml.parse(soap.body()), "emptyResponse"));
    }

    @Test
    void malformedJsonAndBadValuesGetAClearProblemAndWriteNothing() {
        long head = RunningIdiom.json(idiom.get("/api/changes?after=0&limit=1000")).get("next").asLong();
        HttpResponse<String> r = idiom.post("/api/entities", "application/json", "{\"metadata\": {\"title\": \"x\",");
        assertEquals(400, r.statusCode());
        JsonNode problem = RunningIdiom.json(r);
        assertEquals("Invalid", problem.get("code").asText());
        assertTrue(problem.get("detail").asText().startsWith("malformed JSON"), problem.toString());
        assertFalse(r.body().contains("at com.") || r.body().contains("at org."), "no stack trace");

        assertEquals(400, idiom.post("/api/entities", "application/json", "[1,2]").statusCode());
        assertEquals(400, idiom.post("/api/entities", "application/json", "{\"metadata\":{\"title\":\"x\",\"colour\":\"red\"}}").statusCode());
        assertEquals(400, idiom.post("/api/entities", "application/json", "{\"metadata\":{\"year\":2000}}").statusCode());
        assertEquals(400, idiom.post("/api/entities", "application/json", "{\"title\":\"a\",\"title\":\"b\"}").statusCode());
        assertEquals(415, idiom.post("/api/entities", "text/plain", "hello").statusCode());
        assertEquals(head, RunningIdiom.json(idiom.get("/api/changes?after=0&limit=1000")).get("next").asLong(), "nothing was appended");
    }

    @Test
    void unknownAndMalformedIdsGetNotFoundAndInvalid() {
        HttpResponse<String> r = idiom.get("/api/entities/0195f1e2-0000-7000-8000-000000000000");
        assertEquals(404, r.statusCode());
        assertEquals("NotFound", RunningIdiom.json(r).get("code").asText());
        assertEquals(400, idiom.get("/api/entities/not-a-uuid").statusCode());
        assertEquals(404, idiom.get("/api/nothing-here").statusCode());
        assertEquals("application/problem+json", idiom.get("/api/nothing-here").headers().firstValue("Content-Type").orElseThrow());

        HttpResponse<String> soap = idiom.soap("<de:moreInfo><de:id>0195f1e2-0000-7000-8000-000000000000</de:id></de:moreInfo>");
        assertTrue(Xml.text(Xml.parse(soap.body()), "faultcode").endsWith(":NotFound"), soap.body());
        HttpResponse<String> badId = idiom.soap("<de:moreInfo><de:id>nope</de:id></de:moreInfo>");
        assertTrue(Xml.text(Xml.parse(badId.body()), "faultcode").endsWith(":Invalid"), badId.body());
    }

    @Test
    void malformedXmlGetsAFaultWithoutAStackTrace() {
        HttpResponse<String> r = idiom.post("/services/DigitalEntityService", "text/xml; charset=UTF-8",
                "<soapenv:Envelope xmlns:soapenv=\"http://schemas.xmlsoap.org/soap/envelope/\"><soapenv:Body><unclosed>", "SOAPAction", "\"\"");
        assertTrue(r.statusCode() >= 400, "status " + r.statusCode());
        assertTrue(r.body().contains("faultstring"), r.body());
        assertTrue(Xml.text(Xml.parse(r.body()), "faultcode").endsWith(":Invalid"), r.body());
        assertFalse(r.body().contains("\tat ") || r.body().contains("at org.apache"), "no stack trace: " + r.body());
    }

    @Test
    void externalEntitiesAndEntityExpansionAreRefused(@TempDir Path dir) throws Exception {
        Path secret = dir.resolve("idiom-secret.txt");
        Files.writeString(secret, "TOP-SECRET-CONTENT");
        String xxe = "<?xml version=\"1.0\"?><!DOCTYPE x [<!ENTITY s SYSTEM \"" + secret.toUri() + "\">]>"
                + RunningIdiom.envelope("<de:createDE><de:entity><de:title>&s;</de:title></de:entity></de:createDE>");
        HttpResponse<String> r = idiom.post("/services/DigitalEntityService", "text/xml; charset=UTF-8", xxe, "SOAPAction", "\"\"");
        assertTrue(r.statusCode() >= 400, r.body());
        assertFalse(r.body().contains("TOP-SECRET-CONTENT"));
        assertTrue(Xml.text(Xml.parse(r.body()), "faultstring").contains("DOCTYPE"), r.body());

        String laughs = "<?xml version=\"1.0\"?><!DOCTYPE x [<!ENTITY a \"aaaaaaaaaa\"><!ENTITY b \"&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;\">"
                + "<!ENTITY c \"&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;\"><!ENTITY d \"&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;\">]>"
                + RunningIdiom.envelope("<de:createDE><de:entity><de:title>&d;</de:title></de:entity></de:createDE>");
        HttpResponse<String> bomb = idiom.post("/services/DigitalEntityService", "text/xml; charset=UTF-8", laughs, "SOAPAction", "\"\"");
        assertTrue(bomb.statusCode() >= 400, bomb.body());
        assertTrue(bomb.body().contains("faultstring"));
        assertFalse(bomb.body().contains("aaaaaaaaaaaaaaaaaaaa"));
    }

    @Test
    void oversizedBodiesAreRefusedBeforeParsing() {
        String big = "{\"metadata\":{\"title\":\"" + "x".repeat(2 * 1024 * 1024) + "\"}}";
        HttpResponse<String> r = idiom.post("/api/entities", "application/json", big);
        assertEquals(413, r.statusCode());
        assertEquals("TooLarge", RunningIdiom.json(r).get("code").asText());
        assertEquals(413, idiom.post("/services/DigitalEntityService", "text/xml", big, "SOAPAction", "\"\"").statusCode());

        // a chunked body declares no length: it is cut off at the limit while streaming
        HttpResponse<String> chunked = idiom.send(java.net.http.HttpRequest.newBuilder(java.net.URI.create(idiom.url("/api/entities")))
                .header("Content-Type", "application/json")
                .POST(java.net.http.HttpRequest.BodyPublishers.ofInputStream(() -> new java.io.ByteArrayInputStream(big.getBytes()))));
        assertEquals(413, chunked.statusCode(), chunked.body());
        assertEquals("TooLarge", RunningIdiom.json(chunked).get("code").asText());
    }

    @Test
    void searchHistoryAndTheChangeFeedWorkOverRestAndSoap() {
        String tag = "feed" + System.nanoTime();
        long head = RunningIdiom.json(idiom.get("/api/changes?after=0&limit=1000")).get("next").asLong();
        String a = createOverRest("Search alpha");
        String b = createOverRest("Search beta");
        idiom.patch("/api/entities/" + a, "{\"metadata\":{\"tags\":[\"" + tag + "\"]}}", "If-Match", "\"1\"");
        idiom.patch("/api/entities/" + b, "{\"metadata\":{\"tags\":[\"" + tag + "\"]}}", "If-Match", "\"1\"");

        JsonNode page1 = RunningIdiom.json(idiom.get("/api/entities?tag=" + tag + "&limit=1"));
        assertEquals(a, page1.get("entities").get(0).get("id").asText());
        JsonNode page2 = RunningIdiom.json(idiom.get("/api/entities?tag=" + tag + "&limit=1&cursor=" + page1.get("next").asText()));
        assertEquals(b, page2.get("entities").get(0).get("id").asText());
        assertTrue(page2.get("next").isNull());
        assertEquals(2, RunningIdiom.json(idiom.get("/api/entities?tag=" + tag + "&author=saito&q=search")).get("entities").size());

        Document soapSearch = Xml.parse(idiom.soap("<de:search><de:tag>" + tag + "</de:tag></de:search>").body());
        assertEquals(2, Xml.count(soapSearch, "entity"));
        Document soapHistory = Xml.parse(idiom.soap("<de:history><de:id>" + a + "</de:id></de:history>").body());
        assertEquals(Xml.count(soapHistory, "event"), eventCount(a));

        JsonNode changes = RunningIdiom.json(idiom.get("/api/changes?after=" + head + "&limit=1000"));
        JsonNode events = changes.get("events");
        assertTrue(events.size() >= 4);
        long last = head;
        for (JsonNode e : events) {
            assertTrue(e.get("position").asLong() > last, "positions increase");
            last = e.get("position").asLong();
        }
        assertEquals(last, changes.get("next").asLong());
        assertEquals(400, idiom.get("/api/changes?after=-1").statusCode());
        assertEquals(400, idiom.get("/api/changes?limit=100000").statusCode());
    }

    @Test
    void theAdminPagesReportCacheAndFeed() {
        HttpResponse<String> metrics = idiom.get("/admin/metrics");
        assertEquals(200, metrics.statusCode());
        JsonNode m = RunningIdiom.json(metrics);
        assertEquals("ehcache", m.get("cache").get("implementation").asText());
        assertTrue(m.get("changeFeed").has("headPosition"));
        assertTrue(idiom.get("/admin").body().contains("DigitalEntityService?wsdl"));
        HttpRequest.Builder head = HttpRequest.newBuilder(URI.create(idiom.url("/"))).GET();
        assertEquals(200, idiom.send(head).statusCode());
    }
}
