package dev.idiom.services.app.zotero;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.idiom.db.TimeSource;
import dev.idiom.events.zotero.ServedLibraries;
import dev.idiom.events.zotero.ServedLibraries.ClientKey;
import dev.idiom.events.zotero.ServedLibraries.Library;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Zotero's streaming API over the libraries Idiom serves (what stream.zotero.org does for
 * api.zotero.org): a connection subscribes to topics ({@code /users/N}, {@code /groups/N}) by API
 * key, and hears {@code topicUpdated} with the new version whenever a library's version grows, so a
 * desktop syncs at once instead of on its timer. The messages and their errors are the stream
 * server's (an error is an {@code error} event with a 4xxx code; the connection stays open).
 * Versions are read from the store, so a write through any node of a shared store is announced; the
 * watcher runs only while a connection is open.
 */
public final class LibraryStream {
    private static final Logger LOG = Logger.getLogger(LibraryStream.class.getName());
    private static final ObjectMapper JSON = new ObjectMapper();
    /** The topics every connection may have without a key (Zotero's styles and translators: Idiom serves neither, so they never change). */
    static final List<String> GLOBAL_TOPICS = List.of("styles", "translators");
    /** What {@code connected} tells a client to wait before reconnecting (the stream server's default). */
    static final int RETRY_MILLIS = 10_000;
    /** How often library versions are read while anyone listens. */
    static final long WATCH_MILLIS = 200;
    /** The largest message a client may send (the stream server's 1 MB). */
    public static final int MAX_MESSAGE = 1_000_000;

    private final ServedLibraries store;
    private final ServedZotero zotero;
    private final Set<Connection> open = ConcurrentHashMap.newKeySet();
    private final Object watching = new Object();
    private Thread watcher;

    LibraryStream(ServedLibraries store, ServedZotero zotero) {
        this.store = store;
        this.zotero = zotero;
    }

    /** A refusal the stream server answers with an {@code error} event: an HTTP-like code goes as 4000 + code, a WebSocket one as it is. */
    public static final class StreamError extends RuntimeException {
        final int code;

        StreamError(int code, String message) {
            super(message);
            this.code = code < 1000 ? 4000 + code : code;
        }
    }

    /** One client's socket: its subscriptions, by API key ("" for topics without one). */
    public final class Connection {
        private final Consumer<String> send;
        private final boolean singleKey;
        private final Map<String, Set<String>> topicsByKey = new LinkedHashMap<>();

        private Connection(Consumer<String> send, boolean singleKey) {
            this.send = send;
            this.singleKey = singleKey;
        }

        /** A message from the client; what it is owed is sent back on the connection. */
        public void received(String message) {
            try {
                if (message.length() > MAX_MESSAGE) {
                    throw new StreamError(1009, "Message too big");
                }
                String m = message.strip();
                if (m.isEmpty()) {
                    throw new StreamError(400, "Message not provided");
                }
                JsonNode data;
                try {
                    data = JSON.readTree(m);
                } catch (java.io.IOException e) {
                    throw new StreamError(400, "Error parsing JSON");
                }
                String action = data.path("action").asText("");
                switch (action) {
                    case "createSubscriptions" -> send(created(data));
                    case "deleteSubscriptions" -> send(deleted(data));
                    case "" -> throw new StreamError(400, "'action' not provided");
                    default -> throw new StreamError(400, "Invalid action");
                }
            } catch (StreamError e) {
                send(error(e));
            }
        }

        public void closed() {
            open.remove(this);
        }

        private synchronized Set<String> topics() {
            Set<String> all = new LinkedHashSet<>();
            topicsByKey.values().forEach(all::addAll);
            return all;
        }

        private synchronized void subscribe(String key, List<String> topics) {
            topicsByKey.computeIfAbsent(key, k -> new LinkedHashSet<>()).addAll(topics);
        }

        private ObjectNode created(JsonNode data) {
            if (singleKey) {
                throw new StreamError(405, "Single-key connection cannot be modified");
            }
            JsonNode subs = subscriptions(data);
            Map<String, List<String>> granted = new LinkedHashMap<>();
            ArrayNode errors = JSON.createArrayNode();
            for (JsonNode sub : subs) {
                if (!sub.isObject()) {
                    throw new StreamError(400, "Subscription must be an object (" + sub.getNodeType().name().toLowerCase(java.util.Locale.ROOT) + " given)");
                }
                String apiKey = sub.path("apiKey").isTextual() && !sub.path("apiKey").asText().isEmpty() ? sub.path("apiKey").asText() : null;
                JsonNode topics = sub.get("topics");
                if (topics != null && !topics.isArray()) {
                    throw new StreamError(400, "'topics' must be an array (" + topics.getNodeType().name().toLowerCase(java.util.Locale.ROOT) + " given)");
                }
                if (apiKey == null && topics == null) {
                    throw new StreamError(400, "Either 'apiKey' or 'topics' must be provided");
                }
                List<String> available = apiKey == null ? List.of() : topicsOf(apiKey);
                if (topics == null || topics.isEmpty()) { // every topic of the key
                    granted.computeIfAbsent(apiKey, k -> new ArrayList<>()).addAll(available);
                    continue;
                }
                for (JsonNode t : topics) {
                    String topic = t.asText();
                    if (GLOBAL_TOPICS.contains(topic)) {
                        granted.computeIfAbsent("", k -> new ArrayList<>()).add(topic);
                    } else if (!topic.startsWith("/")) {
                        throw new StreamError(400, "Topic must begin with a slash ('" + topic + "' provided)");
                    } else if (apiKey != null && available.contains(topic)) {
                        granted.computeIfAbsent(apiKey, k -> new ArrayList<>()).add(topic);
                    } else {
                        ObjectNode err = errors.addObject();
                        if (apiKey != null) {
                            err.put("apiKey", apiKey);
                        }
                        err.put("topic", topic).put("error", apiKey != null ? "Topic is not valid for provided API key"
                                : "Topic is not accessible without an API key"); // Idiom serves no library to readers without a key
                    }
                }
            }
            ObjectNode out = event("subscriptionsCreated");
            ArrayNode made = out.putArray("subscriptions");
            granted.forEach((key, topics) -> {
                subscribe(key, topics);
                ObjectNode s = made.addObject();
                if (!key.isEmpty()) {
                    s.put("apiKey", key);
                }
                ArrayNode list = s.putArray("topics");
                synchronized (this) {
                    topicsByKey.get(key).forEach(list::add);
                }
            });
            out.set("errors", errors);
            return out;
        }

        private ObjectNode deleted(JsonNode data) {
            if (singleKey) {
                throw new StreamError(405, "Single-key connection cannot be modified");
            }
            ArrayNode removed = JSON.createArrayNode();
            for (JsonNode sub : subscriptions(data)) {
                if (!sub.has("apiKey")) {
                    throw new StreamError(400, "'apiKey' not provided");
                }
                if (sub.has("topic") && !sub.get("topic").isTextual()) {
                    throw new StreamError(400, "'topic' must be a string");
                }
                String key = sub.path("apiKey").isNull() ? "" : sub.path("apiKey").asText();
                String topic = sub.has("topic") ? sub.get("topic").asText() : null;
                List<String> gone = new ArrayList<>();
                synchronized (this) {
                    Set<String> held = topicsByKey.get(key);
                    if (held != null) {
                        for (String t : List.copyOf(held)) {
                            if (topic == null || topic.equals(t)) {
                                held.remove(t);
                                gone.add(t);
                            }
                        }
                        if (held.isEmpty()) {
                            topicsByKey.remove(key);
                        }
                    }
                }
                if (!gone.isEmpty()) {
                    ObjectNode r = removed.addObject().put("apiKey", key);
                    gone.forEach(r.putArray("topics")::add);
                }
            }
            if (removed.isEmpty()) {
                throw new StreamError(409, "No matching subscription");
            }
            ObjectNode out = event("subscriptionsDeleted");
            out.set("subscriptions", removed);
            return out;
        }

        private void send(ObjectNode message) {
            send(message.toString());
        }

        private void send(String message) {
            try {
                send.accept(message);
            } catch (RuntimeException e) {
                LOG.log(Level.FINE, "a stream connection could not be written to; it is dropped", e);
                closed();
            }
        }
    }

    /**
     * A new connection. With {@code apiKey} (the {@code Zotero-API-Key} header or {@code ?key=}) it
     * is a single-key connection subscribed to every topic of the key, as the stream server makes it;
     * an unknown key is refused with {@link StreamError} 403 before anything is subscribed.
     */
    public Connection connect(String apiKey, Consumer<String> send) {
        List<String> keyTopics = null;
        if (apiKey != null && !apiKey.isEmpty()) {
            keyTopics = new ArrayList<>(topicsOf(apiKey));
            keyTopics.addAll(GLOBAL_TOPICS);
        }
        Connection c = new Connection(send, keyTopics != null);
        ObjectNode hello = event("connected").put("retry", RETRY_MILLIS);
        if (keyTopics != null) {
            c.subscribe(apiKey, keyTopics);
            keyTopics.forEach(hello.putArray("topics")::add);
        }
        open.add(c);
        watch();
        c.send(hello);
        return c;
    }

    /** The error event of a refusal met before a connection exists (an unknown key). */
    public static String error(StreamError e) {
        return event("error").put("code", e.code).put("message", e.getMessage()).toString();
    }

    /** The topics a key may read: its user's library and publications, and the groups it reads. */
    List<String> topicsOf(String apiKey) {
        ClientKey key = zotero.keys().find(apiKey).orElseThrow(() -> new StreamError(403, "Invalid API key"));
        List<String> out = new ArrayList<>();
        JsonNode access = ZoteroKeys.access(key);
        if (access.path("user").path("library").asBoolean(false)) {
            out.add("/users/" + key.userNumber());
            out.add("/users/" + key.userNumber() + "/publications");
        }
        for (Library g : zotero.groupsOf(key.userNumber())) {
            try {
                zotero.check(key, g, false);
                out.add("/groups/" + g.number());
            } catch (ZoteroApiException notReadable) {
                // a group the key may not read has no topic for it
            }
        }
        return out;
    }

    private static ObjectNode event(String name) {
        return JSON.createObjectNode().put("event", name);
    }

    private void watch() {
        synchronized (watching) {
            if (watcher == null) {
                watcher = Thread.ofPlatform().daemon().name("idiom-zotero-stream").start(this::watchVersions);
            }
        }
    }

    /** Reads every library's version while anyone listens, and tells each subscriber of a library that grew. */
    private void watchVersions() {
        Map<String, Long> seen = versions();
        while (true) {
            synchronized (watching) {
                if (open.isEmpty()) {
                    watcher = null;
                    return;
                }
            }
            try {
                TimeSource.sleep(WATCH_MILLIS);
                Map<String, Long> now = versions();
                for (Map.Entry<String, Long> v : now.entrySet()) {
                    Long before = seen.get(v.getKey());
                    if (before == null || v.getValue() > before) {
                        String update = event("topicUpdated").put("topic", v.getKey()).put("version", v.getValue()).toString();
                        for (Connection c : open) {
                            if (c.topics().contains(v.getKey())) {
                                c.send(update);
                            }
                        }
                    }
                }
                seen = now;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                synchronized (watching) {
                    watcher = null;
                }
                return;
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "library versions could not be read for the stream; tried again shortly", e);
            }
        }
    }

    private Map<String, Long> versions() {
        Map<String, Long> out = new HashMap<>();
        for (String kind : List.of("user", "group")) {
            for (Library l : store.libraries(kind)) {
                out.put("/" + l.path(), l.version());
            }
        }
        return out;
    }

    private static JsonNode subscriptions(JsonNode data) {
        JsonNode subs = data.get("subscriptions");
        if (subs == null) {
            throw new StreamError(400, "'subscriptions' array not provided");
        }
        if (!subs.isArray()) {
            throw new StreamError(400, "'subscriptions' must be an array");
        }
        if (subs.isEmpty()) {
            throw new StreamError(400, "'subscriptions' array is empty");
        }
        return subs;
    }
}
