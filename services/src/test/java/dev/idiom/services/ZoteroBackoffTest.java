package dev.idiom.services;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.idiom.db.TestDatabase;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * Idiom's own throttles, told to Zotero's clients in the API's words: a request refused because
 * Idiom is at its limit ({@code max-in-flight}) is a plain-text 503 with {@code Retry-After}, and
 * while Idiom refuses, every answer carries {@code Backoff} (desktop and pyzotero then hold back);
 * wrong keys past the bound are a 429 with {@code Retry-After}, counted with Idiom's other faces.
 */
class ZoteroBackoffTest {
    @Test
    void aRequestRefusedAtIdiomsLimitIsA503WithRetryAfterAndTheNextAnswersSayBackoff() throws Exception {
        try (RunningIdiom idiom = new RunningIdiom(TestDatabase.freshUrl(), Map.of("max-in-flight", "2", "admission-wait-ms", "0"))) {
            // two places: the account's check reaches the served library over HTTP while its PUT holds one
            JsonNode account = RunningIdiom.json(idiom.put("/api/tools/desktop", "{\"kind\":\"zotero-api\"}"));
            String key = account.path("apiKey").asText();
            URI items = URI.create(idiom.url("/users/" + account.path("userID").asLong() + "/items"));
            HttpResponse<String> quiet = idiom.anonymous(HttpRequest.newBuilder(items).header("Zotero-API-Key", key));
            assertEquals(200, quiet.statusCode(), quiet.body());
            assertFalse(quiet.headers().firstValue("Backoff").isPresent(), "no Backoff while Idiom is quiet: " + quiet.headers());

            // sixteen clients at once against two places: some are refused (bounded: at most 4,000 requests)
            AtomicReference<HttpResponse<String>> refused = new AtomicReference<>();
            ExecutorService clients = Executors.newFixedThreadPool(16);
            try {
                List<Future<?>> running = new ArrayList<>();
                for (int c = 0; c < 16; c++) {
                    running.add(clients.submit(() -> {
                        for (int i = 0; i < 250 && refused.get() == null; i++) {
                            HttpResponse<String> r = idiom.anonymous(HttpRequest.newBuilder(items).header("Zotero-API-Key", key));
                            if (r.statusCode() == 503) {
                                refused.compareAndSet(null, r);
                            }
                        }
                    }));
                }
                for (Future<?> f : running) {
                    f.get();
                }
            } finally {
                clients.shutdownNow();
            }
            HttpResponse<String> busy = refused.get();
            assertNotNull(busy, "sixteen clients against max-in-flight 2 and no wait: some request is refused");
            assertTrue(busy.headers().firstValue("Content-Type").orElse("").startsWith("text/plain"), "in the API's plain text: " + busy.headers());
            assertTrue(busy.body().contains("max-in-flight"), busy.body());
            assertEquals("1", busy.headers().firstValue("Retry-After").orElse(""));

            HttpResponse<String> after = idiom.anonymous(HttpRequest.newBuilder(items).header("Zotero-API-Key", key));
            assertEquals(200, after.statusCode(), after.body());
            assertEquals("10", after.headers().firstValue("Backoff").orElse(""), "Idiom refused moments ago: " + after.headers());
        }
    }

    @Test
    void wrongKeysPastTheBoundAre429WithRetryAfterWhileTheRightKeyOfAnotherClientStillWorks() throws Exception {
        try (RunningIdiom idiom = new RunningIdiom(TestDatabase.freshUrl(), Map.of("auth-failures-per-minute", "2"))) {
            JsonNode account = RunningIdiom.json(idiom.put("/api/tools/desktop", "{\"kind\":\"zotero-api\"}"));
            String key = account.path("apiKey").asText();
            URI items = URI.create(idiom.url("/users/" + account.path("userID").asLong() + "/items"));
            String wrong = (key.charAt(0) == 'Z' ? "Y" : "Z") + key.substring(1); // another key's prefix: its own count
            assertEquals(403, idiom.anonymous(HttpRequest.newBuilder(items).header("Zotero-API-Key", wrong)).statusCode());
            assertEquals(403, idiom.anonymous(HttpRequest.newBuilder(items).header("Zotero-API-Key", wrong)).statusCode());
            HttpResponse<String> throttled = idiom.anonymous(HttpRequest.newBuilder(items).header("Zotero-API-Key", wrong));
            assertEquals(429, throttled.statusCode(), throttled.body());
            assertEquals("Too many authentication failures", throttled.body());
            assertTrue(Long.parseLong(throttled.headers().firstValue("Retry-After").orElse("0")) >= 1, throttled.headers().toString());
            assertEquals(200, idiom.anonymous(HttpRequest.newBuilder(items).header("Zotero-API-Key", key)).statusCode(),
                    "a key unlike the wrong ones is still looked up");
        }
    }
}
