package dev.idiom.services;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.idiom.db.TestDatabase;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Zotero desktop's sync, replayed against a library Idiom serves: {@link Desktop} makes the requests
 * desktop's sync engine makes, in its order (zotero/zotero {@code syncEngine.js}, {@code
 * syncAPIClient.js}): {@code keys/current}; upload first, in batches with {@code
 * If-Unmodified-Since-Version}, a 412 making it download and try again; then {@code settings?since=}
 * (304 ends it), {@code format=versions&since=} of each object type (top-level items first), the
 * objects fetched by {@code itemKey=} in fifties, {@code deleted?since=}; and the full sync when an
 * object's upload meets a newer object. Two desktops and a mirrored {@code .bib} file converge.
 */
class ZoteroDesktopSyncTest {
    @TempDir
    Path dir;

    @Test
    void twoDesktopsSyncingOneServedLibraryAndAMirroredBibFileConvergeAndAnEditInTheFileReachesBothDesktops() throws Exception {
        Path bib = Files.writeString(dir.resolve("library.bib"), "");
        try (RunningIdiom idiom = new RunningIdiom(TestDatabase.freshUrl(), Map.of("files-dir", dir.toString(), "sync-interval-ms", "200",
                "pull-interval-ms", "500"))) {
            JsonNode account = RunningIdiom.json(idiom.put("/api/tools/desktop", "{\"kind\":\"zotero-api\",\"mirror\":\"all\"}"));
            assertEquals(200, idiom.put("/api/tools/library", "{\"kind\":\"bibtex\",\"baseUrl\":\"library.bib\",\"mirror\":\"all\"}").statusCode());
            Desktop a = new Desktop(idiom, account.path("apiKey").asText());
            Desktop b = new Desktop(idiom, account.path("apiKey").asText());

            // desktop A makes 60 items and syncs: two upload batches of 50 and 10, each at the library version it knows
            for (int i = 1; i <= 60; i++) {
                a.create("Epidemic algorithms, part " + i);
            }
            a.sync();
            assertEquals(List.of("GET keys/current", "POST items 50", "POST items 10"), a.requests(), "A's first sync: an upload that succeeds ends it");
            assertEquals(60, a.items.size());
            // desktop B, empty, downloads all of it: versions of top-level items, then of all, then fifties by itemKey, then deletions
            b.sync();
            assertEquals(a.items.keySet(), b.items.keySet());
            assertTrue(b.requests().containsAll(List.of("GET settings 200", "GET items/top versions", "GET items versions", "GET items 50",
                    "GET items 10", "GET deleted")), b.requests().toString());

            // each edits an item; B's upload meets A's newer library (412), downloads A's change, uploads again
            String itemOne = a.keyOf("Epidemic algorithms, part 1");
            String itemTwo = b.keyOf("Epidemic algorithms, part 2");
            a.edit(itemOne, "Epidemic algorithms for replicated database maintenance");
            a.sync();
            b.edit(itemTwo, "Bayou: replicated database services");
            b.sync();
            assertTrue(b.requests().containsAll(List.of("POST items 412", "GET items 1", "POST items 1")), b.requests().toString());
            a.sync();
            assertEquals(a.titles(), b.titles(), "the two desktops hold the same items");
            assertEquals("Bayou: replicated database services", a.title(itemTwo));

            // the engine carries both edits into the mirrored file
            await(() -> read(bib).contains("Epidemic algorithms for replicated database maintenance") && read(bib).contains("Bayou: replicated database services")
                    && read(bib).split("@article\\{|@book\\{", -1).length - 1 == 60, "both edits and all 60 items in the .bib", bib);

            // an edit in the file reaches both desktops' next incremental sync
            Files.writeString(bib, read(bib).replace("Epidemic algorithms, part 3}", "Epidemic algorithms, part three}"));
            String itemThree = a.keyOf("Epidemic algorithms, part 3");
            await(() -> {
                a.sync();
                return "Epidemic algorithms, part three".equals(a.title(itemThree));
            }, "the file's edit in desktop A", bib);
            b.sync();
            assertEquals("Epidemic algorithms, part three", b.title(itemThree));
            assertEquals(a.titles(), b.titles());

            // an object conflict: A edits an item B changed since A last synced; A's upload is refused for that item, and A syncs in full
            String itemFour = a.keyOf("Epidemic algorithms, part 4");
            b.edit(itemFour, "Coda: a highly available file system");
            b.sync();
            a.edit(itemFour, "Part four, edited on A");
            a.libraryVersion = b.libraryVersion; // as after A's own upload elsewhere: the library is current, the object is not
            a.sync();
            assertTrue(a.requests().contains("full sync"), a.requests().toString());
            assertEquals("Coda: a highly available file system", a.title(itemFour), "after a full sync the library's item wins (desktop asks its user)");
            assertEquals(a.titles(), b.titles());

            // quiet: nothing to upload, and settings?since= answers 304 and ends the sync
            a.sync();
            assertEquals(List.of("GET keys/current", "GET settings 304"), a.requests());
        }
    }

    private static String read(Path p) {
        try {
            return Files.readString(p);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static void await(BooleanSupplier done, String what, Path bib) throws InterruptedException {
        long until = System.nanoTime() + 60_000_000_000L;
        while (System.nanoTime() < until) {
            if (done.getAsBoolean()) {
                return;
            }
            Thread.sleep(200);
        }
        throw new AssertionError(what + " did not happen within 60 s; the .bib holds:\n" + read(bib));
    }

    /** A Zotero desktop's local library, synced as desktop syncs it. */
    private static final class Desktop {
        private static final int UPLOAD_BATCH = 50;
        private static final int DOWNLOAD_BATCH = 50;
        private final RunningIdiom idiom;
        private final String key;
        private long userID;
        long libraryVersion;
        /** The local items: key → the API's data (with its version). */
        final Map<String, ObjectNode> items = new TreeMap<>();
        /** Keys changed locally since the last sync; new items have no key until uploaded. */
        private final Set<String> changed = new LinkedHashSet<>();
        private final List<ObjectNode> unsaved = new ArrayList<>();
        private final List<String> log = new ArrayList<>();

        Desktop(RunningIdiom idiom, String key) {
            this.idiom = idiom;
            this.key = key;
        }

        void create(String title) {
            unsaved.add(RunningIdiom.JSON.createObjectNode().put("itemType", "book").put("title", title));
        }

        void edit(String itemKey, String title) {
            items.get(itemKey).put("title", title);
            changed.add(itemKey);
        }

        String keyOf(String title) {
            return items.entrySet().stream().filter(e -> title.equals(e.getValue().path("title").asText())).map(Map.Entry::getKey).findFirst().orElseThrow();
        }

        String title(String itemKey) {
            return items.get(itemKey).path("title").asText();
        }

        Map<String, String> titles() {
            Map<String, String> out = new TreeMap<>();
            items.forEach((k, v) -> out.put(k, v.path("title").asText()));
            return out;
        }

        /** The requests of the last sync, named as desktop's debug output would. */
        List<String> requests() {
            return List.copyOf(log);
        }

        /** {@code Zotero.Sync.Data.Engine.start}: upload until it succeeds or there is nothing to upload, downloading between. */
        void sync() {
            log.clear();
            JsonNode info = json(get("keys/current", "keys/current", null));
            userID = info.path("userID").asLong();
            boolean reset = false;
            while (true) {
                Upload result = upload();
                switch (result) {
                    case SUCCESS -> {
                        return;
                    }
                    case NOTHING -> {
                        download();
                        return;
                    }
                    case LIBRARY_CONFLICT -> download();
                    case OBJECT_CONFLICT -> {
                        if (reset) {
                            throw new AssertionError("the library was reset once already: " + log);
                        }
                        reset = true;
                        fullSync();
                    }
                }
            }
        }

        private enum Upload { SUCCESS, NOTHING, LIBRARY_CONFLICT, OBJECT_CONFLICT }

        /** {@code _startUpload}: new and changed items in batches, each at the library version this desktop knows. */
        private Upload upload() {
            List<ObjectNode> batch = new ArrayList<>();
            for (String k : changed) {
                batch.add(items.get(k).deepCopy());
            }
            batch.addAll(unsaved);
            if (batch.isEmpty()) {
                return Upload.NOTHING;
            }
            for (int from = 0; from < batch.size(); from += UPLOAD_BATCH) {
                List<ObjectNode> part = batch.subList(from, Math.min(batch.size(), from + UPLOAD_BATCH));
                ArrayNode body = RunningIdiom.JSON.createArrayNode();
                part.forEach(body::add);
                HttpResponse<String> r = idiom.anonymous(request(path("items"))
                        .header("Content-Type", "application/json").header("If-Unmodified-Since-Version", Long.toString(libraryVersion))
                        .POST(HttpRequest.BodyPublishers.ofString(body.toString())));
                log.add("POST items " + (r.statusCode() == 412 ? "412" : Integer.toString(part.size())));
                if (r.statusCode() == 412) {
                    return Upload.LIBRARY_CONFLICT;
                }
                assertEquals(200, r.statusCode(), r.body());
                libraryVersion = version(r);
                JsonNode answer = json(r);
                boolean conflict = false;
                for (int i = 0; i < part.size(); i++) {
                    String index = Integer.toString(i);
                    ObjectNode sent = part.get(i);
                    if (answer.path("successful").has(index)) {
                        JsonNode saved = answer.path("successful").path(index);
                        ObjectNode data = (ObjectNode) saved.path("data").deepCopy();
                        items.put(saved.path("key").asText(), data);
                        changed.remove(saved.path("key").asText());
                        unsaved.remove(sent);
                    } else if (answer.path("unchanged").has(index)) {
                        changed.remove(answer.path("unchanged").path(index).asText());
                    } else {
                        JsonNode failed = answer.path("failed").path(index);
                        assertEquals(412, failed.path("code").asInt(), "only a stale object may fail here: " + answer);
                        conflict = true;
                    }
                }
                if (conflict) {
                    return Upload.OBJECT_CONFLICT;
                }
            }
            return Upload.SUCCESS;
        }

        /** {@code _startDownload}: settings first (304: nothing changed), then versions and objects, then deletions; restart if the library moved. */
        private void download() {
            while (true) {
                HttpResponse<String> settings = get(path("settings") + "?since=" + libraryVersion, "settings", libraryVersion);
                log.set(log.size() - 1, "GET settings " + settings.statusCode());
                if (settings.statusCode() == 304) {
                    return;
                }
                long newVersion = version(settings);
                if (!downloadItems(libraryVersion, newVersion)) {
                    continue; // the library changed while it was read: from the start
                }
                HttpResponse<String> deleted = get(path("deleted") + "?since=" + libraryVersion, "deleted", null);
                if (version(deleted) != newVersion) {
                    continue;
                }
                for (JsonNode k : json(deleted).path("items")) {
                    items.remove(k.asText());
                    changed.remove(k.asText());
                }
                libraryVersion = newVersion;
                return;
            }
        }

        /** Versions of top-level items, then of all items, since {@code since}; the newer ones fetched. False if the library moved meanwhile. */
        private boolean downloadItems(long since, long expected) {
            for (String which : List.of("items/top", "items")) {
                HttpResponse<String> versions = get(path(which) + "?format=versions" + (since > 0 ? "&since=" + since : ""), which + " versions", null);
                if (version(versions) != expected) {
                    return false;
                }
                List<String> wanted = new ArrayList<>();
                json(versions).fields().forEachRemaining(e -> {
                    ObjectNode local = items.get(e.getKey());
                    if (local == null || local.path("version").asLong() != e.getValue().asLong()) {
                        wanted.add(e.getKey());
                    }
                });
                fetch(wanted);
            }
            return true;
        }

        /** {@code downloadObjects}: by itemKey, fifty at a time; a remote item replaces the local one (a local edit of it is the user's conflict). */
        private void fetch(List<String> keys) {
            for (int from = 0; from < keys.size(); from += DOWNLOAD_BATCH) {
                List<String> part = keys.subList(from, Math.min(keys.size(), from + DOWNLOAD_BATCH));
                HttpResponse<String> r = get(path("items") + "?itemKey=" + String.join(",", part) + "&includeTrashed=1", "items " + part.size(), null);
                for (JsonNode item : json(r)) {
                    String k = item.path("key").asText();
                    if (!changed.contains(k)) {
                        items.put(k, (ObjectNode) item.path("data").deepCopy());
                    }
                }
            }
        }

        /** {@code _fullSync}: every version, every object that differs fetched (local edits of them given up), what is gone removed. */
        private void fullSync() {
            log.add("full sync");
            HttpResponse<String> versions = get(path("items") + "?format=versions", "items versions", null);
            Map<String, Long> remote = new LinkedHashMap<>();
            json(versions).fields().forEachRemaining(e -> remote.put(e.getKey(), e.getValue().asLong()));
            List<String> differ = new ArrayList<>();
            remote.forEach((k, v) -> {
                if (!items.containsKey(k) || items.get(k).path("version").asLong() != v) {
                    differ.add(k);
                    changed.remove(k);
                }
            });
            fetch(differ);
            items.keySet().retainAll(remote.keySet());
            libraryVersion = version(versions);
        }

        private String path(String rest) {
            return "users/" + userID + "/" + rest;
        }

        private HttpRequest.Builder request(String path) {
            return HttpRequest.newBuilder(URI.create(idiom.url("/" + path))).header("Zotero-API-Key", key).header("Zotero-API-Version", "3");
        }

        private HttpResponse<String> get(String path, String name, Long ifModifiedSince) {
            HttpRequest.Builder b = request(path).GET();
            if (ifModifiedSince != null) {
                b.header("If-Modified-Since-Version", Long.toString(ifModifiedSince));
            }
            HttpResponse<String> r = idiom.anonymous(b);
            log.add("GET " + name);
            assertTrue(r.statusCode() == 200 || r.statusCode() == 304, path + ": " + r.statusCode() + " " + r.body());
            return r;
        }

        private static long version(HttpResponse<String> r) {
            return Long.parseLong(r.headers().firstValue("Last-Modified-Version").orElseThrow());
        }

        private static JsonNode json(HttpResponse<String> r) {
            return RunningIdiom.json(r);
        }
    }
}
