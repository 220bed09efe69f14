package dev.idiom.services;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.idiom.db.TestDatabase;
import dev.idiom.wrappers.bibsonomy.BibSonomyStub;
import dev.idiom.wrappers.pinboard.PinboardStub;
import dev.idiom.wrappers.zotero.ZoteroStub;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Who sees what, over the real service: no shadow in any answer; private copies (a Pinboard bookmark
 * not shared, a Zotero library kept private) hidden from plain reader keys over REST, SOAP, search and
 * the change feed; a DE with a public and a private copy shown by its public parts; private and acting
 * tags kept out of BibSonomy; a peer Idiom with a reader key receiving no private DE.
 */
class PrivacyTest {
    private static RunningIdiom idiom;
    private static PinboardStub pinboard;
    private static ZoteroStub zotero;
    private static BibSonomyStub bibsonomy;
    private static String reader;
    private static String privateReader;
    private static String curator;
    @TempDir
    static Path dir;

    @BeforeAll
    static void start() throws Exception {
        // no background pulls: Pinboard allows posts/all once in five minutes, and the imports below are the ones meant
        idiom = new RunningIdiom(Map.of("pull-interval-ms", "0", "check-interval-ms", "0", "sync-interval-ms", "0", "files-dir", dir.toString()));
        pinboard = new PinboardStub();
        zotero = new ZoteroStub();
        bibsonomy = new BibSonomyStub();
        reader = key("portal", "reader", false);
        privateReader = key("trusted-portal", "reader", true);
        curator = key("curator", "curator", false);

        // Pinboard: one bookmark kept private there, one shared with a private tag (.secret) among its tags
        pinboard.saveOnSite("https://example.org/hidden", "Zanzibarish hidden bookmark", "hushhush", "no");
        pinboard.saveOnSite("https://example.org/open", "Openly pinned page", "open .secret", "yes");
        account("pin", "{\"kind\":\"pinboard\",\"baseUrl\":\"" + pinboard.uri() + "/v1/\",\"secret\":\"" + PinboardStub.TOKEN + "\"}");
        importFrom("pin");

        // a Zotero library the admin keeps private: the same page as the shared bookmark (so one DE with a public and a
        // private copy), with an abstract and tags only the private copy holds, one of them an acting tag in BibSonomy
        zotero.addRemotely("{\"itemType\":\"webpage\",\"title\":\"Openly pinned page\",\"url\":\"https://example.org/open\","
                + "\"abstractNote\":\"Quixotically private abstract\",\"tags\":[{\"tag\":\"closed\"},{\"tag\":\"for:friends\"}]}");
        account("zot", "{\"kind\":\"zotero\",\"baseUrl\":\"" + zotero.uri() + "\",\"account\":\"" + ZoteroStub.LIBRARY + "\",\"secret\":\""
                + ZoteroStub.KEY + "\",\"privateLibrary\":true}");
        importFrom("zot");

        // a bookmark file: one PRIVATE="1" bookmark, one public, whose shadows (the file's own form) must never be shown
        Path marks = dir.resolve("bookmarks.html");
        Files.writeString(marks, """
                <!DOCTYPE NETSCAPE-Bookmark-file-1>
                <DL><p>
                    <DT><A HREF="https://example.org/diary" ADD_DATE="1700000000" PRIVATE="1" TAGS="diary">Vellichor diary</A>
                    <DT><A HREF="https://example.org/public-page" ADD_DATE="1700000000" TAGS="web">A public page</A>
                </DL><p>
                """);
        account("marks", "{\"kind\":\"bookmarks\",\"baseUrl\":\"" + marks + "\"}");
        importFrom("marks");
    }

    @AfterAll
    static void stop() {
        idiom.close();
        pinboard.close();
        zotero.close();
        bibsonomy.close();
    }

    private static String key(String name, String role, boolean privateRecords) {
        HttpResponse<String> r = idiom.post("/api/keys", "application/json", "{\"name\":\"" + name + "\",\"role\":\"" + role + "\",\"privateRecords\":"
                + privateRecords + "}");
        assertEquals(201, r.statusCode(), r.body());
        return RunningIdiom.json(r).get("key").asText();
    }

    private static void account(String name, String json) {
        HttpResponse<String> r = idiom.put("/api/tools/" + name, json);
        assertEquals(200, r.statusCode(), r.body());
    }

    private static void importFrom(String name) {
        HttpResponse<String> r = idiom.post("/api/imports", "application/json", "{\"tool\":\"" + name + "\",\"fromStart\":true}");
        assertEquals(200, r.statusCode(), r.body());
        assertEquals(0, RunningIdiom.json(r).get("skipped").asInt(), r.body());
    }

    private static HttpResponse<String> get(String path, String key) {
        return idiom.send(HttpRequest.newBuilder(URI.create(idiom.url(path))).header("Authorization", "Bearer " + key).GET());
    }

    private static HttpResponse<String> soap(String bodyXml, String key) {
        return idiom.send(HttpRequest.newBuilder(URI.create(idiom.url("/services/DigitalEntityService")))
                .header("Authorization", "Bearer " + key).header("Content-Type", "text/xml; charset=UTF-8").header("SOAPAction", "\"\"")
                .POST(HttpRequest.BodyPublishers.ofString(RunningIdiom.envelope(bodyXml))));
    }

    /** The id of the DE whose URL is {@code url}, found as the curator (who sees every DE). */
    private static String idOf(String url) {
        for (JsonNode de : RunningIdiom.json(get("/api/entities?limit=200", curator)).get("entities")) {
            if (url.equals(de.path("metadata").path("url").asText())) {
                return de.get("id").asText();
            }
        }
        throw new AssertionError("no DE with url " + url);
    }

    private static List<String> tags(JsonNode de) {
        List<String> out = new ArrayList<>();
        de.path("metadata").path("tags").forEach(t -> out.add(t.asText()));
        return out;
    }

    private static List<String> facet(JsonNode page, String name) {
        List<String> out = new ArrayList<>();
        page.path("facets").path(name).forEach(f -> out.add(f.get("value").asText()));
        return out;
    }

    @Test
    void noAnswerOfAnyEndpointCarriesAShadow() throws Exception {
        String open = idOf("https://example.org/open");
        String diary = idOf("https://example.org/diary");
        try (Connection c = idiom.server.idiom().database().connection(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM entity WHERE state LIKE '%\"shadow\"%'")) {
            assertTrue(rs.next() && rs.getInt(1) > 0, "the store keeps the shadows the engine writes back from");
        }
        for (String key : List.of(reader, privateReader, curator, RunningIdiom.ADMIN_TOKEN)) {
            List<HttpResponse<String>> answers = new ArrayList<>(List.of(
                    get("/api/entities/" + open, key), get("/api/entities/" + open + "?source=db", key),
                    get("/api/entities/" + open + "?version=1", key), get("/api/entities/" + open + "/events", key),
                    get("/api/entities/" + diary, key), get("/api/entities?limit=200", key), get("/api/entities?q=pinned", key),
                    get("/api/changes?limit=1000", key),
                    soap("<de:moreInfo><de:id>" + open + "</de:id></de:moreInfo>", key),
                    soap("<de:moreInfo><de:id>" + open + "</de:id><de:source>db</de:source></de:moreInfo>", key),
                    soap("<de:history><de:id>" + open + "</de:id></de:history>", key),
                    soap("<de:search><de:limit>200</de:limit></de:search>", key)));
            for (HttpResponse<String> a : answers) {
                assertTrue(a.statusCode() == 200 || a.statusCode() == 404 || a.statusCode() == 500, a.uri() + " " + a.statusCode());
                assertFalse(a.body().contains("shadow"), a.uri() + " answered a shadow: " + a.body());
                // the tools' own forms: a Zotero item's keys, a Pinboard post's, a bookmark's attributes
                for (String own : List.of("relations", "collections", "itemType", "toread", "ADD_DATE")) {
                    assertFalse(a.body().contains(own), a.uri() + " answered a tool's own form (" + own + "): " + a.body());
                }
            }
        }
    }

    @Test
    void aPinboardBookmarkNotSharedIsInvisibleToAPlainReaderAndVisibleToACurator() {
        String hidden = idOf("https://example.org/hidden");
        // a plain reader: it does not exist
        HttpResponse<String> rest = get("/api/entities/" + hidden, reader);
        assertEquals(404, rest.statusCode(), rest.body());
        assertEquals("NotFound", RunningIdiom.json(rest).get("code").asText());
        assertEquals(404, get("/api/entities/" + hidden + "/events", reader).statusCode());
        assertEquals(404, get("/api/entities/" + hidden + "?version=1", reader).statusCode());
        HttpResponse<String> soap = soap("<de:moreInfo><de:id>" + hidden + "</de:id></de:moreInfo>", reader);
        assertTrue(Xml.text(Xml.parse(soap.body()), "faultcode").endsWith(":NotFound"), soap.body());
        JsonNode found = RunningIdiom.json(get("/api/entities?q=zanzibarish", reader));
        assertEquals(0, found.get("total").asInt(), found.toString());
        JsonNode all = RunningIdiom.json(get("/api/entities?limit=200", reader));
        all.get("entities").forEach(de -> assertFalse(de.get("id").asText().equals(hidden), "listed to a reader"));
        assertFalse(facet(all, "tag").contains("hushhush"), "its tag is not counted in the facets: " + all.get("facets"));
        JsonNode everything = RunningIdiom.json(get("/api/entities?limit=200", curator));
        assertTrue(all.get("total").asInt() < everything.get("total").asInt(), "the totals differ by what the reader may not see");
        String soapSearch = soap("<de:search><de:q>zanzibarish</de:q></de:search>", reader).body();
        assertFalse(soapSearch.contains(hidden), soapSearch);
        JsonNode feed = RunningIdiom.json(get("/api/changes?limit=1000", reader));
        feed.get("events").forEach(e -> assertFalse(e.get("entityId").asText().equals(hidden), "in the change feed: " + e));
        assertEquals(RunningIdiom.json(get("/api/changes?limit=1000", curator)).get("next").asLong(), feed.get("next").asLong(),
                "the feed's cursor moves past what it leaves out");

        // a curator, and a reader key made with the right: there, and marked private
        for (String key : List.of(curator, privateReader)) {
            HttpResponse<String> seen = get("/api/entities/" + hidden, key);
            assertEquals(200, seen.statusCode(), seen.body());
            assertTrue(RunningIdiom.json(seen).get("private").asBoolean(), seen.body());
            assertEquals(1, RunningIdiom.json(get("/api/entities?q=zanzibarish", key)).get("total").asInt());
        }
        assertTrue(soap("<de:moreInfo><de:id>" + hidden + "</de:id></de:moreInfo>", curator).body().contains("<private>true</private>")
                || soap("<de:moreInfo><de:id>" + hidden + "</de:id></de:moreInfo>", curator).body().contains(":private>true<"));
        assertEquals(404, get("/api/entities/" + hidden + "/replicas", reader).statusCode());
        assertEquals(404, get("/api/entities/" + hidden + "/provenance", reader).statusCode());
        assertEquals(404, get("/api/entities/" + hidden + "/conflicts", reader).statusCode());
        // a bookmark marked PRIVATE in its file is as private
        assertEquals(404, get("/api/entities/" + idOf("https://example.org/diary"), reader).statusCode());
        assertEquals(200, get("/api/entities/" + idOf("https://example.org/public-page"), reader).statusCode());
    }

    @Test
    void aDeWithAPublicAndAPrivateCopyShowsReadersOnlyThePublicCopysFields() {
        String open = idOf("https://example.org/open");
        JsonNode whole = RunningIdiom.json(get("/api/entities/" + open, curator));
        assertTrue(whole.get("replicas").size() >= 2, "one DE from the shared bookmark and the private library's item: " + whole);
        assertEquals("Quixotically private abstract", whole.path("metadata").path("abstract").asText());
        assertTrue(tags(whole).containsAll(List.of("open", ".secret", "closed", "for:friends")), whole.toString());
        assertFalse(whole.get("private").asBoolean(), "a public copy exists");

        for (Function<String, JsonNode> read : List.<Function<String, JsonNode>>of(
                id -> RunningIdiom.json(get("/api/entities/" + id, reader)),
                id -> RunningIdiom.json(get("/api/entities/" + id + "?source=db", reader)),
                id -> {
                    for (JsonNode de : RunningIdiom.json(get("/api/entities?q=pinned", reader)).get("entities")) {
                        if (de.get("id").asText().equals(id)) {
                            return de;
                        }
                    }
                    throw new AssertionError("a reader finds it by its public title");
                })) {
            JsonNode shown = read.apply(open);
            assertEquals("Openly pinned page", shown.path("metadata").path("title").asText());
            assertEquals(List.of("open"), tags(shown), "neither the private copy's tags nor Pinboard's private tag: " + shown);
            assertTrue(shown.path("metadata").path("abstract").isMissingNode(), "the abstract only the private copy holds: " + shown);
            assertEquals(1, shown.get("replicas").size(), shown.toString());
            assertEquals("pinboard", shown.get("replicas").get(0).get("tool").asText());
        }
        assertEquals(0, RunningIdiom.json(get("/api/entities?q=quixotically", reader)).get("total").asInt(), "not found by private words");
        assertEquals(1, RunningIdiom.json(get("/api/entities?q=quixotically", curator)).get("total").asInt());
        assertFalse(facet(RunningIdiom.json(get("/api/entities?limit=200", reader)), "tag").contains("closed"));
        String soapView = soap("<de:moreInfo><de:id>" + open + "</de:id></de:moreInfo>", reader).body();
        assertFalse(soapView.contains("Quixotically") || soapView.contains("closed") || soapView.contains(".secret"), soapView);
        JsonNode copies = RunningIdiom.json(get("/api/entities/" + open + "/replicas", reader));
        assertEquals(1, copies.size(), copies.toString());
        assertFalse(copies.toString().contains(".secret"), copies.toString());
        assertEquals(0, RunningIdiom.json(get("/api/entities/" + open + "/provenance", reader)).get("fields").size());
        JsonNode history = RunningIdiom.json(get("/api/entities/" + open + "/events", reader));
        history.get("events").forEach(e -> {
            assertTrue(e.get("withheld").asBoolean(), e.toString());
            assertTrue(e.get("payload").isNull() && e.get("source").isNull(), e.toString());
        });
    }

    @Test
    void aCuratorsMarkMakesADePrivateOverSoapAndRestAndTakingItAwayShowsItAgain() {
        HttpResponse<String> created = idiom.post("/api/entities", "application/json", "{\"metadata\":{\"title\":\"Marked by a curator\"},"
                + "\"private\":true}");
        assertEquals(201, created.statusCode(), created.body());
        String id = RunningIdiom.json(created).get("id").asText();
        assertTrue(RunningIdiom.json(created).get("private").asBoolean());
        assertEquals(404, get("/api/entities/" + id, reader).statusCode());
        HttpResponse<String> unmarked = idiom.patch("/api/entities/" + id, "{\"private\":false}", "If-Match", "\"2\"");
        assertEquals(200, unmarked.statusCode(), unmarked.body());
        assertEquals(200, get("/api/entities/" + id, reader).statusCode());
        assertEquals(1, RunningIdiom.json(get("/api/entities?q=marked+curator", reader)).get("total").asInt(), "found again once public");
        HttpResponse<String> marked = soap("<de:updateDE><de:id>" + id + "</de:id><de:field>private</de:field><de:value>true</de:value>"
                + "<de:expectedVersion>3</de:expectedVersion></de:updateDE>", curator);
        assertEquals(200, marked.statusCode(), marked.body());
        assertEquals(404, get("/api/entities/" + id, reader).statusCode());
        assertEquals(0, RunningIdiom.json(get("/api/entities?q=marked+curator", reader)).get("total").asInt());
        assertEquals(400, idiom.patch("/api/entities/" + id, "{\"private\":\"yes\"}", "If-Match", "\"4\"").statusCode());
    }

    @Test
    void privateAndActingTagsNeverReachBibSonomy() {
        String open = idOf("https://example.org/open");
        account("bib", "{\"kind\":\"bibsonomy\",\"baseUrl\":\"" + bibsonomy.uri() + "\",\"account\":\"" + BibSonomyStub.USER + "\",\"secret\":\""
                + BibSonomyStub.KEY + "\",\"newRecords\":\"public\"}");
        HttpResponse<String> up = idiom.post("/api/entities/" + open + "/replicas", "application/json", "{\"tool\":\"bib\"}");
        assertEquals(201, up.statusCode(), up.body());
        assertEquals(1, bibsonomy.allPosts().size());
        String post = bibsonomy.allPosts().getFirst();
        assertTrue(post.contains("name=\"open\""), post);
        assertFalse(post.contains("secret"), "Pinboard's private tag: " + post);
        assertFalse(post.contains("for:friends"), "an acting tag from Zotero: " + post);
        assertTrue(post.contains("<group name=\"private\""), "private in one tool, created private where the tool can say so: " + post);
        assertEquals(List.of(), bibsonomy.groupCopies("friends"), "no post was copied into the group");

        // left out, not owed: later syncs write nothing
        for (int round = 0; round < 3; round++) {
            HttpResponse<String> sync = idiom.post("/api/tools/bib/sync", "application/json", "");
            assertEquals(200, sync.statusCode(), sync.body());
        }
        int writes = bibsonomy.writes().size();
        HttpResponse<String> again = idiom.post("/api/tools/bib/sync", "application/json", "");
        assertEquals(200, again.statusCode(), again.body());
        JsonNode withheld = RunningIdiom.json(again).get("withheldTags");
        assertEquals(1, withheld.size(), "the sync says what it left out: " + again.body());
        assertEquals(open, withheld.get(0).get("entityId").asText());
        assertEquals("[\".secret\",\"for:friends\"]", withheld.get(0).get("tags").toString());
        assertEquals(writes, bibsonomy.writes().size(), "a sync with nothing new writes nothing");
        assertEquals(List.of(), bibsonomy.groupCopies("friends"));
        assertTrue(bibsonomy.allPosts().stream().noneMatch(p -> p.contains("for:friends") || p.contains(".secret")), bibsonomy.allPosts().toString());
    }

    @Test
    void aPeerWithAReaderKeyReceivesNoPrivateDeAndOneWithTheRightKeepsThemPrivate() {
        String hidden = idOf("https://example.org/hidden");
        try (RunningIdiom peer = new RunningIdiom(TestDatabase.freshUrl(), Map.of())) {
            HttpResponse<String> acct = peer.put("/api/tools/upstream", "{\"kind\":\"idiom\",\"baseUrl\":\"" + idiom.server.url() + "\",\"secret\":\""
                    + reader + "\"}");
            assertEquals(200, acct.statusCode(), acct.body());
            HttpResponse<String> pulled = peer.post("/api/imports", "application/json", "{\"tool\":\"upstream\",\"fromStart\":true}");
            assertEquals(200, pulled.statusCode(), pulled.body());
            JsonNode there = RunningIdiom.json(peer.get("/api/entities?limit=200"));
            List<String> urls = new ArrayList<>();
            there.get("entities").forEach(de -> urls.add(de.path("metadata").path("url").asText()));
            assertTrue(urls.contains("https://example.org/public-page"), urls.toString());
            assertFalse(urls.contains("https://example.org/hidden") || urls.contains("https://example.org/diary"), urls.toString());
            assertFalse(there.toString().contains("Quixotically"), "nor the private parts of a shared DE: " + there);

            HttpResponse<String> trusted = peer.put("/api/tools/trusted", "{\"kind\":\"idiom\",\"baseUrl\":\"" + idiom.server.url()
                    + "/\",\"secret\":\"" + privateReader + "\"}");
            assertEquals(200, trusted.statusCode(), trusted.body());
            assertEquals(200, peer.post("/api/imports", "application/json", "{\"tool\":\"trusted\",\"fromStart\":true}").statusCode());
            HttpResponse<String> peerReader = peer.post("/api/keys", "application/json", "{\"name\":\"peer-portal\",\"role\":\"reader\"}");
            String peerReaderKey = RunningIdiom.json(peerReader).get("key").asText();
            JsonNode asAdmin = RunningIdiom.json(peer.get("/api/entities?q=zanzibarish"));
            assertEquals(1, asAdmin.get("total").asInt(), "received with a key that may see it: " + asAdmin);
            String copy = asAdmin.get("entities").get(0).get("id").asText();
            assertTrue(asAdmin.get("entities").get(0).get("private").asBoolean(), "and kept private there");
            HttpResponse<String> byReader = peer.send(HttpRequest.newBuilder(URI.create(peer.url("/api/entities/" + copy)))
                    .header("Authorization", "Bearer " + peerReaderKey).GET());
            assertEquals(404, byReader.statusCode(), byReader.body());
        }
        assertEquals(404, get("/api/entities/" + hidden, reader).statusCode());
    }
}
