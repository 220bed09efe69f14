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
}
