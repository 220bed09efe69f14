package dev.idiom.services;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.idiom.db.TestDatabase;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

/**
 * Zotero's streaming API on a served library, over real WebSockets (the JDK's client, with the
 * subprotocol Zotero desktop asks for): the stream server's messages, its errors, and a
 * {@code topicUpdated} with the library's new version for every write, whoever made it.
 */
class ZoteroStreamTest {
    private static final String ITEM = "[{\"itemType\":\"book\",\"title\":\"Epidemic algorithms\"}]";

    @Test
    void aSubscriberHearsEachWriteToItsLibraryWithTheNewVersionAndTheStreamServersErrorsForWhatItRefuses() throws Exception {
        try (RunningIdiom idiom = new RunningIdiom(TestDatabase.freshUrl(), Map.of())) {
            JsonNode account = RunningIdiom.json(idiom.put("/api/tools/desktop", "{\"kind\":\"zotero-api\"}"));
            String key = account.path("apiKey").asText();
            String library = "/users/" + account.path("userID").asLong();
            Frames s = Frames.open(idiom, null);
            assertEquals("zotero-streaming-api-v1", s.socket.getSubprotocol());
            JsonNode hello = s.next(m -> true);
            assertEquals("connected", hello.path("event").asText());
            assertEquals(10000, hello.path("retry").asInt());

            s.send("{\"action\":\"createSubscriptions\",\"subscriptions\":[{\"apiKey\":\"" + key + "\"}]}");
            JsonNode created = s.next(m -> true);
            assertEquals("subscriptionsCreated", created.path("event").asText(), created.toString());
            assertEquals(key, created.path("subscriptions").get(0).path("apiKey").asText());
            assertEquals(List.of(library, library + "/publications"), texts(created.path("subscriptions").get(0).path("topics")));
            assertEquals(0, created.path("errors").size());

            // a write through the Zotero API is announced with the version it answered
            HttpResponse<String> written = idiom.anonymous(HttpRequest.newBuilder(URI.create(idiom.url(library + "/items")))
                    .header("Zotero-API-Key", key).header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(ITEM)));
            assertEquals(200, written.statusCode(), written.body());
            long version = Long.parseLong(written.headers().firstValue("Last-Modified-Version").orElseThrow());
            JsonNode update = s.next(m -> m.path("event").asText().equals("topicUpdated") && m.path("version").asLong() >= version);
            assertEquals(library, update.path("topic").asText());
            assertEquals(version, update.path("version").asLong());

            // what the stream server refuses, it refuses in its words, and the connection stays
            s.send("{not json");
            assertError(s.next(m -> true), 4400, "Error parsing JSON");
            s.send("{\"subscriptions\":[]}");
            assertError(s.next(m -> true), 4400, "'action' not provided");
            s.send("{\"action\":\"createSubscriptions\",\"subscriptions\":[{\"apiKey\":\"NOTAKEYNOTAKEYNOTAKEY123\"}]}");
            assertError(s.next(m -> true), 4403, "Invalid API key");
            s.send("{\"action\":\"createSubscriptions\",\"subscriptions\":[{\"apiKey\":\"" + key + "\",\"topics\":[\"/groups/999999\",\"styles\"]}]}");
            JsonNode partly = s.next(m -> true);
            assertEquals("Topic is not valid for provided API key", partly.path("errors").get(0).path("error").asText(), partly.toString());
            assertEquals("/groups/999999", partly.path("errors").get(0).path("topic").asText());
            assertTrue(partly.path("subscriptions").get(0).path("apiKey").isMissingNode(), "the public topic is no key's: " + partly);
            s.send("{\"action\":\"deleteSubscriptions\",\"subscriptions\":[{\"apiKey\":\"" + key + "\"}]}");
            JsonNode deleted = s.next(m -> true);
            assertEquals("subscriptionsDeleted", deleted.path("event").asText(), deleted.toString());
            assertEquals(List.of(library, library + "/publications"), texts(deleted.path("subscriptions").get(0).path("topics")));
            s.send("{\"action\":\"deleteSubscriptions\",\"subscriptions\":[{\"apiKey\":\"" + key + "\"}]}");
            assertError(s.next(m -> true), 4409, "No matching subscription");

            // a single-key connection (the key in the handshake) has every topic of the key at once, and cannot be changed
            Frames single = Frames.open(idiom, key);
            JsonNode singleHello = single.next(m -> true);
            assertEquals(List.of(library, library + "/publications", "styles", "translators"), texts(singleHello.path("topics")), singleHello.toString());
            single.send("{\"action\":\"createSubscriptions\",\"subscriptions\":[{\"apiKey\":\"" + key + "\"}]}");
            assertError(single.next(m -> true), 4405, "Single-key connection cannot be modified");
            HttpResponse<String> again = idiom.anonymous(HttpRequest.newBuilder(URI.create(idiom.url(library + "/items")))
                    .header("Zotero-API-Key", key).header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(ITEM)));
            long next = Long.parseLong(again.headers().firstValue("Last-Modified-Version").orElseThrow());
            assertEquals(next, single.next(m -> m.path("event").asText().equals("topicUpdated") && m.path("version").asLong() >= next).path("version").asLong());
            s.close();
            single.close();
        }
    }

    private static void assertError(JsonNode m, int code, String message) {
        assertEquals("error", m.path("event").asText(), m.toString());
        assertEquals(code, m.path("code").asInt(), m.toString());
        assertEquals(message, m.path("message").asText(), m.toString());
    }

    private static List<String> texts(JsonNode array) {
        List<String> out = new java.util.ArrayList<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }

    /** A WebSocket to the stream, and the messages it has heard, in order. */
    private record Frames(WebSocket socket, BlockingQueue<String> heard) {
        static Frames open(RunningIdiom idiom, String key) throws Exception {
            BlockingQueue<String> heard = new LinkedBlockingQueue<>();
            WebSocket.Builder b = HttpClient.newHttpClient().newWebSocketBuilder().subprotocols("zotero-streaming-api-v1");
            if (key != null) {
                b.header("Zotero-API-Key", key);
            }
            WebSocket ws = b.buildAsync(URI.create(idiom.url("/stream").replaceFirst("^http", "ws")), new WebSocket.Listener() {
                private final StringBuilder text = new StringBuilder();

                @Override
                public CompletionStage<?> onText(WebSocket w, CharSequence data, boolean last) {
                    text.append(data);
                    if (last) {
                        heard.add(text.toString());
                        text.setLength(0);
                    }
                    w.request(1);
                    return null;
                }
            }).get(10, TimeUnit.SECONDS);
            return new Frames(ws, heard);
        }

        void send(String text) {
            socket.sendText(text, true).join();
        }

        /** The first message from now that {@code wanted} takes (others are passed over), within 10 s. */
        JsonNode next(Predicate<JsonNode> wanted) throws Exception {
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (System.nanoTime() < until) {
                String m = heard.poll(100, TimeUnit.MILLISECONDS);
                if (m != null) {
                    JsonNode n = RunningIdiom.JSON.readTree(m);
                    if (wanted.test(n)) {
                        return n;
                    }
                }
            }
            throw new AssertionError("no such message within 10 s");
        }

        void close() {
            socket.sendClose(WebSocket.NORMAL_CLOSURE, "").join();
        }
    }
}
