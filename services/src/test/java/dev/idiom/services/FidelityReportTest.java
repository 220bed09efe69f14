package dev.idiom.services;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.idiom.db.TestDatabase;
import dev.idiom.wrappers.zotero.ZoteroStub;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** GET /api/fidelity and ./idiom fidelity: per type and field, what a copy in another account would hold, from the copies Idiom synced. */
class FidelityReportTest {
    @TempDir
    Path dir;

    private static void put(RunningIdiom idiom, String name, String json) {
        HttpResponse<String> r = idiom.put("/api/tools/" + name, json);
        assertEquals(200, r.statusCode(), r.body());
    }

    private static String zotero(ZoteroStub stub) {
        return "{\"kind\":\"zotero\",\"baseUrl\":\"" + stub.uri() + "\",\"account\":\"" + ZoteroStub.LIBRARY + "\",\"secret\":\"" + ZoteroStub.KEY + "\"}";
    }

    /** The row of one type and field. */
    private static JsonNode row(JsonNode table, String type, String field) {
        for (JsonNode r : table.path("fields")) {
            if (r.path("type").asText().equals(type) && r.path("field").asText().equals(field)) {
                return r;
            }
        }
        throw new AssertionError("no row " + type + " / " + field + " in " + table);
    }

    @Test
    void eachFieldOfAnAccountsRecordsIsShownArrivingTravellingAsExtrasOrStayingBehindInAnother() throws Exception {
        String url = TestDatabase.freshUrl();
        Path data = dir.resolve("data");
        Files.writeString(dir.resolve("a.bib"), """
                @conference{lamport78, author = {Lamport, Leslie}, title = {Time, Clocks, and the Ordering of Events}, year = {1978},
                  booktitle = {Proceedings}, addendum = {Reprinted in {CACM}}}
                """);
        Files.writeString(dir.resolve("b.bib"), "");
        try (ZoteroStub first = new ZoteroStub(); ZoteroStub second = new ZoteroStub();
             RunningIdiom idiom = new RunningIdiom(url, Map.of("files-dir", dir.toString(), "data", data.toString(), "sync-interval-ms", "0",
                     "pull-interval-ms", "0"))) {
            first.addRemotely("""
                    {"itemType": "tvBroadcast", "title": "The Replication Hour", "shortTitle": "Replication", "runningTime": "58 min",
                     "creators": [{"creatorType": "director", "firstName": "Ada", "lastName": "Byron"},
                                  {"creatorType": "castMember", "firstName": "Alan", "lastName": "Turing"}], "date": "1993",
                     "tags": [], "collections": [], "relations": {}}""");
            put(idiom, "zotero", zotero(first));
            put(idiom, "zotero2", zotero(second));
            put(idiom, "library", "{\"kind\":\"bibtex\",\"baseUrl\":\"a.bib\"}");
            put(idiom, "other", "{\"kind\":\"bibtex\",\"baseUrl\":\"b.bib\"}");
            assertEquals(200, idiom.post("/api/tools/zotero/sync", "application/json", "").statusCode());
            assertEquals(200, idiom.post("/api/tools/library/sync", "application/json", "").statusCode());

            JsonNode toZotero = RunningIdiom.json(idiom.get("/api/fidelity?from=zotero&to=zotero2"));
            assertEquals(1, toZotero.path("records").asInt(), toZotero.toString());
            assertEquals(1, row(toZotero, "broadcast", "zoteroExtras.creators").path("asExtras").asInt(), "Zotero to Zotero: whole");
            assertEquals(1, row(toZotero, "broadcast", "dimensions").path("arrives").asInt(), "the running time, CSL's dimensions");
            assertEquals(1, row(toZotero, "broadcast", "zoteroExtras.itemType").path("asExtras").asInt(), "a tvBroadcast stays one");
            assertEquals(1, row(toZotero, "broadcast", "shortTitle").path("arrives").asInt());

            JsonNode toFile = RunningIdiom.json(idiom.get("/api/fidelity?from=zotero&to=other"));
            assertEquals(1, row(toFile, "broadcast", "zoteroExtras.creators").path("cannotHold").asInt(), "a cast member has no place in a .bib");
            assertEquals(1, row(toFile, "broadcast", "dimensions").path("cannotHold").asInt(), "nor has a running time");
            assertEquals(1, row(toFile, "broadcast", "shortTitle").path("arrives").asInt(), "BibLaTeX's shorttitle");
            assertEquals(1, row(toFile, "broadcast", "title").path("arrives").asInt());

            JsonNode fileToFile = RunningIdiom.json(idiom.get("/api/fidelity?from=library&to=other"));
            assertEquals(1, row(fileToFile, "paper-conference", "bibtexExtras.addendum").path("asExtras").asInt(), ".bib to .bib: whole");
            assertEquals(1, row(fileToFile, "paper-conference", "bibtexExtras.@type").path("asExtras").asInt(), "an @conference stays one");
            JsonNode fileToZotero = RunningIdiom.json(idiom.get("/api/fidelity?from=library&to=zotero2"));
            assertEquals(1, row(fileToZotero, "paper-conference", "bibtexExtras.addendum").path("cannotHold").asInt());
            int[] totals = {fileToZotero.path("totals").path("present").asInt(), fileToZotero.path("totals").path("arrives").asInt(),
                    fileToZotero.path("totals").path("asExtras").asInt(), fileToZotero.path("totals").path("cannotHold").asInt()};
            assertEquals(totals[0], totals[1] + totals[2] + totals[3], "every value counted once: " + fileToZotero.path("totals"));

            HttpResponse<String> half = idiom.get("/api/fidelity?from=zotero");
            assertEquals(400, half.statusCode(), half.body());
            assertTrue(half.body().contains("from=NAME&to=NAME"), half.body());
            assertEquals(404, idiom.get("/api/fidelity?from=nowhere&to=zotero").statusCode());
            assertEquals(0, Files.size(dir.resolve("b.bib")), "the report writes nothing");

            // the command line opens the data itself: without IDIOM_SECRET_KEY here, only accounts without a sealed secret
            assertEquals(200, idiom.delete("/api/tools/zotero").statusCode());
            assertEquals(200, idiom.delete("/api/tools/zotero2").statusCode());
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            int code = IdiomMain.run(List.of("fidelity", "--from", "library", "--to", "other", "--db-url", url, "--data", dir.resolve("cli-data").toString(),
                    "--files-dir", dir.toString(), "--sync-interval-ms", "0", "--pull-interval-ms", "0"),
                    new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
            String printed = out.toString(StandardCharsets.UTF_8);
            assertEquals(0, code, err.toString(StandardCharsets.UTF_8));
            assertTrue(printed.contains("library -> other, 1 records") && printed.contains("bibtexExtras.addendum"), printed);
        }
    }
}
