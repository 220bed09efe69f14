package dev.idiom.services;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.idiom.wrappers.zotero.ZoteroStub;
import java.net.http.HttpResponse;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A curator's sync, pause and resume, the consistency report and the conflict listing, over real HTTP (REST and SOAP). */
class ConsistencyEndpointsTest {

    @Test
    void aCuratorSyncsPausesAndResumesAndReadsConflictsAndTheReportOverRestAndSoap() {
        try (ZoteroStub zotero = new ZoteroStub(); RunningIdiom idiom = new RunningIdiom(Map.of("sync-interval-ms", "0"))) {
            assertEquals(200, idiom.put("/api/tools/zot", "{\"kind\":\"zotero\",\"baseUrl\":\"" + zotero.uri() + "\",\"account\":\"" + ZoteroStub.LIBRARY
                    + "\",\"secret\":\"" + ZoteroStub.KEY + "\"}").statusCode());
            HttpResponse<String> created = idiom.post("/api/entities", "application/json",
                    "{\"type\":\"article-journal\",\"title\":\"Sync over HTTP\",\"authors\":[{\"family\":\"Saito\",\"given\":\"Yasushi\"}],\"year\":2005}");
            String id = RunningIdiom.json(created).path("id").asText();
            assertEquals(201, idiom.post("/api/entities/" + id + "/replicas", "application/json", "{\"tool\":\"zot\"}").statusCode());
            JsonNode first = RunningIdiom.json(idiom.post("/api/tools/zot/sync", "application/json", ""));
            assertEquals(1, first.path("pulled").path("records").asInt(), first.toString());

            // the same field changed on both sides
            String key = RunningIdiom.json(idiom.get("/api/entities/" + id)).path("replicas").path(0).path("remoteId").asText();
            zotero.editData(key, "{\"title\": \"Sync over HTTP (Zotero)\"}");
            String etag = idiom.get("/api/entities/" + id).headers().firstValue("ETag").orElseThrow();
            HttpResponse<String> patched = idiom.patch("/api/entities/" + id, "{\"metadata\":{\"title\":\"Sync over HTTP (Idiom)\"}}", "If-Match", etag);
            assertEquals(200, patched.statusCode(), patched.body());
            HttpResponse<String> sync = idiom.post("/api/tools/zot/sync", "application/json", "");
            assertEquals(200, sync.statusCode(), sync.body());
            JsonNode s = RunningIdiom.json(sync);
            assertEquals(1, s.path("conflicts").asInt(), s.toString());
            assertEquals(1, s.path("pushed").path("pushed").asInt(), "Idiom's winning value went to Zotero: " + s);
            assertEquals("Sync over HTTP (Idiom)", zotero.data(key).path("title").asText());

            JsonNode conflicts = RunningIdiom.json(idiom.get("/api/conflicts"));
            assertEquals(1, conflicts.path("conflicts").size(), conflicts.toString());
            JsonNode c = conflicts.path("conflicts").path(0);
            assertEquals(id, c.path("entityId").asText());
            assertEquals("Sync over HTTP (Zotero)", c.path("remoteValue").asText());
            assertEquals("Sync over HTTP (Idiom)", c.path("idiomValue").asText());
            assertEquals("prefer-idiom", c.path("policy").asText());
            HttpResponse<String> soapConflicts = idiom.soap("<de:conflicts/>");
            assertEquals(200, soapConflicts.statusCode(), soapConflicts.body());
            assertTrue(soapConflicts.body().contains("remoteValue>Sync over HTTP (Zotero)</"), soapConflicts.body());

            JsonNode report = RunningIdiom.json(idiom.get("/api/consistency"));
            JsonNode zot = report.path("accounts").path(0);
            assertEquals("zot", zot.path("name").asText(), report.toString());
            assertEquals(1, zot.path("replicas").asInt());
            assertEquals(1, zot.path("inSync").asInt(), report.toString());
            assertEquals(0, report.path("divergent").asInt());
            assertTrue(zot.path("propagationLagMs").path("samples").asInt() >= 1, "the push was measured: " + report);
            HttpResponse<String> soapReport = idiom.soap("<de:consistencyReport/>");
            assertTrue(soapReport.body().contains("inSync>1</"), soapReport.body());

            // paused: no sync until resumed
            assertEquals(200, idiom.post("/api/tools/zot/pause", "application/json", "").statusCode());
            HttpResponse<String> refused = idiom.post("/api/tools/zot/sync", "application/json", "");
            assertEquals(409, refused.statusCode(), "a state to resolve, not a malformed request: " + refused.body());
            assertTrue(refused.body().contains("paused"), refused.body());
            HttpResponse<String> soapRefused = idiom.soap("<de:sync><de:tool>zot</de:tool></de:sync>");
            assertEquals(500, soapRefused.statusCode());
            assertTrue(soapRefused.body().contains("paused"), soapRefused.body());
            assertEquals(200, idiom.post("/api/tools/zot/resume", "application/json", "").statusCode());
            HttpResponse<String> soapSync = idiom.soap("<de:sync><de:tool>zot</de:tool></de:sync>");
            assertEquals(200, soapSync.statusCode(), soapSync.body());
            assertTrue(soapSync.body().contains("pushed>0</"), "nothing more to push: " + soapSync.body());
            HttpResponse<String> unknown = idiom.post("/api/tools/nosuch/sync", "application/json", "");
            assertEquals(404, unknown.statusCode());
            assertTrue(unknown.body().contains("no tool account named 'nosuch'"), unknown.body());
        }
    }

    @Test
    void anImportOverRestIsThePullOfASyncItAppliesTheDeletionsOfItsWindowAndLosesNoneMadeWhileItRuns() {
        try (ZoteroStub zotero = new ZoteroStub(); RunningIdiom idiom = new RunningIdiom(Map.of("sync-interval-ms", "0"))) {
            assertEquals(200, idiom.put("/api/tools/zot", "{\"kind\":\"zotero\",\"baseUrl\":\"" + zotero.uri() + "\",\"account\":\"" + ZoteroStub.LIBRARY
                    + "\",\"secret\":\"" + ZoteroStub.KEY + "\"}").statusCode());
            java.util.List<String> keys = new java.util.ArrayList<>();
            for (int i = 0; i < 12; i++) {
                keys.add(zotero.addRemotely("{\"itemType\": \"journalArticle\", \"title\": \"Pulled paper " + i + "\"}"));
            }
            HttpResponse<String> first = idiom.post("/api/imports", "application/json", "{\"tool\":\"zot\",\"fromStart\":true}");
            assertEquals(200, first.statusCode(), first.body());
            Map<String, String> deOf = new java.util.HashMap<>();
            for (JsonNode de : RunningIdiom.json(idiom.get("/api/entities?limit=50")).get("entities")) {
                deOf.put(de.path("replicas").path(0).path("remoteId").asText(), de.path("id").asText());
            }
            assertTrue(deOf.keySet().containsAll(keys), "the first import linked every item: " + deOf.keySet());

            // trashed in Zotero since the first import: in the second import's window
            zotero.trash(keys.getFirst());
            // trashed while the second import runs, after it listed what changed: in the next pull's window
            java.util.concurrent.atomic.AtomicBoolean once = new java.util.concurrent.atomic.AtomicBoolean();
            zotero.beforeReply(line -> {
                if (line.startsWith("GET /" + ZoteroStub.LIBRARY + "/items/top") && once.compareAndSet(false, true)) {
                    zotero.trash(keys.get(2));
                }
            });
            HttpResponse<String> second = idiom.post("/api/imports", "application/json", "{\"tool\":\"zot\"}");
            zotero.beforeReply(null);
            assertEquals(200, second.statusCode(), second.body());
            assertTrue(once.get(), "the second deletion was made while the import ran");
            assertEquals(0, copies(idiom, deOf.get(keys.getFirst())), "the import applied the deletion of its window, as a sync's pull does");
            assertEquals(1, copies(idiom, deOf.get(keys.get(2))), "a deletion after its listing is the next pull's");

            JsonNode sync = RunningIdiom.json(idiom.post("/api/tools/zot/sync", "application/json", ""));
            assertEquals(0, copies(idiom, deOf.get(keys.get(2))), "the import's cursor stopped where its listing did: the next sync sees it " + sync);
        }
    }

    /** How many copies the DE has (none once it is gone from the only tool, or gone itself). */
    private static int copies(RunningIdiom idiom, String id) {
        HttpResponse<String> r = idiom.get("/api/entities/" + id);
        return r.statusCode() == 200 ? RunningIdiom.json(r).path("replicas").size() : 0;
    }
}
