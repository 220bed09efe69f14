package dev.idiom.services;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.idiom.db.TestDatabase;
import dev.idiom.events.Field;
import dev.idiom.wrappers.AnnotationTool;
import dev.idiom.wrappers.AnnotationToolContract;
import dev.idiom.wrappers.http.ToolHttp;
import dev.idiom.wrappers.zotero.ZoteroTool;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The Zotero libraries Idiom serves speak the Zotero Web API as Idiom's own Zotero adapter knows
 * it from the strict stand-in: the adapter's whole contract passes against a served library over
 * real HTTP (keys, versions, {@code since}, write tokens, 412 on a stale version, deletions), and
 * bad input gets the API's own answer with nothing written (the library's version unchanged).
 */
class ServedZoteroLibraryTest extends AnnotationToolContract {
    private static final String ROOT = "root:test-root-password";
    private static RunningIdiom idiom;
    private String key;

    @BeforeAll
    static void start() {
        idiom = new RunningIdiom(TestDatabase.freshUrl(), Map.of(), Map.of("IDIOM_SECRET_KEY", RunningIdiom.SECRET_KEY, "IDIOM_ADMIN_TOKEN",
                RunningIdiom.ADMIN_TOKEN, "IDIOM_ZOTERO_TEST_ROOT", ROOT));
    }

    @AfterAll
    static void stop() {
        idiom.close();
    }

    /** Each case on empty libraries with new keys, as Zotero's own suite sets itself up ({@code test/setup}). */
    @BeforeEach
    void freshLibraries() {
        HttpResponse<String> setup = idiom.anonymous(HttpRequest.newBuilder(URI.create(idiom.url("/test/setup?u=1&u2=2")))
                .header("Authorization", "Basic " + java.util.Base64.getEncoder().encodeToString(ROOT.getBytes()))
                .POST(HttpRequest.BodyPublishers.ofString(" ")));
        assertEquals(200, setup.statusCode(), setup.body());
        key = RunningIdiom.json(setup).path("user1").path("apiKey").asText();
    }

    @Override
    protected AnnotationTool tool() {
        return new ZoteroTool(URI.create(idiom.url("")), "users/1", key, new ToolHttp("Zotero", ZoteroTool.LIMITS, Clock.systemUTC(), w -> { }, 4));
    }

    @Override
    protected Set<Field> fieldsKept() {
        return EnumSet.complementOf(EnumSet.of(Field.NOTES, Field.BIBTEX_EXTRAS)); // as for zotero.org: notes are child items, extra is data
    }

    @Override
    protected boolean trashes() {
        return true; // a deletion moves the item to the trash, as on zotero.org
    }

    /**
     * Tomcat refuses an encoded '/' in any path with 400 before the face sees it (api.zotero.org
     * answers 404): so an id holding URI characters is refused as the bad request it is, and is no
     * path to another object either way.
     */
    @Override
    @Test
    protected void anIdHoldingUriCharactersStaysOneIdThatNoRecordHas() {
        dev.idiom.wrappers.ToolException refused = org.junit.jupiter.api.Assertions.assertThrows(dev.idiom.wrappers.ToolException.class,
                () -> tool().fetch("no such?id=1/../x ă\\"));
        assertTrue(refused.getMessage().contains("HTTP 400"), refused.getMessage());
        assertTrue(tool().fetch("ABCD2345").isEmpty(), "an unknown key is no record");
    }

    private HttpResponse<String> call(String method, String path, String body, String... headers) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(idiom.url(path))).header("Zotero-API-Version", "3")
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (headers.length > 0) {
            b.headers(headers);
        }
        return idiom.anonymous(b);
    }

    private long version() {
        HttpResponse<String> r = call("GET", "/users/1/items?format=keys&limit=1", null, "Zotero-API-Key", key);
        assertEquals(200, r.statusCode(), r.body());
        return Long.parseLong(r.headers().firstValue("Last-Modified-Version").orElseThrow());
    }

    @Test
    void theKeyTellsWhoItIsAndAWrongKeyIsRefusedWithoutReadingAnything() {
        JsonNode me = RunningIdiom.json(call("GET", "/keys/current", null, "Zotero-API-Key", key));
        assertEquals(1, me.path("userID").asLong());
        assertTrue(me.path("access").path("user").path("write").asBoolean());
        assertEquals(403, call("GET", "/users/1/items", null, "Zotero-API-Key", "not-a-key-of-this-server").statusCode());
        assertEquals(403, call("GET", "/users/1/items", null).statusCode(), "no key");
        assertEquals(200, call("GET", "/users/1/items?key=" + key, null).statusCode(), "?key= as Zotero's clients send it");
        assertEquals(200, call("GET", "/users/1/items", null, "Authorization", "Bearer " + key).statusCode());
        assertEquals(403, call("GET", "/users/2/items", null, "Zotero-API-Key", key).statusCode(), "user 1's key does not open user 2's library");
    }

    @Test
    void badWritesGetTheApisAnswerAndWriteNothing() {
        String item = "{\"itemType\":\"book\",\"title\":\"T\"}";
        HttpResponse<String> made = call("POST", "/users/1/items", "[" + item + "]", "Zotero-API-Key", key, "Content-Type", "application/json");
        assertEquals(200, made.statusCode(), made.body());
        String itemKey = RunningIdiom.json(made).path("success").path("0").asText();
        long before = version();

        assertEquals(400, call("POST", "/users/1/items", "[{\"itemType\":", "Zotero-API-Key", key).statusCode(), "malformed JSON");
        String many = String.join(",", java.util.Collections.nCopies(51, item));
        assertEquals(413, call("POST", "/users/1/items", "[" + many + "]", "Zotero-API-Key", key).statusCode(), "51 objects");
        JsonNode unknownField = RunningIdiom.json(call("POST", "/users/1/items", "[{\"itemType\":\"book\",\"title\":\"T\",\"fooBar\":\"x\"}]",
                "Zotero-API-Key", key));
        assertEquals(400, unknownField.path("failed").path("0").path("code").asInt(), unknownField.toString());
        // the dataserver's words: a property no item type has is invalid; a field of another type is not valid for this one
        assertEquals("Invalid property 'fooBar'", unknownField.path("failed").path("0").path("message").asText());
        JsonNode otherTypesField = RunningIdiom.json(call("POST", "/users/1/items", "[{\"itemType\":\"book\",\"title\":\"T\",\"court\":\"x\"}]",
                "Zotero-API-Key", key));
        assertEquals("'court' is not a valid field for type 'book'", otherTypesField.path("failed").path("0").path("message").asText());
        assertEquals(412, call("PATCH", "/users/1/items/" + itemKey, "{\"title\":\"U\"}", "Zotero-API-Key", key,
                "If-Unmodified-Since-Version", Long.toString(before - 1)).statusCode(), "a stale version");
        assertEquals(428, call("DELETE", "/users/1/items/" + itemKey, null, "Zotero-API-Key", key).statusCode(), "a delete without a version");
        assertEquals(412, call("POST", "/users/1/items", "[" + item + "]", "Zotero-API-Key", key, "If-Unmodified-Since-Version",
                Long.toString(before - 1)).statusCode(), "a library changed since");
        assertEquals(404, call("GET", "/users/1/items/ABCD2345", null, "Zotero-API-Key", key).statusCode(), "an unknown key");

        assertEquals(before, version(), "nothing written");
        assertEquals("T", RunningIdiom.json(call("GET", "/users/1/items/" + itemKey, null, "Zotero-API-Key", key)).path("data").path("title").asText());
    }

    @Test
    void aNoChangeSyncIsAnswered304AndEveryAnswerNamesTheLibrarysVersion() {
        call("POST", "/users/1/items", "[{\"itemType\":\"book\",\"title\":\"T\"}]", "Zotero-API-Key", key);
        long v = version();
        HttpResponse<String> settings = call("GET", "/users/1/settings?since=" + v, null, "Zotero-API-Key", key, "If-Modified-Since-Version",
                Long.toString(v));
        assertEquals(304, settings.statusCode());
        assertEquals(Long.toString(v), settings.headers().firstValue("Last-Modified-Version").orElseThrow());
        HttpResponse<String> deleted = call("GET", "/users/1/deleted?since=0", null, "Zotero-API-Key", key);
        assertEquals(200, deleted.statusCode());
        assertEquals("application/json", deleted.headers().firstValue("Content-Type").orElseThrow());
    }

    @Test
    void atomFeedsAndEntriesCarryWhatAtomReadersReadAndAskedPagesOfKeysArePaged() throws Exception {
        HttpResponse<String> made = call("POST", "/users/1/items", "[{\"itemType\":\"book\",\"title\":\"Fish & <Chips>\",\"date\":\"Sept 18, 2012\","
                + "\"creators\":[{\"creatorType\":\"author\",\"firstName\":\"Ada\",\"lastName\":\"Lovelace\"}]},"
                + "{\"itemType\":\"journalArticle\",\"title\":\"Second\"}]", "Zotero-API-Key", key);
        String book = RunningIdiom.json(made).path("success").path("0").asText();
        call("POST", "/users/1/items", "[{\"itemType\":\"note\",\"note\":\"<p>A note</p>\",\"parentItem\":\"" + book + "\"}]", "Zotero-API-Key", key);

        HttpResponse<String> feed = call("GET", "/users/1/items/top?format=atom&content=json&limit=1&sort=title", null, "Zotero-API-Key", key);
        assertEquals(200, feed.statusCode(), feed.body());
        assertEquals("application/atom+xml", feed.headers().firstValue("Content-Type").orElseThrow());
        org.w3c.dom.Document doc = xml(feed.body());
        assertEquals("feed", doc.getDocumentElement().getLocalName());
        org.w3c.dom.NodeList entries = doc.getElementsByTagNameNS("http://www.w3.org/2005/Atom", "entry");
        assertEquals(1, entries.getLength(), "one page of one");
        org.w3c.dom.Element entry = (org.w3c.dom.Element) entries.item(0);
        assertEquals(book, zapi(entry, "key"));
        assertEquals("Lovelace", zapi(entry, "creatorSummary"));
        assertEquals("2012-09-18", zapi(entry, "parsedDate"));
        assertEquals("1", zapi(entry, "numChildren"));
        assertEquals("Fish & <Chips>", entry.getElementsByTagNameNS("http://www.w3.org/2005/Atom", "title").item(0).getTextContent());
        JsonNode data = new com.fasterxml.jackson.databind.ObjectMapper().readTree(
                entry.getElementsByTagNameNS("http://www.w3.org/2005/Atom", "content").item(0).getTextContent());
        assertEquals("Fish & <Chips>", data.path("title").asText());
        assertTrue(feed.headers().firstValue("Link").orElseThrow().contains("rel=\"next\""), "the feed's pages in Link as in JSON");

        org.w3c.dom.Document one = xml(call("GET", "/users/1/items/" + book + "?content=html", null, "Zotero-API-Key", key).body());
        assertEquals("entry", one.getDocumentElement().getLocalName(), "content= alone asks for Atom; one object is one entry");
        org.w3c.dom.NodeList cells = one.getElementsByTagNameNS("http://www.w3.org/1999/xhtml", "td");
        assertTrue(cells.getLength() >= 3 && cells.item(0).getTextContent().equals("Book") && cells.item(1).getTextContent().equals("Ada Lovelace"),
                "html content: the type, then each creator: " + one.getDocumentElement().getTextContent());

        assertEquals(400, call("GET", "/users/1/items?format=atom&content=bib", null, "Zotero-API-Key", key).statusCode(), "content Idiom cannot write");
        assertEquals(400, call("GET", "/users/1/items?format=keys&content=json", null, "Zotero-API-Key", key).statusCode(), "content without Atom");
        assertEquals(3, call("GET", "/users/1/items?format=keys", null, "Zotero-API-Key", key).body().strip().split("\n").length, "keys: all");
        assertEquals(2, call("GET", "/users/1/items?format=keys&limit=2", null, "Zotero-API-Key", key).body().strip().split("\n").length,
                "keys: a page when a limit is asked");
    }

    private static org.w3c.dom.Document xml(String body) throws Exception {
        javax.xml.parsers.DocumentBuilderFactory f = javax.xml.parsers.DocumentBuilderFactory.newInstance();
        f.setNamespaceAware(true);
        return f.newDocumentBuilder().parse(new org.xml.sax.InputSource(new java.io.StringReader(body)));
    }

    private static String zapi(org.w3c.dom.Element entry, String name) {
        org.w3c.dom.NodeList n = entry.getElementsByTagNameNS("http://zotero.org/ns/api", name);
        return n.getLength() == 0 ? null : n.item(0).getTextContent();
    }
}
