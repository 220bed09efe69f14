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
 * changes it at its version (src/test/js/zotero-api-client-check.cjs).
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

    private static HttpResponse<String> tool(RunningIdiom idiom, String name, String body) {
        HttpResponse<String> r = idiom.send(HttpRequest.newBuilder(URI.create(idiom.url("/api/tools/" + name))).header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString(body)));
        assertTrue(r.statusCode() / 100 == 2, name + ": " + r.statusCode() + " " + r.body());
        return r;
    }
}
