package dev.idiom.services;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.idiom.db.TestDatabase;
import dev.idiom.wrappers.zotero.ZoteroStub;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A DE's life over the real service: deleted to Idiom's trash (its copies following each account's
 * deletions setting), restored with its copies, merged, split and reverted, each reaching the
 * copies in the tools through the engine (curators' syncs drive it here).
 */
class EntityLifecycleOverRestTest {
    @TempDir
    Path dir;

    private static String item(String title, String url) {
        return "{\"itemType\":\"journalArticle\",\"title\":\"" + title + "\",\"creators\":[{\"creatorType\":\"author\",\"firstName\":\"Alan\","
                + "\"lastName\":\"Demers\"}],\"date\":\"1987\",\"url\":\"" + url + "\",\"tags\":[{\"tag\":\"gossip\"}],\"collections\":[],\"relations\":{}}";
    }

    private RunningIdiom idiom(String... settings) {
        Map<String, String> s = new HashMap<>(Map.of("files-dir", dir.toString(), "sync-interval-ms", "0", "pull-interval-ms", "0"));
        for (int i = 0; i < settings.length; i += 2) {
            s.put(settings[i], settings[i + 1]);
        }
        return new RunningIdiom(TestDatabase.freshUrl(), s);
    }

    private static void zoteroAccount(RunningIdiom idiom, ZoteroStub zotero, String deletions) {
        put(idiom, "zotero", "{\"kind\":\"zotero\",\"baseUrl\":\"" + zotero.uri() + "\",\"account\":\"" + ZoteroStub.LIBRARY + "\",\"secret\":\""
                + ZoteroStub.KEY + "\",\"deletions\":\"" + deletions + "\"}");
    }

    private static void put(RunningIdiom idiom, String name, String json) {
        HttpResponse<String> r = idiom.put("/api/tools/" + name, json);
        assertEquals(200, r.statusCode(), r.body());
    }

    private static void sync(RunningIdiom idiom, String name) {
        HttpResponse<String> r = idiom.post("/api/tools/" + name + "/sync", "application/json", "");
        assertEquals(200, r.statusCode(), r.body());
    }

    /** The one DE holding the Zotero item {@code key}. */
    private static JsonNode holderOf(RunningIdiom idiom, String key) {
        JsonNode found = null;
        for (JsonNode de : RunningIdiom.json(idiom.get("/api/entities?limit=200")).get("entities")) {
            for (JsonNode r : de.get("replicas")) {
                if (r.get("tool").asText().equals("zotero") && r.get("remoteId").asText().equals(key)) {
                    assertTrue(found == null, "two DEs hold " + key);
                    found = de;
                }
            }
        }
        return found;
    }

    private static HttpResponse<String> withVersion(RunningIdiom idiom, String method, String path, int version, String body) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(idiom.url(path))).header("If-Match", "\"" + version + "\"");
        return idiom.send(body == null ? b.method(method, HttpRequest.BodyPublishers.noBody())
                : b.header("Content-Type", "application/json").method(method, HttpRequest.BodyPublishers.ofString(body)));
    }

    private static boolean trashedInZotero(ZoteroStub zotero, String key) {
        return zotero.data(key).path("deleted").asInt(0) == 1 || zotero.data(key).path("deleted").asBoolean(false);
    }

    @Test
    void aDeDeletedInIdiomGoesToZoterosTrashWhereDeletionsPropagateStaysInAKeepAccountAndComesBackWithItsCopiesWhenRestored() throws Exception {
        Path bib = Files.writeString(dir.resolve("library.bib"), "");
        try (ZoteroStub zotero = new ZoteroStub(); RunningIdiom idiom = idiom()) {
            String key = zotero.addRemotely(item("Epidemic algorithms", "https://example.org/epidemic"));
            String other = zotero.addRemotely(item("Managing update conflicts in Bayou", "https://example.org/bayou"));
            zoteroAccount(idiom, zotero, "propagate");
            put(idiom, "library", "{\"kind\":\"bibtex\",\"baseUrl\":\"" + bib + "\",\"mirror\":\"all\"}"); // deletions: keep (the default)
            assertEquals("keep", RunningIdiom.json(idiom.get("/api/tools")).get(0).get("deletions").asText());
            sync(idiom, "zotero");
            sync(idiom, "library");
            JsonNode de = holderOf(idiom, key);
            String id = de.get("id").asText();
            assertEquals(2, de.get("replicas").size(), de.toString());
            String fileBefore = Files.readString(bib);
            assertTrue(fileBefore.contains("Epidemic algorithms"), fileBefore);

            HttpResponse<String> unversioned = idiom.delete("/api/entities/" + id);
            assertEquals(428, unversioned.statusCode(), unversioned.body());
            assertEquals(412, withVersion(idiom, "DELETE", "/api/entities/" + id, de.get("version").asInt() - 1, null).statusCode());
            HttpResponse<String> deleted = withVersion(idiom, "DELETE", "/api/entities/" + id, de.get("version").asInt(), null);
            assertEquals(200, deleted.statusCode(), deleted.body());
            assertEquals("trashed", RunningIdiom.json(deleted).get("lifecycle").asText());
            HttpResponse<String> gone = idiom.get("/api/entities/" + id);
            assertEquals(410, gone.statusCode(), gone.body());
            assertTrue(gone.body().contains("restore"), gone.body());
            assertEquals(0, RunningIdiom.json(idiom.get("/api/entities?q=epidemic")).get("total").asInt(), "search does not find it");
            JsonNode trash = RunningIdiom.json(idiom.get("/api/trash"));
            assertEquals(id, trash.get("entities").get(0).get("entity").get("id").asText(), trash.toString());
            assertEquals(30, trash.get("retentionDays").asInt());
            HttpResponse<String> edit = idiom.patch("/api/entities/" + id, "{\"metadata\":{\"title\":\"x\"}}", "If-Match",
                    "\"" + RunningIdiom.json(deleted).get("version").asInt() + "\"");
            assertEquals(410, edit.statusCode(), "a DE in the trash is not changed: " + edit.body());

            // the engine carries the deletion, under the mass-delete guard: 1 of the account's 2 copies is more than 10%, so the
            // account is held until a curator allows it; then Zotero's copy goes to its trash and the file (keep) is untouched
            sync(idiom, "zotero");
            assertFalse(trashedInZotero(zotero, key), "held first");
            HttpResponse<String> held = idiom.post("/api/tools/zotero/sync", "application/json", "");
            assertEquals(409, held.statusCode(), held.body());
            assertTrue(held.body().contains("would remove 1 of the 2 copies"), held.body());
            assertEquals(200, idiom.post("/api/tools/zotero/resume?allowDeletions=true", "application/json", "").statusCode());
            sync(idiom, "zotero");
            sync(idiom, "library");
            assertTrue(trashedInZotero(zotero, key), zotero.data(key).toString());
            assertFalse(trashedInZotero(zotero, other), "only that DE's copy");
            assertEquals(fileBefore, Files.readString(bib), "a keep account keeps its copy");
            JsonNode history = RunningIdiom.json(idiom.get("/api/entities/" + id + "/events"));
            assertTrue(history.toString().contains("the record was deleted in Idiom"), history.toString());

            // restored: live again, its Zotero item out of the trash (the same item), linked again
            HttpResponse<String> restored = idiom.post("/api/entities/" + id + "/restore", "application/json", "");
            assertEquals(200, restored.statusCode(), restored.body());
            assertFalse(RunningIdiom.json(restored).has("lifecycle"));
            assertEquals(409, idiom.post("/api/entities/" + id + "/restore", "application/json", "").statusCode(), "not in the trash any more");
            sync(idiom, "zotero");
            assertFalse(trashedInZotero(zotero, key), zotero.data(key).toString());
            JsonNode back = RunningIdiom.json(idiom.get("/api/entities/" + id));
            assertEquals(2, back.get("replicas").size(), back.toString());
            assertEquals(id, holderOf(idiom, key).get("id").asText());
            sync(idiom, "zotero"); // a third round: nothing moves
            assertEquals(back.get("version").asInt(), RunningIdiom.json(idiom.get("/api/entities/" + id)).get("version").asInt());
            assertEquals(fileBefore, Files.readString(bib));
            assertEquals(1, RunningIdiom.json(idiom.get("/api/entities?q=epidemic")).get("total").asInt());

            // SOAP alike: deleteDE, then moreInfo is the fault Gone, and restoreDE brings it back
            int v = back.get("version").asInt();
            HttpResponse<String> soapDeleted = idiom.soap("<de:deleteDE><de:id>" + id + "</de:id><de:expectedVersion>" + v + "</de:expectedVersion></de:deleteDE>");
            assertEquals(200, soapDeleted.statusCode(), soapDeleted.body());
            assertTrue(soapDeleted.body().contains("<lifecycle>trashed</lifecycle>") || soapDeleted.body().contains("lifecycle>trashed<"), soapDeleted.body());
            HttpResponse<String> soapGone = idiom.soap("<de:moreInfo><de:id>" + id + "</de:id></de:moreInfo>");
            assertEquals(500, soapGone.statusCode());
            assertTrue(soapGone.body().contains("Gone"), soapGone.body());
            assertEquals(200, idiom.soap("<de:restoreDE><de:id>" + id + "</de:id></de:restoreDE>").statusCode());
            assertEquals(200, idiom.get("/api/entities/" + id).statusCode());
        }
    }

    @Test
    void aCopyDeletedInAPropagatingAccountDeletesItsDeOnlyWhenItWasTheLastCopy() throws Exception {
        Path bib = Files.writeString(dir.resolve("library.bib"), "");
        try (ZoteroStub zotero = new ZoteroStub(); RunningIdiom idiom = idiom("mass-delete-percent", "100")) {
            String alone = zotero.addRemotely(item("Epidemic algorithms", "https://example.org/epidemic"));
            String copied = zotero.addRemotely(item("Managing update conflicts in Bayou", "https://example.org/bayou"));
            zoteroAccount(idiom, zotero, "propagate");
            sync(idiom, "zotero");
            String aloneId = holderOf(idiom, alone).get("id").asText();
            String copiedId = holderOf(idiom, copied).get("id").asText();
            put(idiom, "library", "{\"kind\":\"bibtex\",\"baseUrl\":\"" + bib + "\"}");
            assertEquals(201, idiom.post("/api/entities/" + copiedId + "/replicas", "application/json", "{\"tool\":\"library\"}").statusCode());

            zotero.trash(alone);
            zotero.trash(copied);
            sync(idiom, "zotero");
            assertEquals(410, idiom.get("/api/entities/" + aloneId).statusCode(), "its last copy was deleted where deletions propagate");
            JsonNode kept = RunningIdiom.json(idiom.get("/api/entities/" + copiedId));
            assertEquals(1, kept.get("replicas").size(), "another copy remains: only unlinked: " + kept);
            assertEquals("bibtex", kept.get("replicas").get(0).get("tool").asText());
            assertEquals(aloneId, RunningIdiom.json(idiom.get("/api/trash")).get("entities").get(0).get("entity").get("id").asText());
        }
    }

    @Test
    void aCopyDeletedInAKeepAccountOnlyUnlinksAndAnAdminPurgesTheTrash() throws Exception {
        try (ZoteroStub zotero = new ZoteroStub(); RunningIdiom idiom = idiom("mass-delete-percent", "100")) {
            String key = zotero.addRemotely(item("Epidemic algorithms", "https://example.org/epidemic"));
            zoteroAccount(idiom, zotero, "keep");
            sync(idiom, "zotero");
            JsonNode de = holderOf(idiom, key);
            String id = de.get("id").asText();
            zotero.trash(key);
            sync(idiom, "zotero");
            JsonNode after = RunningIdiom.json(idiom.get("/api/entities/" + id));
            assertEquals(0, after.get("replicas").size(), after.toString());
            assertEquals(200, withVersion(idiom, "DELETE", "/api/entities/" + id, after.get("version").asInt(), null).statusCode());
            HttpResponse<String> purged = idiom.delete("/api/trash/" + id);
            assertEquals(200, purged.statusCode(), purged.body());
            assertEquals("purged", RunningIdiom.json(purged).get("lifecycle").asText());
            assertFalse(purged.body().contains("Epidemic"), "its content is gone: " + purged.body());
            HttpResponse<String> restore = idiom.post("/api/entities/" + id + "/restore", "application/json", "");
            assertEquals(410, restore.statusCode(), restore.body());
            assertEquals(0, RunningIdiom.json(idiom.get("/api/trash")).get("entities").size());
            assertEquals(409, idiom.delete("/api/trash/" + id).statusCode(), "only a DE in the trash is purged");
        }
    }

    @Test
    void mergeSplitAndRevertReachTheReplicas() throws Exception {
        Path bib = Files.writeString(dir.resolve("library.bib"), "");
        try (ZoteroStub zotero = new ZoteroStub(); RunningIdiom idiom = idiom()) {
            String a = zotero.addRemotely(item("Epidemic algorithms for replicated database maintenance", "https://example.org/epidemic"));
            String b = zotero.addRemotely(item("Epidemic algorithms (PODC)", "https://example.org/podc87").replace("gossip", "podc"));
            zoteroAccount(idiom, zotero, "keep");
            put(idiom, "library", "{\"kind\":\"bibtex\",\"baseUrl\":\"" + bib + "\"}");
            sync(idiom, "zotero");
            JsonNode winner = holderOf(idiom, a);
            JsonNode loser = holderOf(idiom, b);
            String w = winner.get("id").asText();
            String l = loser.get("id").asText();
            assertFalse(w.equals(l), "the matcher kept them apart");
            assertEquals(201, idiom.post("/api/entities/" + w + "/replicas", "application/json", "{\"tool\":\"library\"}").statusCode());
            winner = RunningIdiom.json(idiom.get("/api/entities/" + w));

            // merge: one copy per account, so the loser's Zotero item (the account keeps deletions) is named for the curator and
            // left as it is; the winner takes the field chosen and the tags; the loser's id redirects
            HttpResponse<String> merged = withVersion(idiom, "POST", "/api/entities/" + w + "/merge", winner.get("version").asInt(),
                    "{\"from\":\"" + l + "\",\"take\":[\"url\"]}");
            assertEquals(200, merged.statusCode(), merged.body());
            JsonNode m = RunningIdiom.json(merged);
            assertEquals(2, m.get("replicas").size(), "its Zotero item and its file entry: " + m);
            assertEquals(b, m.get("duplicateCopies").get(0).get("remoteId").asText(), m.toString());
            assertEquals("keep", m.get("duplicateCopies").get(0).get("removal").asText());
            assertEquals("https://example.org/podc87", m.get("metadata").get("url").asText(), "the field taken from the other");
            assertEquals("[\"gossip\",\"podc\"]", m.get("metadata").get("tags").toString(), "tags joined");
            HttpResponse<String> redirected = idiom.get("/api/entities/" + l);
            assertEquals(308, redirected.statusCode(), redirected.body());
            assertTrue(redirected.headers().firstValue("Location").orElseThrow().endsWith("/api/entities/" + w), redirected.headers().toString());
            sync(idiom, "zotero");
            sync(idiom, "library");
            assertEquals("Epidemic algorithms (PODC)", zotero.data(b).get("title").asText(), "the duplicate is left as it is");
            assertEquals("https://example.org/podc87", zotero.data(a).get("url").asText(), "the winner's own copy got the field taken");
            assertTrue(Files.readString(bib).contains("https://example.org/podc87"), Files.readString(bib));

            // split: the file's copy goes off into a new DE; a change to it reaches that copy alone
            JsonNode current = RunningIdiom.json(idiom.get("/api/entities/" + w));
            String entry = null;
            for (JsonNode r : current.get("replicas")) {
                if (r.get("tool").asText().equals("bibtex")) {
                    entry = r.get("remoteId").asText();
                }
            }
            HttpResponse<String> split = withVersion(idiom, "POST", "/api/entities/" + w + "/split", current.get("version").asInt(),
                    "{\"tool\":\"bibtex\",\"account\":\"library.bib\",\"remoteId\":\"" + entry + "\"}");
            assertEquals(201, split.statusCode(), split.body());
            JsonNode c = RunningIdiom.json(split);
            assertEquals(entry, c.get("replicas").get(0).get("remoteId").asText());
            assertEquals(1, RunningIdiom.json(idiom.get("/api/entities/" + w)).get("replicas").size());
            HttpResponse<String> renamed = idiom.patch("/api/entities/" + c.get("id").asText(), "{\"metadata\":{\"title\":\"Epidemic algorithms (PODC)\"}}",
                    "If-Match", "\"" + c.get("version").asInt() + "\"");
            assertEquals(200, renamed.statusCode(), renamed.body());
            sync(idiom, "zotero");
            sync(idiom, "library");
            assertTrue(Files.readString(bib).contains("{Epidemic algorithms (PODC)}"), Files.readString(bib));
            assertEquals("Epidemic algorithms for replicated database maintenance", zotero.data(a).get("title").asText());

            // revert: a wrong title reaches Zotero, the revert to the version before puts the right one back there
            JsonNode before = RunningIdiom.json(idiom.get("/api/entities/" + w));
            int good = before.get("version").asInt();
            HttpResponse<String> wrong = idiom.patch("/api/entities/" + w, "{\"metadata\":{\"title\":\"Wrong title\"}}", "If-Match", "\"" + good + "\"");
            assertEquals(200, wrong.statusCode(), wrong.body());
            sync(idiom, "zotero");
            assertEquals("Wrong title", zotero.data(a).get("title").asText());
            int now = RunningIdiom.json(idiom.get("/api/entities/" + w)).get("version").asInt();
            HttpResponse<String> reverted = withVersion(idiom, "POST", "/api/entities/" + w + "/revert?version=" + good, now, null);
            assertEquals(200, reverted.statusCode(), reverted.body());
            assertEquals("Epidemic algorithms for replicated database maintenance", RunningIdiom.json(reverted).get("metadata").get("title").asText());
            sync(idiom, "zotero");
            assertEquals("Epidemic algorithms for replicated database maintenance", zotero.data(a).get("title").asText());
            HttpResponse<String> badVersion = withVersion(idiom, "POST", "/api/entities/" + w + "/revert?version=999",
                    RunningIdiom.json(idiom.get("/api/entities/" + w)).get("version").asInt(), null);
            assertEquals(409, badVersion.statusCode(), "a well-formed version the entity's state refuses: " + badVersion.body());
            assertTrue(badVersion.body().contains("from 1 to"), badVersion.body());
            assertTrue(RunningIdiom.json(idiom.get("/api/entities/" + w + "/events")).toString().contains("revert to version " + good));
        }
    }

    @Test
    void aReplicaUnlinkedByHandIsLeftAloneByLaterPullsAndPushes() throws Exception {
        Path bib = Files.writeString(dir.resolve("library.bib"), "");
        try (ZoteroStub zotero = new ZoteroStub(); RunningIdiom idiom = idiom()) {
            String key = zotero.addRemotely(item("Epidemic algorithms", "https://example.org/epidemic"));
            zoteroAccount(idiom, zotero, "keep");
            put(idiom, "library", "{\"kind\":\"bibtex\",\"baseUrl\":\"" + bib + "\"}");
            sync(idiom, "zotero");
            String id = holderOf(idiom, key).get("id").asText();
            assertEquals(201, idiom.post("/api/entities/" + id + "/replicas", "application/json", "{\"tool\":\"library\"}").statusCode());
            JsonNode de = RunningIdiom.json(idiom.get("/api/entities/" + id));
            String copy = "{\"tool\":\"zotero\",\"account\":\"" + ZoteroStub.LIBRARY + "\",\"remoteId\":\"" + key + "\"}";
            assertEquals(428, idiom.post("/api/entities/" + id + "/unlink", "application/json", copy).statusCode());
            HttpResponse<String> unknown = withVersion(idiom, "POST", "/api/entities/" + id + "/unlink", de.get("version").asInt(),
                    copy.replace(key, "NOSUCHKY"));
            assertEquals(404, unknown.statusCode(), unknown.body());
            HttpResponse<String> unlinked = withVersion(idiom, "POST", "/api/entities/" + id + "/unlink", de.get("version").asInt(), copy);
            assertEquals(200, unlinked.statusCode(), unlinked.body());
            assertEquals(1, RunningIdiom.json(unlinked).get("replicas").size());
            assertEquals(key, RunningIdiom.json(unlinked).get("detached").get(0).get("remoteId").asText());

            // the copy changes in Zotero: the pull neither links it again nor makes it a new DE
            zotero.editRemotely(key, "Epidemic algorithms, edited in Zotero");
            sync(idiom, "zotero");
            assertEquals(null, holderOf(idiom, key), "not linked again");
            assertEquals(1, RunningIdiom.json(idiom.get("/api/entities?limit=200")).get("entities").size(), "no second DE");
            JsonNode after = RunningIdiom.json(idiom.get("/api/entities/" + id));
            assertEquals("Epidemic algorithms", after.get("metadata").get("title").asText());
            // and a change in Idiom reaches the file, not the unlinked copy
            HttpResponse<String> renamed = idiom.patch("/api/entities/" + id, "{\"metadata\":{\"title\":\"Epidemic algorithms (PODC 1987)\"}}",
                    "If-Match", "\"" + after.get("version").asInt() + "\"");
            assertEquals(200, renamed.statusCode(), renamed.body());
            sync(idiom, "library");
            sync(idiom, "zotero");
            assertTrue(Files.readString(bib).contains("Epidemic algorithms (PODC 1987)"));
            assertEquals("Epidemic algorithms, edited in Zotero", zotero.data(key).get("title").asText());
        }
    }
}
