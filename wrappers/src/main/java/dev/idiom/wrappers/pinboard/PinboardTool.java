package dev.idiom.wrappers.pinboard;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.idiom.events.Field;
import dev.idiom.events.Metadata;
import dev.idiom.wrappers.AnnotationTool;
import dev.idiom.wrappers.ChangePage;
import dev.idiom.wrappers.RemoteChangedException;
import dev.idiom.wrappers.RemoteRecord;
import dev.idiom.wrappers.Skipped;
import dev.idiom.wrappers.ToolException;
import dev.idiom.wrappers.ToolLimits;
import dev.idiom.wrappers.http.Pacing;
import dev.idiom.wrappers.http.ToolHttp;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * Pinboard API v1. Bookmarks are keyed by URL and carry a {@code meta} change signature (our
 * version). Sync asks {@code posts/update} first and reads {@code posts/all} only when it moved,
 * never more than once per five minutes; every call is at least three seconds after the last.
 * Pinboard has no preconditions: an update first re-reads the bookmark and refuses if its
 * {@code meta} moved.
 */
public final class PinboardTool implements AnnotationTool {
    public static final ToolLimits LIMITS = new ToolLimits(1, Duration.ofSeconds(3), 1);
    public static final Duration POSTS_ALL_INTERVAL = Duration.ofMinutes(5);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final URI base;
    private final String authToken;
    private final ToolHttp http;
    private final Clock clock;
    private final Pacing pacing;
    private Instant lastPostsAll = Instant.EPOCH;

    /** @param base the API root, e.g. https://api.pinboard.in/v1/ */
    public PinboardTool(URI base, String authToken, ToolHttp http, Clock clock, Pacing pacing) {
        this.base = base.toString().endsWith("/") ? base : URI.create(base + "/");
        this.authToken = authToken;
        this.http = http;
        this.clock = clock;
        this.pacing = pacing;
    }

    @Override
    public String kind() {
        return "pinboard";
    }

    @Override
    public String account() {
        int colon = authToken.indexOf(':');
        return colon < 0 ? "pinboard" : authToken.substring(0, colon);
    }

    @Override
    public ToolLimits limits() {
        return LIMITS;
    }

    private JsonNode call(String method, Map<String, String> params) {
        StringBuilder q = new StringBuilder(method).append("?format=json&auth_token=").append(enc(authToken));
        params.forEach((k, v) -> q.append('&').append(k).append('=').append(enc(v)));
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(base.resolve(q.toString())).timeout(Duration.ofSeconds(60)).GET().build());
        if (r.statusCode() != 200) {
            throw new ToolException("Pinboard " + method + " answered HTTP " + r.statusCode());
        }
        try {
            return JSON.readTree(r.body());
        } catch (IOException e) {
            throw new ToolException("Pinboard " + method + " answered malformed JSON: " + e.getMessage());
        }
    }

    @Override
    public ChangePage changedSince(String cursor) {
        String updated = call("posts/update", Map.of()).path("update_time").asText();
        if (updated.equals(cursor)) {
            return new ChangePage(List.of(), List.of(), List.of(), cursor, false);
        }
        Instant allowed = lastPostsAll.plus(POSTS_ALL_INTERVAL);
        if (clock.instant().isBefore(allowed)) {
            try {
                pacing.pause(Duration.between(clock.instant(), allowed));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new ToolException("interrupted while waiting to call Pinboard posts/all", e);
            }
        }
        lastPostsAll = clock.instant();
        JsonNode all = call("posts/all", Map.of("meta", "yes"));
        List<RemoteRecord> records = new ArrayList<>();
        List<Skipped> skipped = new ArrayList<>();
        for (JsonNode post : all) {
            try {
                records.add(record(post));
            } catch (RuntimeException bad) {
                skipped.add(new Skipped(post.path("href").asText(null), "unreadable Pinboard post: " + bad.getMessage()));
            }
        }
        return new ChangePage(records, List.of(), skipped, updated, false);
    }

    private static RemoteRecord record(JsonNode post) {
        String href = post.path("href").asText();
        SortedSet<String> tags = new TreeSet<>();
        for (String t : post.path("tags").asText("").split(" ")) {
            if (!t.isBlank()) {
                tags.add(t);
            }
        }
        String title = post.path("description").asText("");
        Metadata m = Metadata.EMPTY.with(Field.TYPE, "webpage").with(Field.URL, href).with(Field.TITLE, title.isBlank() ? href : title)
                .with(Field.TAGS, tags).with(Field.NOTES, Field.NOTES.fromText(post.path("extended").asText("")));
        return new RemoteRecord(href, post.path("meta").asText(post.path("hash").asText()), m);
    }

    @Override
    public Optional<RemoteRecord> fetch(String url) {
        JsonNode posts = call("posts/get", Map.of("url", url, "meta", "yes")).path("posts");
        return posts.isEmpty() ? Optional.empty() : Optional.of(record(posts.get(0)));
    }

    @Override
    public RemoteRecord create(Metadata m) {
        add(m, false);
        return fetch(m.url()).orElseThrow(() -> new ToolException("Pinboard did not keep " + m.url()));
    }

    private void add(Metadata m, boolean replace) {
        if (m.url() == null) {
            throw new ToolException("a Pinboard bookmark needs a URL; this entity has none");
        }
        Map<String, String> p = new LinkedHashMap<>();
        p.put("url", m.url());
        p.put("description", m.title() == null ? m.url() : m.title());
        p.put("extended", m.notes() == null ? "" : m.notes());
        // Pinboard tags are separated by spaces, so a space inside a tag becomes "_"
        p.put("tags", String.join(" ", m.tags().stream().map(t -> t.replace(' ', '_')).toList()));
        p.put("replace", replace ? "yes" : "no");
        String result = call("posts/add", p).path("result_code").asText();
        if (!result.equals("done")) {
            throw new ToolException("Pinboard posts/add refused " + m.url() + ": " + result);
        }
    }

    @Override
    public RemoteRecord update(String url, Metadata m, String knownVersion) {
        RemoteRecord current = fetch(url).orElseThrow(() -> new RemoteChangedException("Pinboard no longer has " + url));
        if (knownVersion != null && !knownVersion.equals(current.version())) {
            throw new RemoteChangedException("Pinboard bookmark " + url + " changed since " + knownVersion);
        }
        add(m.url() == null ? m.with(Field.URL, url) : m, true);
        return fetch(m.url() == null ? url : m.url()).orElseThrow(() -> new ToolException("Pinboard did not keep " + url));
    }

    @Override
    public void delete(String url, String knownVersion) {
        Optional<RemoteRecord> current = fetch(url);
        if (current.isEmpty()) {
            return;
        }
        if (knownVersion != null && !knownVersion.equals(current.get().version())) {
            throw new RemoteChangedException("Pinboard bookmark " + url + " changed since " + knownVersion);
        }
        String result = call("posts/delete", Map.of("url", url)).path("result_code").asText();
        if (!result.equals("done")) {
            throw new ToolException("Pinboard posts/delete refused " + url + ": " + result);
        }
    }

    private static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }
}
