package dev.idiom.services;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.idiom.db.TestDatabase;
import dev.idiom.wrappers.pinboard.PinboardStub;
import dev.idiom.wrappers.zotero.ZoteroStub;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Replication rules over the real service, as the README shows them: the engine in the background does the rest. */
class MirrorOverRestTest {
    @TempDir
    Path dir;

    private static String item(String title, String url) {
        return "{\"itemType\":\"journalArticle\",\"title\":\"" + title + "\",\"creators\":[{\"creatorType\":\"author\",\"firstName\":\"Alan\","
                + "\"lastName\":\"Demers\"}],\"date\":\"1987\",\"url\":\"" + url + "\",\"tags\":[{\"tag\":\"gossip\"}],\"collections\":[],\"relations\":{}}";
    }

    private static void put(RunningIdiom idiom, String name, String json) {
        HttpResponse<String> r = idiom.put("/api/tools/" + name, json);
        assertEquals(200, r.statusCode(), r.body());
    }

    @Test
    void aZoteroLibraryIsMirroredIntoABibTeXFileAndPinboardByTwoRulesIncludingItemsAddedLater() throws Exception {
        Path bib = Files.writeString(dir.resolve("library.bib"), "");
        try (ZoteroStub zotero = new ZoteroStub(); PinboardStub pinboard = new PinboardStub();
             RunningIdiom idiom = new RunningIdiom(TestDatabase.freshUrl(), Map.of("files-dir", dir.toString(), "sync-interval-ms", "200",
                     "pull-interval-ms", "1000"))) {
            zotero.addRemotely(item("Epidemic algorithms", "https://example.org/epidemic"));
            zotero.addRemotely(item("Managing update conflicts in Bayou", "https://example.org/bayou"));
            put(idiom, "zotero", "{\"kind\":\"zotero\",\"baseUrl\":\"" + zotero.uri() + "\",\"account\":\"" + ZoteroStub.LIBRARY + "\",\"secret\":\""
                    + ZoteroStub.KEY + "\",\"direction\":\"receive-only\"}");
            // the two commands: each account holds what came from Zotero
            put(idiom, "library", "{\"kind\":\"bibtex\",\"baseUrl\":\"" + bib + "\",\"mirror\":{\"from\":[\"zotero\"]}}");
            put(idiom, "pinboard", "{\"kind\":\"pinboard\",\"baseUrl\":\"" + pinboard.uri() + "/v1/\",\"secret\":\"" + PinboardStub.TOKEN
                    + "\",\"mirror\":{\"from\":[\"zotero\"]}}");
            JsonNode listed = RunningIdiom.json(idiom.get("/api/tools"));
            for (JsonNode a : listed) {
                if (a.get("name").asText().equals("library")) {
                    assertEquals("{\"from\":[\"zotero\"]}", a.get("mirror").toString());
                    assertEquals("both", a.get("direction").asText());
                }
                if (a.get("name").asText().equals("zotero")) {
                    assertEquals("\"none\"", a.get("mirror").toString());
                    assertEquals("receive-only", a.get("direction").asText());
                }
            }
            waitForCopies(idiom, 2);
            String file = Files.readString(bib);
            assertTrue(file.contains("Epidemic algorithms") && file.contains("Managing update conflicts in Bayou"), file);
            // an item added to Zotero later follows by itself
            zotero.addRemotely(item("Coda", "https://example.org/coda"));
            waitForCopies(idiom, 3);
            assertTrue(Files.readString(bib).contains("Coda"));
            // the copies exist; what they made owed (e.g. the file's citation key, pushed on to Pinboard) drains at Pinboard's pace
            JsonNode progress = RunningIdiom.json(idiom.get("/api/tools/pinboard/mirror"));
            for (long until = System.nanoTime() + 30_000_000_000L; progress.get("owed").asInt() > 0 && System.nanoTime() < until; ) {
                Thread.sleep(200);
                progress = RunningIdiom.json(idiom.get("/api/tools/pinboard/mirror"));
            }
            assertEquals(0, progress.get("owed").asInt(), progress.toString());
            assertEquals("{\"from\":[\"zotero\"]}", progress.get("mirror").toString());
        }
    }

    /** Waits until {@code n} DEs each have a copy in Zotero, the file and Pinboard. */
    private static void waitForCopies(RunningIdiom idiom, int n) throws InterruptedException {
        long until = System.nanoTime() + 90_000_000_000L;
        String last = "";
        while (System.nanoTime() < until) {
            int complete = 0;
            JsonNode page = RunningIdiom.json(idiom.get("/api/entities?limit=200"));
            for (JsonNode de : page.get("entities")) {
                java.util.Set<String> tools = new java.util.HashSet<>();
                de.get("replicas").forEach(r -> tools.add(r.get("tool").asText()));
                if (tools.containsAll(java.util.Set.of("zotero", "bibtex", "pinboard"))) {
                    complete++;
                }
            }
            if (complete == n) {
                return;
            }
            last = page.toString();
            Thread.sleep(200);
        }
        throw new AssertionError("not every DE reached every account within 90 s: " + last + "\nconsistency: " + idiom.get("/api/consistency").body());
    }

    @Test
    void aRuleTheServiceCannotReadIsRefusedWithWhyAndChangesNothing() throws Exception {
        try (RunningIdiom idiom = new RunningIdiom(TestDatabase.freshUrl(), Map.of("files-dir", dir.toString(), "sync-interval-ms", "0"))) {
            String base = "{\"kind\":\"bibtex\",\"baseUrl\":\"" + dir.resolve("x.bib") + "\",\"create\":true,";
            for (String[] bad : new String[][] {{"\"mirror\":\"everything\"", "mirror must be"}, {"\"mirror\":{}", "at least one"},
                    {"\"mirror\":{\"tags\":[]}", "mirror.tags"}, {"\"mirror\":{\"types\":[\"novel\"]}", "not a record type"},
                    {"\"mirror\":{\"colour\":[\"red\"]}", "unknown member"}, {"\"direction\":\"sideways\"", "direction must be"}}) {
                HttpResponse<String> r = idiom.put("/api/tools/x", base + bad[0] + "}");
                assertEquals(400, r.statusCode(), r.body());
                assertTrue(r.body().contains(bad[1]), r.body());
            }
            assertEquals("[]", RunningIdiom.json(idiom.get("/api/tools")).toString(), "no account was stored");
            assertEquals(404, idiom.get("/api/tools/x/mirror").statusCode());
            // a dry run of a sync says what it would do and does not do it
            HttpResponse<String> created = idiom.post("/api/entities", "application/json", "{\"metadata\":{\"type\":\"book\",\"title\":\"Planned\",\"year\":2001,"
                    + "\"authors\":[{\"family\":\"Saito\",\"given\":\"Yasushi\"}]}}");
            assertEquals(201, created.statusCode(), created.body());
            put(idiom, "x", base + "\"mirror\":\"all\"}");
            HttpResponse<String> plan = idiom.post("/api/tools/x/sync?dryRun=true", "application/json", "");
            assertEquals(200, plan.statusCode(), plan.body());
            JsonNode p = RunningIdiom.json(plan);
            assertTrue(p.get("dryRun").asBoolean());
            assertEquals(1, p.get("writes").get(0).get("copies").get("count").asInt(), p.toString());
            assertEquals("Planned", p.get("writes").get(0).get("copies").get("samples").get(0).asText());
            assertEquals("", Files.readString(dir.resolve("x.bib")), "nothing was written (the file the account made, empty)");
            // the sync then makes the copy
            String id = RunningIdiom.json(created).get("id").asText();
            assertEquals(200, idiom.post("/api/tools/x/sync", "application/json", "").statusCode());
            assertEquals(1, RunningIdiom.json(idiom.get("/api/entities/" + id + "/replicas")).size());
            // an admin removes the account: its copies are unlinked (the records stay in the file), the account and its secret are gone
            HttpResponse<String> removed = idiom.delete("/api/tools/x");
            assertEquals(200, removed.statusCode(), removed.body());
            assertEquals(1, RunningIdiom.json(removed).get("unlinked").asInt(), removed.body());
            assertEquals("[]", RunningIdiom.json(idiom.get("/api/tools")).toString());
            assertEquals("[]", RunningIdiom.json(idiom.get("/api/entities/" + id + "/replicas")).toString());
            assertTrue(Files.readString(dir.resolve("x.bib")).contains("Planned"), "the record stays in the file");
            assertEquals(404, idiom.delete("/api/tools/x").statusCode());
            assertEquals(404, idiom.post("/api/tools/x/sync?dryRun=true", "application/json", "").statusCode());
            // added again, the account takes its record back: the DE is linked to it again and the file does not hold it twice
            put(idiom, "x", base + "\"mirror\":\"all\"}");
            assertEquals(200, idiom.post("/api/tools/x/sync", "application/json", "").statusCode());
            assertEquals(1, RunningIdiom.json(idiom.get("/api/entities/" + id + "/replicas")).size());
            String file = Files.readString(dir.resolve("x.bib"));
            assertEquals(file.indexOf("Planned"), file.lastIndexOf("Planned"), file);
        }
    }

    @Test
    void replicationSettingsChangeAloneOverRestSoapAndTheCommandLineKeepingTheSecret() throws Exception {
        String db = TestDatabase.freshUrl();
        Path bib = Files.writeString(dir.resolve("library.bib"), "");
        try (ZoteroStub zotero = new ZoteroStub();
             RunningIdiom idiom = new RunningIdiom(db, Map.of("files-dir", dir.toString(), "sync-interval-ms", "0"))) {
            zotero.addRemotely(item("Epidemic algorithms", "https://example.org/epidemic"));
            put(idiom, "zotero", "{\"kind\":\"zotero\",\"baseUrl\":\"" + zotero.uri() + "\",\"account\":\"" + ZoteroStub.LIBRARY + "\",\"secret\":\""
                    + ZoteroStub.KEY + "\"}");
            put(idiom, "library", "{\"kind\":\"bibtex\",\"baseUrl\":\"" + bib + "\"}");
            // REST: only the settings named change; the secret stays (the sync still reads Zotero)
            HttpResponse<String> patched = idiom.patch("/api/tools/zotero", "{\"deletions\":\"propagate\",\"direction\":\"receive-only\"}");
            assertEquals(200, patched.statusCode(), patched.body());
            JsonNode z = RunningIdiom.json(patched);
            assertTrue(z.get("hasSecret").asBoolean(), patched.body());
            assertEquals("propagate", z.get("deletions").asText());
            assertEquals("receive-only", z.get("direction").asText());
            assertEquals("\"none\"", z.get("mirror").toString());
            assertEquals(200, idiom.post("/api/tools/zotero/sync", "application/json", "").statusCode());
            assertEquals(1, RunningIdiom.json(idiom.get("/api/entities")).get("total").asInt());
            HttpResponse<String> bad = idiom.patch("/api/tools/zotero", "{\"deletions\":\"sometimes\"}");
            assertEquals(400, bad.statusCode(), bad.body());
            assertTrue(bad.body().contains("deletions must be"), bad.body());
            assertEquals("propagate", RunningIdiom.json(idiom.get("/api/tools")).get(1).get("deletions").asText(), "nothing changed");
            assertEquals(404, idiom.patch("/api/tools/nosuch", "{\"mirror\":\"all\"}").statusCode());

            // SOAP: the same settings
            HttpResponse<String> soap = idiom.soap("<de:setReplication><de:tool>library</de:tool><de:mirror>{\"from\":[\"zotero\"]}</de:mirror>"
                    + "<de:deletions>propagate</de:deletions></de:setReplication>");
            assertEquals(200, soap.statusCode(), soap.body());
            assertTrue(soap.body().contains("{\"from\":[\"zotero\"]}") && soap.body().contains("propagate"), soap.body());
            JsonNode library = RunningIdiom.json(idiom.get("/api/tools")).get(0);
            assertEquals("{\"from\":[\"zotero\"]}", library.get("mirror").toString());
            assertEquals("both", library.get("direction").asText(), "left as it was");
            HttpResponse<String> soapBad = idiom.soap("<de:setReplication><de:tool>library</de:tool><de:mirror>{\"from\":</de:mirror></de:setReplication>");
            assertEquals(500, soapBad.statusCode());
            assertTrue(soapBad.body().contains("Invalid"), soapBad.body());

        }
        // the command line, in-process on a database with no sealed secret (the command opens the data as the server does)
        String db2 = TestDatabase.freshUrl();
        try (RunningIdiom idiom = new RunningIdiom(db2, Map.of("files-dir", dir.toString(), "sync-interval-ms", "0"))) {
            put(idiom, "library", "{\"kind\":\"bibtex\",\"baseUrl\":\"" + bib + "\"}");
            java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
            java.io.ByteArrayOutputStream err = new java.io.ByteArrayOutputStream();
            int code = IdiomMain.run(java.util.List.of("mirror", "--account", "library", "--rule", "all", "--deletions", "propagate", "--db-url", db2,
                    "--data", dir.resolve("cli").toString(), "--files-dir", dir.toString(), "--sync-interval-ms", "0"),
                    new java.io.PrintStream(out, true), new java.io.PrintStream(err, true));
            assertEquals(0, code, "out: " + out + " err: " + err);
            assertTrue(out.toString().contains("library now mirrors \"all\", direction both, deletions propagate"), out.toString());
            assertTrue(out.toString().contains("planned"), out.toString());
            JsonNode library = RunningIdiom.json(idiom.get("/api/tools")).get(0);
            assertEquals("\"all\"", library.get("mirror").toString());
            assertEquals("propagate", library.get("deletions").asText());
            assertEquals(2, IdiomMain.run(java.util.List.of("mirror", "--db-url", db2), new java.io.PrintStream(out, true), new java.io.PrintStream(err, true)),
                    "an account must be named");
        }
    }
}
