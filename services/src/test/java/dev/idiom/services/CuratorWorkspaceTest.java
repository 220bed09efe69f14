package dev.idiom.services;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.idiom.db.TestDatabase;
import java.net.URI;
import java.net.URLDecoder;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The curator's workspace over real HTTP, as a browser uses it: a curator logs in with a key (an
 * HttpOnly cookie scoped to /curator, no key in the page), sees each account and one inbox of what
 * waits for a person, and settles it there — a conflict resolved by taking the file's value, a likely
 * pair marked "not duplicates" — through forms that carry the session's CSRF token.
 */
class CuratorWorkspaceTest {
    @TempDir
    Path dir;

    private static final Pattern CSRF = Pattern.compile("name=\"csrf\" value=\"([^\"]+)\"");

    private static String key(RunningIdiom idiom, String name, String role) {
        HttpResponse<String> r = idiom.post("/api/keys", "application/json", "{\"name\":\"" + name + "\",\"role\":\"" + role + "\"}");
        assertEquals(201, r.statusCode(), r.body());
        return RunningIdiom.json(r).get("key").asText();
    }

    private static HttpResponse<String> browser(RunningIdiom idiom, String cookie, String path, String form) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(idiom.url(path))).header("Accept", "text/html");
        if (cookie != null) {
            b.header("Cookie", cookie);
        }
        if (form != null) {
            b.header("Content-Type", "application/x-www-form-urlencoded").POST(HttpRequest.BodyPublishers.ofString(form));
        }
        return idiom.anonymous(b);
    }

    private static String enc(String s) {
        return java.net.URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    @Test
    void aCuratorSettlesWhatWaitsForAPersonFromTheWorkspace() throws Exception {
        Path bib = Files.writeString(dir.resolve("gossip.bib"), """
                @article{demers87,
                  title = {Epidemic algorithms},
                  author = {Demers, Alan},
                  year = {1987},
                  doi = {10.1145/41840.41841},
                }

                @article{demers87erratum,
                  title = {Erratum: Epidemic algorithms},
                  author = {Demers, Alan},
                  year = {1988},
                  doi = {10.1145/41840.41841},
                }
                """);
        try (RunningIdiom idiom = new RunningIdiom(TestDatabase.freshUrl(), Map.of("files-dir", dir.toString(), "sync-interval-ms", "0",
                "pull-interval-ms", "0"))) {
            assertEquals(200, idiom.put("/api/tools/gossip", "{\"kind\":\"bibtex\",\"baseUrl\":\"" + bib + "\",\"conflictPolicy\":\"ask\"}").statusCode());
            assertEquals(200, idiom.post("/api/tools/gossip/sync", "application/json", "").statusCode());
            String curator = key(idiom, "cura", "curator");
            String reader = key(idiom, "portal", "reader");

            // no session: to the login form; a reader's key does not open the workspace
            HttpResponse<String> anonymous = browser(idiom, null, "/curator", null);
            assertEquals(303, anonymous.statusCode());
            assertTrue(anonymous.headers().firstValue("Location").orElse("").endsWith("/curator/login"));
            assertEquals(403, browser(idiom, null, "/curator/login", "key=" + enc(reader)).statusCode());
            HttpResponse<String> login = browser(idiom, null, "/curator/login", "key=" + enc(curator));
            assertEquals(303, login.statusCode(), login.body());
            String setCookie = login.headers().firstValue("Set-Cookie").orElseThrow();
            assertTrue(setCookie.contains("Path=/curator") && setCookie.contains("HttpOnly") && setCookie.contains("SameSite=Strict"), setCookie);
            String cookie = setCookie.substring(0, setCookie.indexOf(';'));
            assertEquals(401, idiom.anonymous(HttpRequest.newBuilder(URI.create(idiom.url("/api/entities"))).header("Cookie", cookie)).statusCode(),
                    "the workspace's cookie is no key to the API");

            // a title edited in Idiom and in the file: under "ask" it waits for the curator
            JsonNode de = null;
            for (JsonNode e : RunningIdiom.json(idiom.get("/api/entities?limit=10")).get("entities")) {
                if (e.get("metadata").get("title").asText().equals("Epidemic algorithms")) {
                    de = e;
                }
            }
            assertEquals(200, idiom.patch("/api/entities/" + de.get("id").asText(), "{\"metadata\":{\"title\":\"Epidemic algorithms for replicated databases\"}}",
                    "If-Match", "\"" + de.get("version").asInt() + "\"").statusCode());
            Files.writeString(bib, Files.readString(bib).replace("{Epidemic algorithms}", "{Epidemic algorithms (PODC)}"));
            assertEquals(200, idiom.post("/api/tools/gossip/sync", "application/json", "").statusCode());

            HttpResponse<String> page = browser(idiom, cookie, "/curator", null);
            assertEquals(200, page.statusCode(), page.body());
            assertTrue(page.headers().firstValue("Content-Security-Policy").orElse("").contains("script-src 'self'"));
            assertFalse(Pattern.compile("<script(?![^>]*\\bsrc=\"[^\"]*/admin/assets/)").matcher(page.body()).find(), "no inline script: only the served files");
            assertFalse(page.body().contains(curator), "the key is nowhere in the page");
            assertTrue(page.body().contains("<title>(2) Needs you — Idiom</title>"), "one conflict and one likely pair: " + page.body());
            assertTrue(page.body().contains("gossip") && page.body().contains("Epidemic algorithms (PODC)")
                    && page.body().contains("Epidemic algorithms for replicated databases"), "the conflict with both values");
            assertTrue(page.body().contains("doi: 10.1145/41840.41841"), "the pair with its evidence");
            Matcher m = CSRF.matcher(page.body());
            assertTrue(m.find());
            String csrf = m.group(1);
            Matcher conflict = Pattern.compile("/curator/actions/conflicts/([0-9a-f-]{36})/tool").matcher(page.body());
            assertTrue(conflict.find());

            // without the page's token an action is refused; with it, the file's value is taken and written back
            assertEquals(403, browser(idiom, cookie, "/curator/actions/conflicts/" + conflict.group(1) + "/tool", "").statusCode());
            HttpResponse<String> taken = browser(idiom, cookie, "/curator/actions/conflicts/" + conflict.group(1) + "/tool", "csrf=" + enc(csrf));
            assertEquals(303, taken.statusCode(), taken.body());
            String done = URLDecoder.decode(taken.headers().firstValue("Location").orElseThrow().replaceAll(".*done=", ""), StandardCharsets.UTF_8);
            assertTrue(done.startsWith("Resolved"), done);
            assertEquals("Epidemic algorithms (PODC)", RunningIdiom.json(idiom.get("/api/entities/" + de.get("id").asText())).get("metadata")
                    .get("title").asText());

            // the likely pair: not duplicates
            Matcher pair = Pattern.compile("/curator/actions/duplicates/([0-9a-f-]{36})/dismiss\"><input type=\"hidden\" name=\"csrf\" value=\"[^\"]+\">"
                    + "<input type=\"hidden\" name=\"other\" value=\"([0-9a-f-]{36})\"").matcher(browser(idiom, cookie, "/curator", null).body());
            assertTrue(pair.find());
            HttpResponse<String> dismissed = browser(idiom, cookie, "/curator/actions/duplicates/" + pair.group(1) + "/dismiss",
                    "csrf=" + enc(csrf) + "&other=" + pair.group(2));
            assertEquals(303, dismissed.statusCode());
            String after = browser(idiom, cookie, "/curator", null).body();
            assertTrue(after.contains("<title>All in step — Idiom</title>"), after);

            // sync now, with its result said
            HttpResponse<String> synced = browser(idiom, cookie, "/curator/actions/accounts/gossip/sync", "csrf=" + enc(csrf));
            String said = URLDecoder.decode(synced.headers().firstValue("Location").orElseThrow().replaceAll(".*done=", ""), StandardCharsets.UTF_8);
            assertTrue(said.startsWith("Synced gossip"), said);
            assertTrue(Files.readString(bib).contains("{Epidemic algorithms (PODC)}"));

            assertEquals(303, browser(idiom, cookie, "/curator/logout", "csrf=" + enc(csrf)).statusCode());
            assertEquals(303, browser(idiom, cookie, "/curator", null).statusCode(), "logged out: to the login form again");
        }
    }

    /** Logs in at the workspace's form; the session cookie and the page's CSRF token. */
    private static String[] logIn(RunningIdiom idiom, String key) {
        HttpResponse<String> login = browser(idiom, null, "/curator/login", "key=" + enc(key));
        assertEquals(303, login.statusCode(), login.body());
        String setCookie = login.headers().firstValue("Set-Cookie").orElseThrow();
        String cookie = setCookie.substring(0, setCookie.indexOf(';'));
        Matcher m = CSRF.matcher(browser(idiom, cookie, "/curator", null).body());
        assertTrue(m.find());
        return new String[] {cookie, m.group(1)};
    }

    @Test
    void aCuratorAddsABrowsersAccountAndIsShownWhatToTypeIntoFloccusOnce() throws Exception {
        try (RunningIdiom idiom = new RunningIdiom(TestDatabase.freshUrl(), Map.of("files-dir", dir.toString(), "sync-interval-ms", "0"))) {
            String[] s = logIn(idiom, key(idiom, "cura", "curator"));
            HttpResponse<String> wrongFile = browser(idiom, s[0], "/curator/accounts", "csrf=" + enc(s[1]) + "&name=browsers&kind=xbel-dav&baseUrl="
                    + enc("bookmarks.txt") + "&account=&secret=&conflictPolicy=prefer-idiom");
            assertEquals(422, wrongFile.statusCode(), "a file floccus has no profile for is refused with why, the form kept");
            assertTrue(wrongFile.body().contains("ending in .xbel") && wrongFile.body().contains("value=\"bookmarks.txt\""), wrongFile.body());
            assertEquals(401, new FloccusBrowser("x", idiom.url("/dav/browsers/"), "anything", "bookmarks.xbel").send("GET", "bookmarks.xbel", null, null)
                    .statusCode(), "nothing was made");
            HttpResponse<String> made = browser(idiom, s[0], "/curator/accounts", "csrf=" + enc(s[1]) + "&name=browsers&kind=xbel-dav&baseUrl="
                    + enc("bookmarks.xbel") + "&account=&secret=&conflictPolicy=prefer-idiom&privateLibrary=on");
            assertEquals(200, made.statusCode(), made.body());
            Matcher url = Pattern.compile("id=\"dav-url\">([^<]+)<").matcher(made.body());
            Matcher password = Pattern.compile("id=\"dav-password\">([^<]+)<").matcher(made.body());
            assertTrue(url.find() && password.find(), made.body());
            assertEquals(idiom.url("/dav/browsers/"), url.group(1));
            FloccusBrowser floccus = new FloccusBrowser("firefox", url.group(1), password.group(1), "bookmarks.xbel");
            floccus.add("https://example.org/typed", "Typed into floccus", "");
            floccus.sync();
            assertTrue(idiom.get("/api/entities?limit=10").body().contains("Typed into floccus"), "the password shown works");
            String page = browser(idiom, s[0], "/curator/accounts/browsers", null).body();
            assertFalse(page.contains(password.group(1)), "the password is shown once, never again");
            assertTrue(page.contains(idiom.url("/dav/browsers/")), "the account's page says where browsers sync");
            Matcher csrf = CSRF.matcher(page);
            assertTrue(csrf.find());
            HttpResponse<String> renewed = browser(idiom, s[0], "/curator/accounts/browsers/password", "csrf=" + enc(csrf.group(1)));
            assertEquals(200, renewed.statusCode(), renewed.body());
            Matcher fresh = Pattern.compile("id=\"dav-password\">([^<]+)<").matcher(renewed.body());
            assertTrue(fresh.find());
            assertFalse(fresh.group(1).equals(password.group(1)));
            assertEquals(401, floccus.send("GET", "bookmarks.xbel", null, null).statusCode(), "the old password stops working");
            assertEquals(200, new FloccusBrowser("firefox", url.group(1), fresh.group(1), "bookmarks.xbel").send("GET", "bookmarks.xbel", null, null)
                    .statusCode());
        }
    }

    @Test
    void aCuratorAddsAServedZoteroLibraryAndIsShownOnceWhatZoterosClientsSignInWith() throws Exception {
        try (RunningIdiom idiom = new RunningIdiom(TestDatabase.freshUrl(), Map.of("files-dir", dir.toString(), "sync-interval-ms", "0"))) {
            String[] s = logIn(idiom, key(idiom, "cura", "curator"));
            HttpResponse<String> given = browser(idiom, s[0], "/curator/accounts", "csrf=" + enc(s[1]) + "&name=desk&kind=zotero-api&baseUrl="
                    + enc("https://api.zotero.org/") + "&account=&secret=&conflictPolicy=prefer-idiom");
            assertEquals(422, given.statusCode(), "an address for a library Idiom makes is refused with why");
            assertTrue(given.body().contains("Idiom&#39;s to make") || given.body().contains("Idiom's to make"), given.body());
            HttpResponse<String> made = browser(idiom, s[0], "/curator/accounts", "csrf=" + enc(s[1])
                    + "&name=desk&kind=zotero-api&baseUrl=&account=&secret=&conflictPolicy=prefer-idiom");
            assertEquals(200, made.statusCode(), made.body());
            Matcher user = Pattern.compile("id=\"zotero-user-id\">([0-9]+)<").matcher(made.body());
            Matcher apiKey = Pattern.compile("id=\"zotero-api-key\">([A-Za-z0-9]{24})<").matcher(made.body());
            Matcher password = Pattern.compile("id=\"zotero-password\">([^<]+)<").matcher(made.body());
            assertTrue(user.find() && apiKey.find() && password.find(), made.body());
            HttpResponse<String> items = idiom.anonymous(java.net.http.HttpRequest.newBuilder(java.net.URI.create(idiom.url("/users/" + user.group(1) + "/items")))
                    .header("Zotero-API-Key", apiKey.group(1)));
            assertEquals(200, items.statusCode(), "the key shown opens the library: " + items.body());
            HttpResponse<String> signedIn = idiom.anonymous(java.net.http.HttpRequest.newBuilder(java.net.URI.create(idiom.url("/keys")))
                    .header("Content-Type", "application/json").POST(java.net.http.HttpRequest.BodyPublishers.ofString(
                            "{\"username\":\"desk\",\"password\":\"" + password.group(1) + "\",\"name\":\"Automatic Zotero Client Key\","
                                    + "\"access\":{\"user\":{\"library\":true,\"write\":true}}}")));
            assertEquals(201, signedIn.statusCode(), "desktop 7 signs in with the name and password shown: " + signedIn.body());
            String page = browser(idiom, s[0], "/curator/accounts/desk", null).body();
            assertFalse(page.contains(password.group(1)) || page.contains(apiKey.group(1)), "the key and password are shown once, never again");
        }
    }

    @Test
    void aStaleEditKeepsWhatWasTypedAndSaysWhatChangedMeanwhile() throws Exception {
        try (RunningIdiom idiom = new RunningIdiom(TestDatabase.freshUrl(), Map.of("sync-interval-ms", "0", "pull-interval-ms", "0"))) {
            String[] s = logIn(idiom, key(idiom, "cura", "curator"));
            HttpResponse<String> created = browser(idiom, s[0], "/curator/records", "csrf=" + enc(s[1]) + "&type=book&title=" + enc("The Art of Computer Programming")
                    + "&authors=" + enc("Knuth, Donald E.\n") + "&year=1968&tags=" + enc("algorithms; analysis\nclassics, vol. 1"));
            assertEquals(303, created.statusCode(), created.body());
            String id = created.headers().firstValue("Location").orElseThrow().replaceAll(".*/records/([0-9a-f-]{36}).*", "$1");
            JsonNode de = RunningIdiom.json(idiom.get("/api/entities/" + id));
            assertEquals("[\"algorithms; analysis\",\"classics, vol. 1\"]", de.get("metadata").get("tags").toString(), "a tag per line, kept whole");
            assertEquals("Knuth", de.get("metadata").get("authors").get(0).get("family").asText());

            // the form was opened at version 1; someone else changes the year meanwhile
            String form = browser(idiom, s[0], "/curator/records/" + id + "/edit", null).body();
            assertTrue(form.contains("name=\"version\" value=\"1\""), form);
            assertEquals(200, idiom.patch("/api/entities/" + id, "{\"metadata\":{\"year\":1973}}", "If-Match", "\"1\"").statusCode());
            HttpResponse<String> stale = browser(idiom, s[0], "/curator/records/" + id + "/edit", "csrf=" + enc(s[1]) + "&version=1&type=book&title="
                    + enc("The Art of Computer Programming, Volume 1") + "&year=1968&authors=" + enc("Knuth, Donald E."));
            assertEquals(409, stale.statusCode(), stale.body());
            assertTrue(stale.body().contains("Year: now \u201c1973\u201d (was \u201c1968\u201d)"), stale.body());
            assertTrue(stale.body().contains("value=\"The Art of Computer Programming, Volume 1\""), "what was typed is kept");
            assertTrue(stale.body().contains("name=\"version\" value=\"2\""), "saving again puts it over the change listed");
            assertEquals("The Art of Computer Programming", RunningIdiom.json(idiom.get("/api/entities/" + id)).get("metadata").get("title").asText(),
                    "nothing saved");

            // saved from the current version: only the fields that differ from it are written
            HttpResponse<String> saved = browser(idiom, s[0], "/curator/records/" + id + "/edit", "csrf=" + enc(s[1]) + "&version=2&type=book&title="
                    + enc("The Art of Computer Programming, Volume 1") + "&year=1973&authors=" + enc("Knuth, Donald E.") + "&tags="
                    + enc("algorithms; analysis\nclassics, vol. 1"));
            assertEquals(303, saved.statusCode(), saved.body());
            assertTrue(URLDecoder.decode(saved.headers().firstValue("Location").orElseThrow(), StandardCharsets.UTF_8).contains("Saved 1 field"));

            // a value the record cannot hold: refused with the reason, what was typed kept, nothing written
            HttpResponse<String> invalid = browser(idiom, s[0], "/curator/records/" + id + "/edit", "csrf=" + enc(s[1]) + "&version=3&type=book&title=x"
                    + "&year=nineteen");
            assertEquals(422, invalid.statusCode());
            assertTrue(invalid.body().contains("year must be a whole number") && invalid.body().contains("value=\"nineteen\""), invalid.body());
            assertEquals(3, RunningIdiom.json(idiom.get("/api/entities/" + id)).get("version").asInt());

            // the record's page, an unknown record, a reader's key
            String page = browser(idiom, s[0], "/curator/records/" + id, null).body();
            assertTrue(page.contains("key:cura (web, curator workspace)") && page.contains("Knuth, D. E. (1973)"), page);
            HttpResponse<String> unknown = browser(idiom, s[0], "/curator/records/00000000-0000-0000-0000-000000000000", null);
            assertEquals(404, unknown.statusCode());
            assertTrue(unknown.body().contains("<h2>Not found</h2>"), unknown.body());
            assertEquals(400, browser(idiom, s[0], "/curator/records/not-an-id", null).statusCode());
            String metrics = idiom.get("/admin/metrics").body();
            assertTrue(metrics.contains("/curator/records") && metrics.contains("/curator/login"), "the workspace's pages are timed by name: " + metrics);
            String reader = key(idiom, "portal", "reader");
            HttpResponse<String> refused = idiom.anonymous(HttpRequest.newBuilder(URI.create(idiom.url("/curator/library")))
                    .header("Authorization", "Bearer " + reader).header("Accept", "text/html"));
            assertEquals(403, refused.statusCode());
            assertTrue(refused.body().contains("<h1>Not for this key</h1>") && refused.body().contains("needs a curator or admin key"), refused.body());
        }
    }

    @Test
    void theInboxCountReachesAnOpenPageOverServerSentEvents() throws Exception {
        Path bib = Files.writeString(dir.resolve("live.bib"), "@article{a, title = {One}, year = {2001}, doi = {10.1/x}}\n");
        try (RunningIdiom idiom = new RunningIdiom(TestDatabase.freshUrl(), Map.of("files-dir", dir.toString(), "sync-interval-ms", "0",
                "pull-interval-ms", "0"))) {
            assertEquals(200, idiom.put("/api/tools/live", "{\"kind\":\"bibtex\",\"baseUrl\":\"" + bib + "\"}").statusCode());
            String[] s = logIn(idiom, key(idiom, "cura", "curator"));
            java.net.http.HttpClient client = java.net.http.HttpClient.newHttpClient();
            HttpResponse<java.io.InputStream> stream = client.send(HttpRequest.newBuilder(URI.create(idiom.url("/curator/live"))).header("Cookie", s[0])
                    .header("Accept", "text/event-stream").build(), HttpResponse.BodyHandlers.ofInputStream());
            assertEquals(200, stream.statusCode());
            try (var lines = new java.io.BufferedReader(new java.io.InputStreamReader(stream.body(), StandardCharsets.UTF_8))) {
                assertEquals("retry: 2000", lines.readLine());
                lines.readLine();
                assertEquals("event: inbox", lines.readLine());
                String first = lines.readLine();
                assertTrue(first.startsWith("data: 0<span id=\"state-6c697665\" hx-swap-oob=\"true\">in step</span>"), first);
                // a second record with the same DOI arrives: a likely pair, counted on the open page within a tick or two
                Files.writeString(bib, Files.readString(bib) + "@article{b, title = {One, again}, year = {2001}, doi = {10.1/x}}\n");
                assertEquals(200, idiom.post("/api/tools/live/sync", "application/json", "").statusCode());
                String next;
                do {
                    next = lines.readLine();
                } while (!next.startsWith("data: "));
                assertTrue(next.startsWith("data: 1<span"), next);
            }
        }
    }

    @Test
    void aCuratorPreviewsAReplicationRuleBeforeSavingItAndNothingIsWrittenByThePreview() throws Exception {
        Path shelf = Files.writeString(dir.resolve("shelf.bib"), """
                @book{knuth68, title = {Fundamental Algorithms}, year = {1968}, keywords = {classics}}
                @article{lamport78, title = {Time, clocks}, year = {1978}}
                """);
        Path copy = Files.writeString(dir.resolve("copy.bib"), "");
        try (RunningIdiom idiom = new RunningIdiom(TestDatabase.freshUrl(), Map.of("files-dir", dir.toString(), "sync-interval-ms", "0",
                "pull-interval-ms", "0"))) {
            String curator = key(idiom, "cura", "curator");
            java.util.function.Function<HttpRequest.Builder, HttpResponse<String>> as = b -> idiom.anonymous(b.header("Authorization", "Bearer " + curator));
            // a curator adds accounts and sets their rules (an admin's keys and purges stay an admin's)
            assertEquals(200, as.apply(HttpRequest.newBuilder(URI.create(idiom.url("/api/tools/shelf"))).header("Content-Type", "application/json")
                    .PUT(HttpRequest.BodyPublishers.ofString("{\"kind\":\"bibtex\",\"baseUrl\":\"" + shelf + "\"}"))).statusCode());
            assertEquals(200, as.apply(HttpRequest.newBuilder(URI.create(idiom.url("/api/tools/copy"))).header("Content-Type", "application/json")
                    .PUT(HttpRequest.BodyPublishers.ofString("{\"kind\":\"bibtex\",\"baseUrl\":\"" + copy + "\"}"))).statusCode());
            assertEquals(200, idiom.post("/api/tools/shelf/sync", "application/json", "").statusCode());
            assertEquals(403, as.apply(HttpRequest.newBuilder(URI.create(idiom.url("/api/keys")))).statusCode());

            HttpResponse<String> preview = as.apply(HttpRequest.newBuilder(URI.create(idiom.url("/api/tools/copy?dryRun=true")))
                    .header("Content-Type", "application/json").method("PATCH", HttpRequest.BodyPublishers.ofString("{\"mirror\":{\"tags\":[\"classics\"]}}")));
            assertEquals(200, preview.statusCode(), preview.body());
            JsonNode writes = RunningIdiom.json(preview).get("writes").get(0);
            assertEquals(1, writes.get("copies").get("count").asInt(), preview.body());
            assertEquals("Fundamental Algorithms", writes.get("copies").get("samples").get(0).asText());
            for (JsonNode a : RunningIdiom.json(idiom.get("/api/tools"))) {
                if (a.get("name").asText().equals("copy")) {
                    assertEquals("\"none\"", a.get("mirror").toString(), "a preview saves nothing");
                }
            }
            assertEquals(200, idiom.post("/api/tools/copy/sync", "application/json", "").statusCode());
            assertEquals("", Files.readString(copy), "and writes nothing");

            // the same from the workspace's account page: a preview, then the rule saved and carried out
            String[] s = logIn(idiom, curator);
            String page = browser(idiom, s[0], "/curator/accounts/copy?mirror=filter&tags=classics&types=&query=&direction=both&deletions=keep&preview=1",
                    null).body();
            assertTrue(page.contains("1 new copy: Fundamental Algorithms"), page);
            HttpResponse<String> saved = browser(idiom, s[0], "/curator/accounts/copy/rule", "csrf=" + enc(s[1])
                    + "&mirror=filter&tags=classics&types=&query=&direction=both&deletions=keep");
            assertEquals(303, saved.statusCode());
            assertEquals(200, idiom.post("/api/tools/copy/sync", "application/json", "").statusCode());
            assertTrue(Files.readString(copy).contains("Fundamental Algorithms") && !Files.readString(copy).contains("Time, clocks"), Files.readString(copy));
        }
    }

    @Test
    void aSyncLongerThanTheWaitGoesOnWhileTheAccountsPageShowsHowFarItIs() throws Exception {
        try (dev.idiom.wrappers.zotero.ZoteroStub zotero = new dev.idiom.wrappers.zotero.ZoteroStub();
             RunningIdiom idiom = new RunningIdiom(TestDatabase.freshUrl(), Map.of("sync-interval-ms", "0", "pull-interval-ms", "0"))) {
            zotero.addRemotely("{\"itemType\":\"book\",\"title\":\"Fundamental Algorithms\",\"date\":\"1968\"}");
            assertEquals(200, idiom.put("/api/tools/zot", "{\"kind\":\"zotero\",\"baseUrl\":\"" + zotero.uri() + "\",\"account\":\""
                    + dev.idiom.wrappers.zotero.ZoteroStub.LIBRARY + "\",\"secret\":\"" + dev.idiom.wrappers.zotero.ZoteroStub.KEY + "\"}").statusCode());
            String[] s = logIn(idiom, key(idiom, "cura", "curator"));
            zotero.slow(java.time.Duration.ofSeconds(3)); // a library that answers slowly: the sync's calls take longer than the page waits
            long t0 = System.nanoTime();
            HttpResponse<String> started = browser(idiom, s[0], "/curator/actions/accounts/zot/sync", "csrf=" + enc(s[1]));
            assertEquals(303, started.statusCode());
            assertTrue((System.nanoTime() - t0) / 1_000_000 < 9_000, "the page answered after its wait, not after the sync");
            String said = URLDecoder.decode(started.headers().firstValue("Location").orElseThrow().replaceAll(".*done=", ""), StandardCharsets.UTF_8);
            assertTrue(said.startsWith("Syncing zot: it goes on in the background"), said);
            String page = browser(idiom, s[0], "/curator/accounts/zot", null).body();
            assertTrue(page.contains("<h2>Sync under way</h2>") && page.contains("hx-trigger=\"every 2s\""), page);
            // it ends by itself, and the fragment the page asks for says so
            String progress;
            long until = System.nanoTime() + 60_000_000_000L;
            do {
                Thread.sleep(500);
                progress = browser(idiom, s[0], "/curator/accounts/zot/progress", null).body();
            } while (progress.contains("Sync under way") && System.nanoTime() < until);
            assertTrue(!progress.contains("Sync under way") && progress.contains("Synced zot: 1 records read"), progress);
            assertEquals(1, RunningIdiom.json(idiom.get("/api/entities?limit=10")).get("entities").size(), "the sync brought the record in");
        }
    }
}
