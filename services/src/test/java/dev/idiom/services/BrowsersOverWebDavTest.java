package dev.idiom.services;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.idiom.db.TestDatabase;
import dev.idiom.wrappers.zotero.ZoteroStub;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Browsers as live replicas: floccus' request sequence (see {@link FloccusBrowser}) against an
 * xbel-dav account over real HTTP, beside a Zotero library (a stub of its published API) and a
 * BibTeX file whose records are mirrored into the browsers.
 */
class BrowsersOverWebDavTest {
    @TempDir
    static Path dir;
    private static RunningIdiom idiom;

    @BeforeAll
    static void start() {
        idiom = new RunningIdiom(TestDatabase.freshUrl(), Map.of("files-dir", dir.toString(), "sync-interval-ms", "200", "pull-interval-ms", "600000"));
    }

    @AfterAll
    static void stop() {
        idiom.close();
    }

    /** A browsers' account as a curator makes it: the answer gives the URL and, once, the password to type into floccus. */
    private static FloccusBrowser[] browsers(String account, String rule, String... names) {
        return browsersOf(account, "bookmarks.xbel", rule, names);
    }

    private static FloccusBrowser[] browsersOf(String account, String file, String rule, String... names) {
        HttpResponse<String> made = idiom.put("/api/tools/" + account, "{\"kind\":\"xbel-dav\",\"baseUrl\":\"" + file + "\""
                + (rule == null ? "" : ",\"mirror\":" + rule) + "}");
        assertEquals(200, made.statusCode(), made.body());
        JsonNode a = RunningIdiom.json(made);
        assertEquals(idiom.url("/dav/" + account + "/"), a.get("davUrl").asText());
        assertTrue(a.get("privateLibrary").asBoolean(), "a browser's bookmarks are private unless the account says otherwise");
        String password = a.get("davPassword").asText();
        assertTrue(password.length() >= 32, password);
        HttpResponse<String> again = idiom.put("/api/tools/" + account, "{\"kind\":\"xbel-dav\",\"baseUrl\":\"" + file + "\""
                + (rule == null ? "" : ",\"mirror\":" + rule) + "}");
        assertFalse(RunningIdiom.json(again).has("davPassword"), "the password is said once; a change of the account keeps it");
        FloccusBrowser[] out = new FloccusBrowser[names.length];
        for (int i = 0; i < names.length; i++) {
            out[i] = new FloccusBrowser(names[i], a.get("davUrl").asText(), password, file);
        }
        return out;
    }

    private static Set<String> urls(FloccusBrowser b) {
        return new HashSet<>(b.local.keySet());
    }

    private static JsonNode entityWithUrl(String url) {
        for (JsonNode de : RunningIdiom.json(idiom.get("/api/entities?limit=200")).get("entities")) {
            if (url.equals(de.path("metadata").path("url").asText())) {
                return de;
            }
        }
        return null;
    }

    private static void eventually(String what, Supplier<Boolean> done) throws InterruptedException {
        for (long until = System.nanoTime() + 60_000_000_000L; System.nanoTime() < until; Thread.sleep(100)) {
            if (done.get()) {
                return;
            }
        }
        throw new AssertionError(what + " within 60 s");
    }

    @Test
    void twoBrowsersConvergeThroughIdiomWithAZoteroLibraryAndABibTeXFileMirroredIn() throws Exception {
        try (ZoteroStub zotero = new ZoteroStub()) {
            String gossip = zotero.addRemotely("{\"itemType\":\"webpage\",\"title\":\"Epidemic algorithms\",\"url\":\"https://example.org/epidemic\","
                    + "\"creators\":[],\"tags\":[],\"collections\":[],\"relations\":{}}");
            zotero.addRemotely("{\"itemType\":\"webpage\",\"title\":\"Bayou\",\"url\":\"https://example.org/bayou\","
                    + "\"creators\":[],\"tags\":[],\"collections\":[],\"relations\":{}}");
            assertEquals(200, idiom.put("/api/tools/zotero", "{\"kind\":\"zotero\",\"baseUrl\":\"" + zotero.uri() + "\",\"account\":\""
                    + ZoteroStub.LIBRARY + "\",\"secret\":\"" + ZoteroStub.KEY + "\"}").statusCode());
            Files.writeString(dir.resolve("library.bib"), """
                    @misc{lamport1978,
                      title = {Time, Clocks, and the Ordering of Events},
                      url = {https://example.org/lamport},
                      year = {1978}
                    }
                    """);
            assertEquals(200, idiom.put("/api/tools/library", "{\"kind\":\"bibtex\",\"baseUrl\":\"library.bib\"}").statusCode());
            assertEquals(200, idiom.post("/api/tools/zotero/sync", "application/json", "").statusCode());
            assertEquals(200, idiom.post("/api/tools/library/sync", "application/json", "").statusCode());

            FloccusBrowser[] two = browsers("browsers", "{\"from\":[\"zotero\",\"library\"]}", "firefox", "chrome");
            FloccusBrowser firefox = two[0];
            FloccusBrowser chrome = two[1];
            // the curator waits for the account's mirror to be written (a browser syncing meanwhile gets the rest at its next sync)
            eventually("the mirror into the browsers' file is written", () -> {
                JsonNode m = RunningIdiom.json(idiom.get("/api/tools/browsers/mirror"));
                return m.get("complete").asBoolean() && m.get("owed").asInt() == 0;
            });
            firefox.add("https://example.org/firefox-only", "Firefox's own", "Toolbar");
            chrome.add("https://example.org/chrome-only", "Chrome's own", "Bookmarks bar");

            firefox.sync();
            assertEquals(List.of("GET bookmarks.xbel.lock", "PUT bookmarks.xbel.lock", "GET bookmarks.xbel", "PROPFIND bookmarks.xbel",
                    "PUT bookmarks.xbel.temp", "PROPFIND bookmarks.xbel.temp", "MOVE bookmarks.xbel.temp", "PROPFIND bookmarks.xbel",
                    "DELETE bookmarks.xbel.lock"), firefox.requests, "floccus' own sequence, answered as floccus needs");
            assertEquals(Set.of("https://example.org/epidemic", "https://example.org/bayou", "https://example.org/lamport",
                    "https://example.org/firefox-only"), urls(firefox), "what Zotero and the file hold reached the browser at its first sync");
            JsonNode own = entityWithUrl("https://example.org/firefox-only");
            assertNotNull(own, "the browser's own bookmark became a DE at once");
            assertEquals("Firefox's own", own.get("metadata").get("title").asText());
            assertTrue(own.get("private").asBoolean(), "private, as the account is");

            chrome.sync();
            firefox.sync();
            assertEquals(urls(firefox), urls(chrome), "both browsers hold the same bookmarks");
            assertEquals(5, urls(chrome).size());
            assertNotNull(entityWithUrl("https://example.org/chrome-only"));

            // a browser renames a bookmark that came from Zotero: the item in Zotero follows
            FloccusBrowser.Bookmark epidemic = firefox.local.get("https://example.org/epidemic");
            firefox.local.put(epidemic.url(), new FloccusBrowser.Bookmark(epidemic.id(), epidemic.url(), "Epidemic algorithms (Demers)", epidemic.folder()));
            firefox.sync();
            assertEquals("Epidemic algorithms (Demers)", entityWithUrl("https://example.org/epidemic").get("metadata").get("title").asText());
            eventually("Zotero holds the browser's title", () -> zotero.data(gossip).get("title").asText().equals("Epidemic algorithms (Demers)"));
            chrome.sync();
            assertEquals("Epidemic algorithms (Demers)", chrome.local.get("https://example.org/epidemic").title());

            // an idle round: nobody writes, and the file keeps every byte and its ETag
            String before = Files.readString(dir.resolve(".dav/browsers/bookmarks.xbel"));
            String etag = firefox.send("GET", "bookmarks.xbel", null, null).headers().firstValue("ETag").orElseThrow();
            firefox.sync();
            chrome.sync();
            assertFalse(firefox.wrote || chrome.wrote, "neither browser had anything to write");
            assertEquals(before, Files.readString(dir.resolve(".dav/browsers/bookmarks.xbel")));
            assertEquals(etag, firefox.send("GET", "bookmarks.xbel", null, null).headers().firstValue("ETag").orElseThrow());
            HttpResponse<String> notModified = firefox.send("GET", "bookmarks.xbel", null, null, "If-None-Match", etag);
            assertEquals(304, notModified.statusCode());
        }
    }

    @Test
    void aSecondBrowserIsRefusedWhileTheFirstHoldsAFreshLock() {
        FloccusBrowser[] two = browsers("locking", null, "firefox", "chrome");
        two[0].add("https://example.org/lock-a", "A", "");
        two[0].lock();
        assertThrows(FloccusBrowser.Locked.class, two[1]::lock, "floccus reads the lock's Last-Modified and stops");
        HttpResponse<String> racing = two[1].send("PUT", "bookmarks.xbel.lock", "text/html", "<html><body>I am a lock file</body></html>");
        assertEquals(423, racing.statusCode(), "a browser that read 'no lock' just before the first put it is refused: " + racing.body());
        two[0].syncLocked(() -> { });
        two[0].unlock();
        two[1].sync();
        assertEquals(Set.of("https://example.org/lock-a"), urls(two[1]));
    }

    @Test
    void anIdiomChangeDuringABrowsersSyncIsNeitherLostNorOverwritesTheBrowsers() throws Exception {
        FloccusBrowser browser = browsers("during", null, "firefox")[0];
        browser.add("https://example.org/x", "X as typed", "");
        browser.add("https://example.org/y", "Y as typed", "");
        browser.sync();
        String x = entityWithUrl("https://example.org/x").get("id").asText();
        int copies = -1;
        for (JsonNode a : RunningIdiom.json(idiom.get("/api/consistency")).get("accounts")) {
            if (a.get("name").asText().equals("during")) {
                copies = a.get("replicas").asInt();
            }
        }
        assertEquals(2, copies, "the account's copies are counted as the account's (its replicas name it by the account)");
        String served = Files.readString(dir.resolve(".dav/during/bookmarks.xbel"));

        FloccusBrowser.Bookmark y = browser.local.get("https://example.org/y");
        browser.local.put(y.url(), new FloccusBrowser.Bookmark(y.id(), y.url(), "Y renamed in the browser", y.folder()));
        browser.lock();
        browser.syncLocked(() -> {
            JsonNode de = RunningIdiom.json(idiom.get("/api/entities/" + x));
            HttpResponse<String> patched = idiom.patch("/api/entities/" + x, "{\"metadata\":{\"title\":\"X renamed in Idiom\"}}",
                    "If-Match", "\"" + de.get("version").asInt() + "\"");
            assertEquals(200, patched.statusCode(), patched.body());
            assertEquals(200, idiom.post("/api/tools/during/sync", "application/json", "").statusCode()); // a push tried now
            try {
                assertEquals(served, Files.readString(dir.resolve(".dav/during/bookmarks.xbel")), "the file does not move under the browser");
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        browser.unlock();
        assertEquals("Y renamed in the browser", entityWithUrl("https://example.org/y").get("metadata").get("title").asText());
        assertEquals("X renamed in Idiom", entityWithUrl("https://example.org/x").get("metadata").get("title").asText(), "Idiom's change is kept");
        eventually("the file holds Idiom's change once the browser is done", () -> {
            try {
                return Files.readString(dir.resolve(".dav/during/bookmarks.xbel")).contains("X renamed in Idiom");
            } catch (java.io.IOException e) {
                return false;
            }
        });
        browser.sync();
        assertEquals("X renamed in Idiom", browser.local.get("https://example.org/x").title());
        assertEquals("Y renamed in the browser", browser.local.get("https://example.org/y").title());
    }

    @Test
    void aBrowserDeletingMostOfItsBookmarksIsHeldForACurator() {
        FloccusBrowser browser = browsers("deleting", null, "firefox")[0];
        for (int i = 0; i < 10; i++) {
            browser.add("https://example.org/kept/" + i, "Bookmark " + i, "Reading");
        }
        browser.sync();
        for (int i = 0; i < 8; i++) {
            browser.local.remove("https://example.org/kept/" + i);
        }
        browser.sync();
        for (int i = 0; i < 8; i++) {
            JsonNode de = entityWithUrl("https://example.org/kept/" + i);
            assertNotNull(de, "held, not deleted: bookmark " + i);
        }
        JsonNode held = null;
        for (JsonNode a : RunningIdiom.json(idiom.get("/api/consistency")).get("accounts")) {
            if (a.get("name").asText().equals("deleting")) {
                held = a.get("held");
            }
        }
        assertNotNull(held);
        assertTrue(held.isTextual() && !held.asText().isEmpty() || held.asBoolean(), "the account is held for a curator: " + held);
        assertEquals(2, urls(browser).size(), "the browser keeps what it did; Idiom holds the deletions until a curator decides");
    }

    @Test
    void wrongPasswordsEncryptedFilesAndBrokenXmlAreRefusedWithWhyAndChangeNothing() throws Exception {
        FloccusBrowser browser = browsers("refusing", null, "firefox")[0];
        browser.add("https://example.org/r", "R", "");
        browser.sync();
        Path file = dir.resolve(".dav/refusing/bookmarks.xbel");
        String before = Files.readString(file);
        FloccusBrowser stranger = new FloccusBrowser("stranger", idiom.url("/dav/refusing/"), "not-the-password", "bookmarks.xbel");
        HttpResponse<String> denied = stranger.send("GET", "bookmarks.xbel", null, null);
        assertEquals(401, denied.statusCode());
        assertTrue(denied.headers().firstValue("WWW-Authenticate").orElse("").startsWith("Basic"));
        assertEquals(401, new FloccusBrowser("other", idiom.url("/dav/browsers-nosuch/"), "x", "bookmarks.xbel")
                .send("GET", "bookmarks.xbel", null, null).statusCode());

        HttpResponse<String> encrypted = browser.send("PUT", "bookmarks.xbel", "application/xml", "{\"ciphertext\":\"abc\",\"salt\":\"00\"}");
        assertEquals(422, encrypted.statusCode());
        assertTrue(encrypted.body().contains("passphrase"), encrypted.body());
        HttpResponse<String> broken = browser.send("PUT", "bookmarks.xbel", "application/xml", "<?xml version=\"1.0\" encoding=\"UTF-8\"?><xbel><bookmark>");
        assertEquals(422, broken.statusCode());
        HttpResponse<String> bomb = browser.send("PUT", "bookmarks.xbel", "application/xml",
                "<?xml version=\"1.0\"?><!DOCTYPE xbel [<!ENTITY a \"aaaaaaaaaa\"><!ENTITY b \"&a;&a;&a;&a;&a;&a;\">]><xbel>&b;</xbel>");
        assertEquals(422, bomb.statusCode());
        HttpResponse<String> xxe = browser.send("PUT", "bookmarks.xbel", "application/xml",
                "<?xml version=\"1.0\"?><!DOCTYPE xbel [<!ENTITY x SYSTEM \"file:///etc/passwd\">]><xbel><bookmark href=\"https://e.org\"><title>&x;</title></bookmark></xbel>");
        assertEquals(422, xxe.statusCode());
        assertEquals(before, Files.readString(file), "nothing was written");
        assertEquals(403, browser.send("DELETE", "bookmarks.xbel", null, null).statusCode(), "the library is not deleted as a file");
        assertEquals(405, browser.send("LOCK", "bookmarks.xbel", null, null).statusCode());
        assertEquals(before, Files.readString(file));
        assertNotNull(entityWithUrl("https://example.org/r"));
    }

    @Test
    void floccusHtmlProfileKeepsBrowsersInStepToo() throws Exception {
        HttpResponse<String> created = idiom.post("/api/entities", "application/json",
                "{\"metadata\":{\"type\":\"webpage\",\"title\":\"Made in Idiom <& 'quoted'>\",\"url\":\"https://example.org/html/idiom\","
                        + "\"tags\":[\"html-profile\"],\"notes\":\"a note floccus would drop\"}}");
        assertEquals(201, created.statusCode(), created.body());
        FloccusBrowser[] two = browsersOf("htmlprofile", "bookmarks.html", "{\"tags\":[\"html-profile\"]}", "firefox", "chrome");
        eventually("the mirror into the HTML file is written", () -> RunningIdiom.json(idiom.get("/api/tools/htmlprofile/mirror")).get("owed").asInt() == 0
                && RunningIdiom.json(idiom.get("/api/tools/htmlprofile/mirror")).get("complete").asBoolean());
        two[0].add("https://example.org/html/firefox", "Firefox's own", "Reading");
        two[0].sync();
        assertEquals(Set.of("https://example.org/html/idiom", "https://example.org/html/firefox"), urls(two[0]));
        assertEquals("Made in Idiom <& 'quoted'>", two[0].local.get("https://example.org/html/idiom").title());
        assertTrue(two[0].local.get("https://example.org/html/idiom").id() > 0, "Idiom's bookmark carries floccus' next id");
        two[1].sync();
        assertEquals(urls(two[0]), urls(two[1]));
        JsonNode own = entityWithUrl("https://example.org/html/firefox");
        assertEquals("[\"Reading\"]", own.get("metadata").get("tags").toString(), "the folder it is in");
        JsonNode idiomMade = entityWithUrl("https://example.org/html/idiom");
        assertEquals("a note floccus would drop", idiomMade.get("metadata").get("notes").asText(), "a note is not cleared by floccus' rewrite");
        assertEquals("[\"html-profile\"]", idiomMade.get("metadata").get("tags").toString(), "nor are tags the file cannot hold");
        String before = Files.readString(dir.resolve(".dav/htmlprofile/bookmarks.html"));
        two[0].sync();
        two[1].sync();
        assertFalse(two[0].wrote || two[1].wrote);
        assertEquals(before, Files.readString(dir.resolve(".dav/htmlprofile/bookmarks.html")), "an idle round changes no byte");
    }

    @Test
    void otherWebDavClientsGetETagsPreconditionsListingsAndTheMethodsAllowed() throws Exception {
        FloccusBrowser browser = browsers("clients", null, "firefox")[0];
        browser.add("https://example.org/etag", "As read", "");
        browser.sync();
        HttpResponse<String> head = browser.send("HEAD", "bookmarks.xbel", null, null);
        assertEquals(200, head.statusCode());
        String etag = head.headers().firstValue("ETag").orElseThrow();
        String text = Files.readString(dir.resolve(".dav/clients/bookmarks.xbel"));
        assertEquals(Long.toString(text.getBytes(java.nio.charset.StandardCharsets.UTF_8).length), head.headers().firstValue("Content-Length").orElseThrow());

        String edited = text.replace("As read", "Edited by a client");
        HttpResponse<String> stale = browser.send("PUT", "bookmarks.xbel", "application/xml", edited, "If-Match", "\"0000\"");
        assertEquals(412, stale.statusCode(), stale.body());
        assertEquals(text, Files.readString(dir.resolve(".dav/clients/bookmarks.xbel")), "a stale write changes nothing");
        assertEquals(412, browser.send("PUT", "bookmarks.xbel", "application/xml", edited, "If-None-Match", "*").statusCode(), "it exists");
        HttpResponse<String> current = browser.send("PUT", "bookmarks.xbel", "application/xml", edited, "If-Match", etag);
        assertEquals(204, current.statusCode(), current.body());
        assertEquals("Edited by a client", entityWithUrl("https://example.org/etag").get("metadata").get("title").asText(), "a write is a pull");
        assertFalse(current.headers().firstValue("ETag").orElseThrow().equals(etag));

        HttpResponse<String> options = browser.send("OPTIONS", "", null, null);
        assertEquals("1", options.headers().firstValue("DAV").orElseThrow());
        assertTrue(options.headers().firstValue("Allow").orElseThrow().contains("PROPFIND"));
        HttpResponse<String> listing = browser.send("PROPFIND", "", null, null, "Depth", "1");
        assertEquals(207, listing.statusCode());
        assertTrue(listing.body().contains("<d:href>/dav/clients/bookmarks.xbel</d:href>") && listing.body().contains("<d:collection/>"), listing.body());
        assertFalse(listing.body().contains("idiom-tmp"), "Idiom's own temporary files are not listed");
        assertEquals(403, browser.send("PROPFIND", "", null, null, "Depth", "infinity").statusCode());
        HttpResponse<String> proppatch = browser.send("PROPPATCH", "bookmarks.xbel", "application/xml", "<x/>");
        assertEquals(405, proppatch.statusCode());
        assertTrue(proppatch.headers().firstValue("Allow").orElseThrow().contains("MOVE"));
        assertEquals(400, browser.send("PROPFIND", "", "application/xml", "<!DOCTYPE x [<!ENTITY e SYSTEM \"file:///etc/passwd\">]><d:propfind xmlns:d=\"DAV:\"/>",
                "Depth", "0").statusCode(), "no DTDs in a PROPFIND body");
    }
}
