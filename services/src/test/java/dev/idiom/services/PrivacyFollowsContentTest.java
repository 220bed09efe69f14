package dev.idiom.services;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.idiom.db.TestDatabase;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Privacy follows the content, over the real service (issue 48, finding 1 and 2): what only private
 * copies supplied stays private when those copies go — deleted in their file by a scheduled pull,
 * unlinked by a curator, merged away — and a DE a plain reader may not see answers as an id never
 * given out does, whatever its state.
 */
class PrivacyFollowsContentTest {
    private static RunningIdiom idiom;
    private static String reader;
    @TempDir
    static Path dir;
    private static Path marks;
    private static Path secret;

    /** Eleven public bookmarks beside those under test, so one deletion is no mass deletion. */
    private static String file(String... lines) {
        StringBuilder b = new StringBuilder("<!DOCTYPE NETSCAPE-Bookmark-file-1>\n<DL><p>\n");
        for (String l : lines) {
            b.append("    ").append(l).append('\n');
        }
        for (int i = 0; i < 11; i++) {
            b.append("    <DT><A HREF=\"https://example.org/filler/").append(i).append("\" ADD_DATE=\"1700000000\">Filler ").append(i).append("</A>\n");
        }
        return b.append("</DL><p>\n").toString();
    }

    private static final String DIARY = "<DT><A HREF=\"https://example.org/diary\" ADD_DATE=\"1700000000\" PRIVATE=\"1\" TAGS=\"diary\">Vellichor diary</A>";
    private static final String PLAN = "<DT><A HREF=\"https://example.org/plan\" ADD_DATE=\"1700000000\" PRIVATE=\"1\" TAGS=\"plans\">Quiddity plan</A>";
    private static final String SHARED = "<DT><A HREF=\"https://example.org/shared\" ADD_DATE=\"1700000000\" TAGS=\"web\">Shared page</A>";
    private static final String SHARED_PRIVATELY = "<DT><A HREF=\"https://example.org/shared\" ADD_DATE=\"1700000000\" PRIVATE=\"1\" "
            + "TAGS=\"confidential\">Shared page</A>\n    <DD>Sesquipedalian private note";

    @BeforeAll
    static void start() throws Exception {
        idiom = new RunningIdiom(TestDatabase.freshUrl(), Map.of("pull-interval-ms", "0", "check-interval-ms", "0", "sync-interval-ms", "0",
                "files-dir", dir.toString()));
        HttpResponse<String> k = idiom.post("/api/keys", "application/json", "{\"name\":\"portal\",\"role\":\"reader\"}");
        assertEquals(201, k.statusCode(), k.body());
        reader = RunningIdiom.json(k).get("key").asText();
        marks = dir.resolve("marks.html");
        Files.writeString(marks, file(DIARY, PLAN, SHARED));
        secret = dir.resolve("secret.html");
        Files.writeString(secret, file(SHARED_PRIVATELY));
        for (Path f : List.of(marks, secret)) {
            String name = f.getFileName().toString().replace(".html", "");
            HttpResponse<String> saved = idiom.put("/api/tools/" + name, "{\"kind\":\"bookmarks\",\"baseUrl\":\"" + f + "\"}");
            assertEquals(200, saved.statusCode(), saved.body());
            sync(name);
        }
    }

    @AfterAll
    static void stop() {
        idiom.close();
    }

    private static void sync(String account) {
        HttpResponse<String> r = idiom.post("/api/tools/" + account + "/sync", "application/json", "");
        assertEquals(200, r.statusCode(), r.body());
    }

    private static HttpResponse<String> asReader(String path) {
        return idiom.send(HttpRequest.newBuilder(URI.create(idiom.url(path))).header("Authorization", "Bearer " + reader).GET());
    }

    private static HttpResponse<String> soapAsReader(String bodyXml) {
        return idiom.send(HttpRequest.newBuilder(URI.create(idiom.url("/services/DigitalEntityService"))).header("Authorization", "Bearer " + reader)
                .header("Content-Type", "text/xml; charset=UTF-8").header("SOAPAction", "\"\"")
                .POST(HttpRequest.BodyPublishers.ofString(RunningIdiom.envelope(bodyXml))));
    }

    /** The DE whose URL is {@code url}, as the admin sees it (live ones only). */
    private static JsonNode entity(String url) {
        for (JsonNode de : RunningIdiom.json(idiom.get("/api/entities?limit=200")).get("entities")) {
            if (url.equals(de.path("metadata").path("url").asText())) {
                return de;
            }
        }
        throw new AssertionError("no DE with url " + url);
    }

    private static JsonNode created(String body) {
        HttpResponse<String> r = idiom.post("/api/entities", "application/json", body);
        assertEquals(201, r.statusCode(), r.body());
        return RunningIdiom.json(r);
    }

    private static HttpResponse<String> merge(JsonNode winner, JsonNode loser, boolean publish) {
        return idiom.post("/api/entities/" + winner.get("id").asText() + "/merge", "application/json",
                "{\"from\":\"" + loser.get("id").asText() + "\"" + (publish ? ",\"publish\":true" : "") + "}",
                "If-Match", "\"" + winner.get("version").asInt() + "\"");
    }

    /**
     * A plain reader learns nothing of {@code id} anywhere: each answer is the one an id never given
     * out gets (the id aside), and neither the feed nor search names it.
     */
    private static void invisibleToReader(String id) {
        String never = UUID.randomUUID().toString();
        List<String> paths = List.of("", "?source=db", "?version=1", "?version=99", "?asOf=2020-01-01T00:00:00Z", "?asOf=2999-01-01T00:00:00Z",
                "/events", "/replicas", "/provenance", "/conflicts");
        for (String p : paths) {
            HttpResponse<String> hidden = asReader("/api/entities/" + id + p);
            HttpResponse<String> none = asReader("/api/entities/" + never + p);
            assertEquals(404, hidden.statusCode(), p + ": " + hidden.body());
            assertEquals(none.body().replace(never, id), hidden.body(), p + ": the same answer as for an id never given out");
            assertTrue(hidden.headers().firstValue("Location").isEmpty(), p + " names where it went");
        }
        for (String op : List.of("moreInfo", "history")) {
            String hidden = soapAsReader("<de:" + op + "><de:id>" + id + "</de:id></de:" + op + ">").body();
            String none = soapAsReader("<de:" + op + "><de:id>" + never + "</de:id></de:" + op + ">").body();
            assertTrue(hidden.contains(":NotFound"), op + ": " + hidden);
            assertEquals(none.replace(never, id), hidden, op);
        }
        JsonNode feed = RunningIdiom.json(asReader("/api/changes?limit=1000"));
        feed.get("events").forEach(e -> assertFalse(e.get("entityId").asText().equals(id), "in the change feed: " + e));
        JsonNode listed = RunningIdiom.json(asReader("/api/entities?limit=200"));
        listed.get("entities").forEach(de -> assertFalse(de.get("id").asText().equals(id), "listed: " + de));
    }

    @Test
    void aPrivateBookmarkDeletedInItsFileLeavesAPlainReaderWith404Everywhere() throws Exception {
        String diary = entity("https://example.org/diary").get("id").asText();
        invisibleToReader(diary);
        Files.writeString(marks, file(PLAN, SHARED)); // deleted in the file; the pull does the rest, no curator involved
        sync("marks");
        HttpResponse<String> seen = idiom.get("/api/entities/" + diary);
        assertTrue(seen.statusCode() == 200 || seen.statusCode() == 410, seen.body());
        invisibleToReader(diary);
        assertEquals(0, RunningIdiom.json(asReader("/api/entities?q=vellichor")).get("total").asInt());
    }

    @Test
    void aPrivateBookmarksCopyUnlinkedByACuratorStaysHidden() {
        JsonNode plan = entity("https://example.org/plan");
        JsonNode copy = plan.get("replicas").get(0);
        HttpResponse<String> unlinked = idiom.post("/api/entities/" + plan.get("id").asText() + "/unlink", "application/json",
                "{\"tool\":\"" + copy.get("tool").asText() + "\",\"account\":\"" + copy.get("account").asText() + "\",\"remoteId\":\""
                        + copy.get("remoteId").asText() + "\"}", "If-Match", "\"" + plan.get("version").asInt() + "\"");
        assertEquals(200, unlinked.statusCode(), unlinked.body());
        assertEquals(0, RunningIdiom.json(unlinked).get("replicas").size());
        assertTrue(RunningIdiom.json(unlinked).get("private").asBoolean(), "the curator is told it is still private: " + unlinked.body());
        invisibleToReader(plan.get("id").asText());

        // published on purpose, it shows
        JsonNode now = RunningIdiom.json(idiom.get("/api/entities/" + plan.get("id").asText()));
        HttpResponse<String> published = idiom.patch("/api/entities/" + plan.get("id").asText(), "{\"private\":false}",
                "If-Match", "\"" + now.get("version").asInt() + "\"");
        assertEquals(200, published.statusCode(), published.body());
        assertEquals(200, asReader("/api/entities/" + plan.get("id").asText()).statusCode());
    }

    @Test
    void whatOnlyAPrivateCopyBroughtStaysWithheldAfterThatCopyIsDeleted() throws Exception {
        String shared = entity("https://example.org/shared").get("id").asText();
        Files.writeString(secret, file());
        sync("secret");
        JsonNode whole = RunningIdiom.json(idiom.get("/api/entities/" + shared));
        assertEquals(1, whole.get("replicas").size(), whole.toString());
        HttpResponse<String> shown = asReader("/api/entities/" + shared);
        assertEquals(200, shown.statusCode(), shown.body());
        assertFalse(shown.body().contains("confidential"), shown.body());
        assertFalse(shown.body().contains("Sesquipedalian"), shown.body());
        assertTrue(shown.body().contains("\"web\""), shown.body());
        assertEquals(0, RunningIdiom.json(asReader("/api/entities?q=sesquipedalian")).get("total").asInt());
        sync("marks"); // the engine may write the note into the curator's other copy: that publishes nothing to readers
        assertFalse(asReader("/api/entities/" + shared).body().contains("Sesquipedalian"));
        for (JsonNode e : RunningIdiom.json(asReader("/api/entities/" + shared + "/events"))) {
            assertFalse(e.toString().contains("confidential") || e.toString().contains("Sesquipedalian"), "history: " + e);
        }
    }

    @Test
    void aMergeWithAPrivateSideStaysPrivateUnlessTheCuratorPublishesIt() {
        JsonNode open = created("{\"metadata\":{\"title\":\"Open winner\",\"url\":\"https://example.org/w1\"}}");
        JsonNode closed = created("{\"metadata\":{\"title\":\"Closed loser\",\"abstract\":\"Lugubrious secret\"},\"private\":true}");
        HttpResponse<String> merged = merge(open, closed, false);
        assertEquals(200, merged.statusCode(), merged.body());
        assertTrue(RunningIdiom.json(merged).get("private").asBoolean(), merged.body());
        invisibleToReader(open.get("id").asText());
        invisibleToReader(closed.get("id").asText());
        assertEquals(0, RunningIdiom.json(asReader("/api/entities?q=lugubrious")).get("total").asInt());

        // a public loser merged into a private winner: no redirect naming the winner
        JsonNode hiddenWinner = created("{\"metadata\":{\"title\":\"Hidden winner\"},\"private\":true}");
        JsonNode publicLoser = created("{\"metadata\":{\"title\":\"Public loser\"}}");
        assertEquals(200, merge(hiddenWinner, publicLoser, false).statusCode());
        invisibleToReader(publicLoser.get("id").asText());

        JsonNode other = created("{\"metadata\":{\"title\":\"Published winner\"}}");
        JsonNode marked = created("{\"metadata\":{\"title\":\"Published loser\"},\"private\":true}");
        HttpResponse<String> published = merge(other, marked, true);
        assertEquals(200, published.statusCode(), published.body());
        assertFalse(RunningIdiom.json(published).path("private").asBoolean(), published.body());
        assertEquals(200, asReader("/api/entities/" + other.get("id").asText()).statusCode());
    }

    @Test
    void aPrivateDeInTheTrashOrPurgedIsNotFoundRatherThanGone() {
        JsonNode closed = created("{\"metadata\":{\"title\":\"Trashed secret\"},\"private\":true}");
        String id = closed.get("id").asText();
        HttpResponse<String> deleted = idiom.send(HttpRequest.newBuilder(URI.create(idiom.url("/api/entities/" + id))).DELETE()
                .header("If-Match", "\"" + closed.get("version").asInt() + "\""));
        assertTrue(deleted.statusCode() == 200 || deleted.statusCode() == 204, deleted.body());
        assertEquals(410, idiom.get("/api/entities/" + id).statusCode(), "the curator is told where it is");
        invisibleToReader(id);
        HttpResponse<String> purged = idiom.delete("/api/trash/" + id);
        assertTrue(purged.statusCode() / 100 == 2, purged.statusCode() + " " + purged.body());
        invisibleToReader(id);
    }
}
