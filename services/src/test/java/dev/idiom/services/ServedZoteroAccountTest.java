package dev.idiom.services;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.idiom.db.TestDatabase;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A served Zotero library is an account like any other: {@code PUT /api/tools/NAME {"kind":
 * "zotero-api"}} makes it and hands out its key once; what a Zotero client writes there reaches a
 * mirrored BibTeX file by the engine alone, and an edit made in the file reaches the client's next
 * incremental read ({@code since}).
 */
class ServedZoteroAccountTest {
    @TempDir
    Path dir;

    private static final String ITEM = "[{\"itemType\":\"journalArticle\",\"title\":\"Epidemic algorithms for replicated database maintenance\","
            + "\"creators\":[{\"creatorType\":\"author\",\"firstName\":\"Alan\",\"lastName\":\"Demers\"}],\"date\":\"1987\","
            + "\"tags\":[{\"tag\":\"gossip\"}],\"collections\":[],\"relations\":{}}]";

    @Test
    void anItemAZoteroClientWritesReachesAMirroredFileAndAnEditInTheFileReachesTheClientsNextIncrementalRead() throws Exception {
        Path bib = Files.writeString(dir.resolve("library.bib"), "");
        try (RunningIdiom idiom = new RunningIdiom(TestDatabase.freshUrl(), Map.of("files-dir", dir.toString(), "sync-interval-ms", "200",
                "pull-interval-ms", "500"))) {
            HttpResponse<String> made = idiom.put("/api/tools/desktop", "{\"kind\":\"zotero-api\",\"mirror\":\"all\"}");
            assertEquals(200, made.statusCode(), made.body());
            JsonNode account = RunningIdiom.json(made);
            String api = account.path("apiUrl").asText();
            String key = account.path("apiKey").asText();
            String library = "/users/" + account.path("userID").asLong();
            assertEquals(idiom.url(""), api);
            assertEquals(24, key.length(), made.body());
            assertEquals(200, idiom.put("/api/tools/library", "{\"kind\":\"bibtex\",\"baseUrl\":\"" + bib + "\",\"mirror\":\"all\"}").statusCode());

            HttpResponse<String> written = zotero(idiom, key, HttpRequest.newBuilder(URI.create(api + library + "/items"))
                    .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(ITEM)));
            assertEquals(200, written.statusCode(), written.body());
            String itemKey = RunningIdiom.json(written).path("successful").path("0").path("key").asText();
            await(() -> read(bib).contains("Epidemic algorithms for replicated database maintenance"), "the item in the file", bib);
            // more than a page of the API's default 25 in one pull: every one arrives (the engine asks 50 keys at a time)
            StringBuilder many = new StringBuilder("[");
            for (int i = 1; i <= 40; i++) {
                many.append(i > 1 ? "," : "").append("{\"itemType\":\"book\",\"title\":\"Replication, volume ").append(i).append("\"}");
            }
            assertEquals(200, zotero(idiom, key, HttpRequest.newBuilder(URI.create(api + library + "/items")).header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(many.append("]").toString()))).statusCode());
            await(() -> read(bib).split("Replication, volume ", -1).length - 1 == 40, "all 40 items in the file", bib);

            long version = Long.parseLong(zotero(idiom, key, HttpRequest.newBuilder(URI.create(api + library + "/items?format=versions")))
                    .headers().firstValue("Last-Modified-Version").orElseThrow());
            Files.writeString(bib, read(bib).replace("Epidemic algorithms for replicated database maintenance", "Epidemic algorithms, revised"));
            String since = api + library + "/items?since=" + version;
            await(() -> zotero(idiom, key, HttpRequest.newBuilder(URI.create(since))).body().contains("Epidemic algorithms, revised"),
                    "the file's edit in the client's next incremental read", bib);
            JsonNode changed = RunningIdiom.json(zotero(idiom, key, HttpRequest.newBuilder(URI.create(since))));
            assertEquals(1, changed.size(), changed.toString());
            assertEquals(itemKey, changed.get(0).path("key").asText(), "the edit lands on the client's own item, not a new one");
            assertEquals("Demers", changed.get(0).path("data").path("creators").get(0).path("lastName").asText());

            // a DE made through Idiom's own REST is mirrored into the served library too
            assertEquals(201, idiom.post("/api/entities", "application/json", "{\"metadata\":{\"title\":\"Managing update conflicts in Bayou\"}}")
                    .statusCode());
            await(() -> zotero(idiom, key, HttpRequest.newBuilder(URI.create(api + library + "/items?q=Bayou"))).body().contains("Bayou"),
                    "the REST record in the served library", bib);
        }
    }

    @Test
    void theClientsKeyIsSaidOnceAndRenewingItRefusesTheOldOneWhileTheEngineKeepsSyncing() throws Exception {
        try (RunningIdiom idiom = new RunningIdiom(TestDatabase.freshUrl(), Map.of("files-dir", dir.toString()))) {
            JsonNode first = RunningIdiom.json(idiom.put("/api/tools/desktop", "{\"kind\":\"zotero-api\"}"));
            String key = first.path("apiKey").asText();
            String library = "/users/" + first.path("userID").asLong();
            // the same account again (a change of its settings): the same library, no key said again
            JsonNode again = RunningIdiom.json(idiom.put("/api/tools/desktop", "{\"kind\":\"zotero-api\",\"direction\":\"receive-only\"}"));
            assertEquals(first.path("userID"), again.path("userID"));
            assertFalse(again.has("apiKey"), again.toString());
            assertEquals(200, zotero(idiom, key, HttpRequest.newBuilder(URI.create(idiom.url(library + "/items")))).statusCode());

            HttpResponse<String> renewed = idiom.post("/api/tools/desktop/zotero-key", "application/json", "");
            assertEquals(200, renewed.statusCode(), renewed.body());
            String next = RunningIdiom.json(renewed).path("apiKey").asText();
            assertNotEquals(key, next);
            assertEquals(403, zotero(idiom, key, HttpRequest.newBuilder(URI.create(idiom.url(library + "/items")))).statusCode());
            assertEquals(200, zotero(idiom, next, HttpRequest.newBuilder(URI.create(idiom.url(library + "/items")))).statusCode());
            HttpResponse<String> check = idiom.post("/api/tools/desktop/check", "application/json", "");
            assertEquals(200, check.statusCode(), "the engine's own key still opens the library: " + check.body());
        }
    }

    @Test
    void aGroupLibraryIsServedWhenAskedAndWhatIdiomMakesIsNeverGiven() throws Exception {
        try (RunningIdiom idiom = new RunningIdiom(TestDatabase.freshUrl(), Map.of("files-dir", dir.toString()))) {
            JsonNode group = RunningIdiom.json(idiom.put("/api/tools/lab", "{\"kind\":\"zotero-api\",\"group\":true}"));
            assertTrue(group.has("groupID"), group.toString());
            String key = group.path("apiKey").asText();
            HttpResponse<String> groups = zotero(idiom, key, HttpRequest.newBuilder(URI.create(idiom.url("/users/" + group.path("userID").asLong()
                    + "/groups"))));
            assertEquals(200, groups.statusCode(), groups.body());
            assertEquals(group.path("groupID").asLong(), RunningIdiom.json(groups).get(0).path("id").asLong(), groups.body());
            assertEquals(200, zotero(idiom, key, HttpRequest.newBuilder(URI.create(idiom.url("/groups/" + group.path("groupID").asLong() + "/items"))))
                    .statusCode());

            for (String refused : new String[] {"{\"kind\":\"zotero-api\",\"secret\":\"mine\"}", "{\"kind\":\"zotero-api\",\"account\":\"users/5\"}",
                    "{\"kind\":\"zotero-api\",\"group\":\"yes\"}", "{\"kind\":\"bibtex\",\"baseUrl\":\"x.bib\",\"group\":true}"}) {
                HttpResponse<String> r = idiom.put("/api/tools/other", refused);
                assertEquals(400, r.statusCode(), refused + " → " + r.body());
            }
            JsonNode listed = RunningIdiom.json(idiom.get("/api/tools"));
            assertEquals(1, listed.size(), "nothing of a refused account is saved: " + listed);
        }
    }

    private static HttpResponse<String> zotero(RunningIdiom idiom, String key, HttpRequest.Builder request) {
        return idiom.anonymous(request.header("Zotero-API-Key", key).header("Zotero-API-Version", "3"));
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static void await(java.util.function.BooleanSupplier done, String what, Path bib) throws InterruptedException {
        long until = System.nanoTime() + 60_000_000_000L;
        while (!done.getAsBoolean()) {
            if (System.nanoTime() > until) {
                throw new AssertionError("not within 60 s: " + what + "\nthe file:\n" + read(bib));
            }
            Thread.sleep(200);
        }
    }
}
