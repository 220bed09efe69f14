package dev.idiom.services;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.idiom.db.TestDatabase;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Zotero desktop's sign-ins against Idiom, as desktop makes them. Desktop 9's web login: {@code POST
 * keys/sessions}, the user opens the {@code loginURL} (a page of the curator's workspace), a curator
 * allows it for a served library, and desktop's next poll of the session receives the key, once.
 * Desktop 7 and 8's: {@code POST keys} with the account's name and the password said with it
 * (zotero/zotero {@code syncAPIClient.js createAPIKeyFromCredentials}).
 */
class ZoteroDesktopLoginTest {
    @Test
    void aCuratorAllowsDesktopsSignInAtTheLoginPageAndTheNextPollGetsAKeyToThatLibraryOnce() throws Exception {
        try (RunningIdiom idiom = new RunningIdiom(TestDatabase.freshUrl(), Map.of())) {
            JsonNode account = RunningIdiom.json(idiom.put("/api/tools/desktop", "{\"kind\":\"zotero-api\"}"));
            HttpResponse<String> opened = idiom.anonymous(HttpRequest.newBuilder(URI.create(idiom.url("/keys/sessions")))
                    .header("User-Agent", "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Zotero/7.0").POST(HttpRequest.BodyPublishers.noBody()));
            assertEquals(201, opened.statusCode(), opened.body());
            String token = RunningIdiom.json(opened).path("sessionToken").asText();
            String login = RunningIdiom.json(opened).path("loginURL").asText();
            assertEquals(idiom.url("/curator/zotero-login/" + token), login);
            assertEquals("pending", poll(idiom, token).path("status").asText());

            // nobody signed in gets no approval page; a curator sees the client and the served libraries
            HttpResponse<String> anonymous = idiom.anonymous(HttpRequest.newBuilder(URI.create(login)).header("Accept", "text/html"));
            assertEquals(303, anonymous.statusCode(), anonymous.body()); // to the workspace's sign-in
            assertTrue(anonymous.headers().firstValue("Location").orElse("").contains("/curator"), anonymous.headers().toString());
            HttpResponse<String> page = idiom.send(HttpRequest.newBuilder(URI.create(login)).header("Accept", "text/html"));
            assertEquals(200, page.statusCode(), page.body());
            assertTrue(page.body().contains("Zotero on Linux") && page.body().contains("value=\"desktop\""), page.body());

            HttpResponse<String> allowed = idiom.send(HttpRequest.newBuilder(URI.create(login)).header("Content-Type", "application/x-www-form-urlencoded")
                    .POST(HttpRequest.BodyPublishers.ofString("action=allow&account=desktop")));
            assertEquals(200, allowed.statusCode(), allowed.body());
            JsonNode done = poll(idiom, token);
            assertEquals("completed", done.path("status").asText());
            assertEquals(account.path("userID").asLong(), done.path("userID").asLong());
            String key = done.path("apiKey").asText();
            assertEquals(24, key.length());
            assertFalse(poll(idiom, token).has("apiKey"), "the key is given once");
            HttpResponse<String> current = idiom.anonymous(HttpRequest.newBuilder(URI.create(idiom.url("/keys/current"))).header("Zotero-API-Key", key));
            assertEquals(200, current.statusCode(), current.body());
            assertTrue(RunningIdiom.json(current).path("access").path("user").path("write").asBoolean(), current.body());
            HttpResponse<String> items = idiom.anonymous(HttpRequest.newBuilder(URI.create(idiom.url("/users/" + account.path("userID").asLong() + "/items")))
                    .header("Zotero-API-Key", key));
            assertEquals(200, items.statusCode(), items.body());

            // once done, the page says so and allows nothing more
            assertEquals(409, idiom.send(HttpRequest.newBuilder(URI.create(login)).header("Content-Type", "application/x-www-form-urlencoded")
                    .POST(HttpRequest.BodyPublishers.ofString("action=allow&account=desktop"))).statusCode());
        }
    }

    /** The body desktop 7 sends ({@code createAPIKeyFromCredentials}), with a name and password. */
    private static String desktopSignIn(String username, String password) {
        return "{\"username\":\"" + username + "\",\"password\":\"" + password + "\",\"name\":\"Automatic Zotero Client Key\","
                + "\"access\":{\"user\":{\"library\":true,\"notes\":true,\"write\":true,\"files\":true},"
                + "\"groups\":{\"all\":{\"library\":true,\"write\":true}}}}";
    }

    private static HttpResponse<String> postKeys(RunningIdiom idiom, String body) {
        return idiom.anonymous(HttpRequest.newBuilder(URI.create(idiom.url("/keys"))).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)));
    }

    @Test
    void desktopSevenSignsInWithTheAccountsNameAndPasswordAndAWrongOneGetsNoKeyAndIsThrottled() throws Exception {
        try (RunningIdiom idiom = new RunningIdiom(TestDatabase.freshUrl(), Map.of("auth-failures-per-minute", "3"))) {
            JsonNode account = RunningIdiom.json(idiom.put("/api/tools/desktop", "{\"kind\":\"zotero-api\"}"));
            assertEquals("desktop", account.path("username").asText(), account.toString());
            String password = account.path("password").asText();
            assertEquals(24, password.length(), account.toString());
            assertFalse(RunningIdiom.json(idiom.put("/api/tools/desktop", "{\"kind\":\"zotero-api\"}")).has("password"), "the password is said once");

            HttpResponse<String> made = postKeys(idiom, desktopSignIn("desktop", password));
            assertEquals(201, made.statusCode(), made.body());
            JsonNode key = RunningIdiom.json(made);
            assertEquals(account.path("userID").asLong(), key.path("userID").asLong());
            assertEquals("desktop", key.path("username").asText());
            assertEquals("Automatic Zotero Client Key", key.path("name").asText());
            assertTrue(key.path("access").path("user").path("write").asBoolean() && key.path("access").path("groups").path("all").path("write").asBoolean(),
                    made.body());
            assertEquals(idiom.url("/keys/" + key.path("key").asText()), made.headers().firstValue("Location").orElse(""));
            String library = "/users/" + account.path("userID").asLong() + "/items";
            HttpResponse<String> items = idiom.anonymous(HttpRequest.newBuilder(URI.create(idiom.url(library))).header("Zotero-API-Key", key.path("key").asText()));
            assertEquals(200, items.statusCode(), items.body());

            // a wrong password, an unknown name, no password: 403 and no key; past the bound, 429 with Retry-After even for the right one
            assertEquals(403, postKeys(idiom, desktopSignIn("desktop", "not-" + password)).statusCode());
            assertEquals("Invalid username/password", postKeys(idiom, desktopSignIn("nobody", password)).body());
            assertEquals(403, postKeys(idiom, "{\"username\":\"desktop\",\"name\":\"k\"}").statusCode());
            assertEquals(400, postKeys(idiom, "{\"username\":").statusCode(), "malformed JSON");
            assertEquals(403, postKeys(idiom, desktopSignIn("desktop", "still-not-" + password)).statusCode());
            assertEquals(403, postKeys(idiom, desktopSignIn("desktop", "again-not-" + password)).statusCode());
            HttpResponse<String> throttled = postKeys(idiom, desktopSignIn("desktop", password));
            assertEquals(429, throttled.statusCode(), throttled.body());
            assertEquals("Too many authentication failures", throttled.body());
            assertTrue(Long.parseLong(throttled.headers().firstValue("Retry-After").orElse("0")) >= 1, throttled.headers().toString());

            // a new password (said once) refuses the old one; the key desktop holds stays good
            HttpResponse<String> renewed = idiom.post("/api/tools/desktop/zotero-password", "application/json", "");
            assertEquals(200, renewed.statusCode(), renewed.body());
            assertTrue(!RunningIdiom.json(renewed).path("password").asText().equals(password) && RunningIdiom.json(renewed).path("password").asText().length() == 24);
            assertEquals(200, idiom.anonymous(HttpRequest.newBuilder(URI.create(idiom.url(library))).header("Zotero-API-Key", key.path("key").asText()))
                    .statusCode());
        }
    }

    @Test
    void aKeyIsReadChangedAndRevokedWithItsOwnUsersSignInOnly() throws Exception {
        try (RunningIdiom idiom = new RunningIdiom(TestDatabase.freshUrl(), Map.of())) {
            JsonNode one = RunningIdiom.json(idiom.put("/api/tools/one", "{\"kind\":\"zotero-api\"}"));
            JsonNode two = RunningIdiom.json(idiom.put("/api/tools/two", "{\"kind\":\"zotero-api\"}"));
            String key = RunningIdiom.json(postKeys(idiom, "{\"username\":\"one\",\"password\":\"" + one.path("password").asText()
                    + "\",\"name\":\"reader\",\"access\":{\"user\":{\"library\":true}}}")).path("key").asText();
            HttpResponse<String> read = idiom.anonymous(HttpRequest.newBuilder(URI.create(idiom.url("/keys/" + key))));
            assertEquals(200, read.statusCode(), read.body());
            assertEquals("{\"library\":true,\"files\":true}", RunningIdiom.json(read).path("access").path("user").toString(), "what the dataserver grants");
            assertFalse(RunningIdiom.json(read).has("name"), "a key's name is the website's to read");
            String library = "/users/" + one.path("userID").asLong() + "/items";
            HttpResponse<String> write = idiom.anonymous(HttpRequest.newBuilder(URI.create(idiom.url(library))).header("Zotero-API-Key", key)
                    .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString("[{\"itemType\":\"book\",\"title\":\"T\"}]")));
            assertEquals(403, write.statusCode(), "a read-only key writes nothing: " + write.body());

            String change = "\",\"name\":\"writer\",\"access\":{\"user\":{\"library\":true,\"write\":true}}}";
            HttpResponse<String> byOther = idiom.anonymous(HttpRequest.newBuilder(URI.create(idiom.url("/keys/" + key))).header("Content-Type", "application/json")
                    .PUT(HttpRequest.BodyPublishers.ofString("{\"username\":\"two\",\"password\":\"" + two.path("password").asText() + change)));
            assertEquals(403, byOther.statusCode(), "another user's sign-in changes no key of this one: " + byOther.body());
            HttpResponse<String> changed = idiom.anonymous(HttpRequest.newBuilder(URI.create(idiom.url("/keys/" + key))).header("Content-Type", "application/json")
                    .PUT(HttpRequest.BodyPublishers.ofString("{\"username\":\"one\",\"password\":\"" + one.path("password").asText() + change)));
            assertEquals(200, changed.statusCode(), changed.body());
            assertEquals("writer", RunningIdiom.json(changed).path("name").asText());
            write = idiom.anonymous(HttpRequest.newBuilder(URI.create(idiom.url(library))).header("Zotero-API-Key", key)
                    .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString("[{\"itemType\":\"book\",\"title\":\"T\"}]")));
            assertEquals(200, write.statusCode(), write.body());

            assertEquals(204, idiom.anonymous(HttpRequest.newBuilder(URI.create(idiom.url("/keys/current"))).header("Zotero-API-Key", key).DELETE()).statusCode());
            assertEquals(403, idiom.anonymous(HttpRequest.newBuilder(URI.create(idiom.url("/keys/current"))).header("Zotero-API-Key", key)).statusCode());
        }
    }
    private static JsonNode poll(RunningIdiom idiom, String token) {
        HttpResponse<String> r = idiom.anonymous(HttpRequest.newBuilder(URI.create(idiom.url("/keys/sessions/" + token))));
        assertEquals(200, r.statusCode(), r.body());
        return RunningIdiom.json(r);
    }
}
