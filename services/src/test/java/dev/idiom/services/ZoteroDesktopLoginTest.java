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
 * Zotero desktop's web login against Idiom, as desktop makes it: {@code POST keys/sessions}, the
 * user opens the {@code loginURL} (a page of the curator's workspace), a curator allows it for a
 * served library, and desktop's next poll of the session receives the key, once.
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

    private static JsonNode poll(RunningIdiom idiom, String token) {
        HttpResponse<String> r = idiom.anonymous(HttpRequest.newBuilder(URI.create(idiom.url("/keys/sessions/" + token))));
        assertEquals(200, r.statusCode(), r.body());
        return RunningIdiom.json(r);
    }
}
