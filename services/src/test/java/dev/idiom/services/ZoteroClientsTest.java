package dev.idiom.services;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idiom.db.TestDatabase;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Real Zotero Web API clients against one library Idiom serves. pyzotero (PyPI, pinned), with its
 * endpoint set to the account's {@code apiUrl}: every call issue 62 names (everything(items()),
 * create_items of 120 in three batches, update_item, delete_item, create_collections,
 * addto_collection, add_tags, items(since=V), deleted(since=V)), then the federation: an item made
 * with pyzotero reaches a mirrored .bib file and a browsers' XBEL, and an edit made in the .bib is in
 * pyzotero's next items(since=V). The steps are perf/src/python/pyzotero_check.py's, which
 * {@code perf/pyzotero.sh} runs against a served Idiom too. Then zotero-api-client (npm, pinned; Zotero's
 * own JavaScript client) reads the same library page by page, writes an item, reads it back and
 * changes it at its version (src/test/js/zotero-api-client-check.cjs). And fidelity: items of real
 * items' shapes from the strict Zotero stand-in, mirrored through their DEs into a served library,
 * read back with pyzotero equal the originals on every field.
 */
@Tag("slow") // a virtual environment and an npm install the first time, then about half a minute
class ZoteroClientsTest {
    @Test
    void pyzoteroAndZoteroApiClientReadAndWriteOneServedLibraryWhoseEditsReachTheMirroredFiles() throws Exception {
        Path python = PyPiTool.installed("pyzotero", "1.16.0").resolve("bin/python");
        Path work = Files.createDirectories(Path.of("target", "pyzotero-test").toAbsolutePath());
        Path files = Files.createDirectories(work.resolve("files-" + System.nanoTime()));
        Files.writeString(files.resolve("library.bib"), "");
        try (RunningIdiom idiom = new RunningIdiom(TestDatabase.freshUrl(), Map.of("files-dir", files.toString(), "sync-interval-ms", "200",
                "pull-interval-ms", "500"))) {
            HttpResponse<String> desktop = tool(idiom, "desktop", "{\"kind\":\"zotero-api\",\"mirror\":\"all\"}");
            tool(idiom, "library", "{\"kind\":\"bibtex\",\"baseUrl\":\"library.bib\",\"mirror\":\"all\"}");
            tool(idiom, "browsers", "{\"kind\":\"xbel-dav\",\"mirror\":\"all\"}");
            Path account = Files.writeString(work.resolve("desktop.json"), desktop.body());
            Path script = Path.of("").toAbsolutePath().getParent().resolve("perf/src/python/pyzotero_check.py");
            Path log = work.resolve("pyzotero.log");
            Process p = new ProcessBuilder(python.toString(), script.toString(), account.toString(), files.resolve("library.bib").toString(),
                    files.resolve(".dav/browsers").toString()).redirectErrorStream(true).redirectOutput(log.toFile()).start();
            assertTrue(p.waitFor(10, TimeUnit.MINUTES), "pyzotero's steps did not end within 10 minutes");
            String steps = Files.readString(log);
            System.out.println(steps);
            assertEquals(0, p.exitValue(), "a pyzotero step did not hold:\n" + steps);
            assertTrue(steps.lines().filter(l -> l.startsWith("ok")).count() >= 18, "every step ran:\n" + steps);
            List<String> failed = steps.lines().filter(l -> l.startsWith("FAIL")).toList();
            assertEquals(List.of(), failed);

            NodeRuntime node = NodeRuntime.installed();
            Path js = Files.createDirectories(work.resolve("zotero-api-client"));
            Files.copy(Path.of("src/test/js/zotero-api-client-check.cjs"), js.resolve("check.cjs"), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            Process install = node.npm(js, "install", "--no-audit", "--no-fund", "--loglevel=error", "--no-save", "zotero-api-client@0.48.0")
                    .redirectErrorStream(true).redirectOutput(work.resolve("npm-install.log").toFile()).start();
            assertTrue(install.waitFor(10, TimeUnit.MINUTES) && install.exitValue() == 0, "npm install zotero-api-client: " + Files.readString(work.resolve("npm-install.log")));
            var acct = RunningIdiom.JSON.readTree(desktop.body());
            Path out = work.resolve("zotero-api-client.log");
            Process client = node.node(js, List.of("check.cjs", acct.path("apiUrl").asText(), acct.path("userID").asText(), acct.path("apiKey").asText()))
                    .redirectErrorStream(true).redirectOutput(out.toFile()).start();
            assertTrue(client.waitFor(5, TimeUnit.MINUTES), "zotero-api-client did not end within 5 minutes");
            String said = Files.readString(out);
            System.out.println("zotero-api-client: " + said);
            assertEquals(0, client.exitValue(), "zotero-api-client failed:\n" + said);
            var seen = RunningIdiom.JSON.readTree(said.lines().filter(l -> l.startsWith("{")).reduce((a, b) -> b).orElseThrow());
            assertTrue(seen.path("total").asInt() >= 119, "it reads the library pyzotero wrote (119 items and more): " + said);
            assertEquals(seen.path("total").asInt(), seen.path("read").asInt(), "every page read");
            assertEquals("Made with zotero-api-client", seen.path("readBack").asText());
            assertEquals("Edited with zotero-api-client", seen.path("edited").asText());
            assertTrue(seen.path("versions").get(1).asLong() > seen.path("versions").get(0).asLong(), "the edit took a new version: " + said);
        }
    }

    @Test
    void anItemFromZoteroMirroredIntoAServedLibraryReadsBackWithPyzoteroAsTheOriginalOnEveryField() throws Exception {
        Path python = PyPiTool.installed("pyzotero", "1.16.0").resolve("bin/python");
        Path work = Files.createDirectories(Path.of("target", "pyzotero-test").toAbsolutePath());
        try (dev.idiom.wrappers.zotero.ZoteroStub zotero = new dev.idiom.wrappers.zotero.ZoteroStub();
                RunningIdiom idiom = new RunningIdiom(TestDatabase.freshUrl(), Map.of("sync-interval-ms", "200", "pull-interval-ms", "500"))) {
            dev.idiom.wrappers.zotero.ZoteroShapes shapes = new dev.idiom.wrappers.zotero.ZoteroShapes(new java.util.SplittableRandom(62));
            int items = 24;
            for (int i = 0; i < items; i++) {
                zotero.addRemotely(shapes.item(i));
            }
            HttpResponse<String> desktop = tool(idiom, "desktop", "{\"kind\":\"zotero-api\",\"mirror\":\"all\"}");
            tool(idiom, "zotero", "{\"kind\":\"zotero\",\"baseUrl\":\"" + zotero.uri() + "\",\"account\":\"" + dev.idiom.wrappers.zotero.ZoteroStub.LIBRARY
                    + "\",\"secret\":\"" + dev.idiom.wrappers.zotero.ZoteroStub.KEY + "\"}");
            HttpResponse<String> imported = idiom.post("/api/tools/zotero/sync", "application/json", "");
            assertTrue(imported.statusCode() == 200, imported.body());
            Path account = Files.writeString(work.resolve("desktop-fields.json"), desktop.body());
            Path read = work.resolve("served-items.json");
            String dump = "import json,sys,time\nfrom pyzotero import zotero\na=json.load(open(sys.argv[1]))\nz=zotero.Zotero(a['userID'],'user',a['apiKey'])\n"
                    + "z.endpoint=a['apiUrl']\nfor _ in range(200):\n    items=z.everything(z.items())\n    if len(items)>=int(sys.argv[3]): break\n    time.sleep(0.3)\n"
                    + "json.dump([i['data'] for i in items],open(sys.argv[2],'w'))\n";
            Process p = new ProcessBuilder(python.toString(), "-c", dump, account.toString(), read.toString(), Integer.toString(items))
                    .redirectErrorStream(true).redirectOutput(work.resolve("pyzotero-fields.log").toFile()).start();
            assertTrue(p.waitFor(5, TimeUnit.MINUTES) && p.exitValue() == 0, Files.readString(work.resolve("pyzotero-fields.log")));
            var served = RunningIdiom.JSON.readTree(read.toFile());
            assertEquals(items, served.size(), "every item mirrored into the served library");
            List<String> differ = new java.util.ArrayList<>();
            for (var original : zotero.itemVersions().keySet()) {
                var data = zotero.data(original);
                var copy = java.util.stream.StreamSupport.stream(served.spliterator(), false)
                        .filter(d -> d.path("title").asText().equals(data.path("title").asText())).findFirst().orElse(null);
                if (copy == null) {
                    differ.add(data.path("title").asText() + ": not in the served library");
                    continue;
                }
                data.properties().forEach(f -> {
                    // the item's own identity in each library (key, version, its dates there) is that library's
                    if (!java.util.Set.of("key", "version", "dateAdded", "dateModified").contains(f.getKey()) && !f.getValue().equals(copy.get(f.getKey()))
                            && !(f.getValue().isTextual() && f.getValue().asText().isEmpty() && copy.path(f.getKey()).asText("").isEmpty())) {
                        differ.add(data.path("title").asText() + " " + f.getKey() + ": " + f.getValue() + " -> " + copy.get(f.getKey()));
                    }
                });
            }
            assertEquals(List.of(), differ, "fields that differ between the Zotero original and its copy read back with pyzotero");
        }
    }

    private static HttpResponse<String> tool(RunningIdiom idiom, String name, String body) {
        HttpResponse<String> r = idiom.send(HttpRequest.newBuilder(URI.create(idiom.url("/api/tools/" + name))).header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString(body)));
        assertTrue(r.statusCode() / 100 == 2, name + ": " + r.statusCode() + " " + r.body());
        return r;
    }
}
