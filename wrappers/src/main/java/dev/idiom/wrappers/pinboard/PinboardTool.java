package dev.idiom.wrappers.pinboard;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.idiom.events.Field;
import dev.idiom.events.Metadata;
import dev.idiom.wrappers.AnnotationTool;
import dev.idiom.wrappers.ChangePage;
import dev.idiom.wrappers.RemoteChangedException;
import dev.idiom.wrappers.RecordRefusedException;
import dev.idiom.wrappers.RemoteRecord;
import dev.idiom.wrappers.Skipped;
import dev.idiom.wrappers.ToolException;
import dev.idiom.wrappers.ToolTurnException;
import dev.idiom.wrappers.ToolLimits;
import dev.idiom.wrappers.http.CallGate;
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
import java.util.Objects;
import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * Pinboard API v1. Bookmarks are keyed by URL and carry a {@code meta} change signature (our
 * version). Sync asks {@code posts/update} first and reads {@code posts/all} only when it moved,
 * never more than once per five minutes, on a turn taken at the account's {@link CallGate} (the
 * database's in the service: every node's calls count) and from the answer, never retried inside
 * the call; after a 429 the next turn is twice the last wait away, as Pinboard asks (the time of
 * the last posts/all also travels in the cursor); posts/all is a full snapshot, so a bookmark Idiom knows that it no
 * longer lists was deleted ({@link ChangePage#complete()}). Every call is at least three seconds
 * after the last.
 *
 * <p>{@code posts/add} replaces every property of a bookmark and defaults the ones it is not sent
 * ({@code shared=yes}, {@code toread=no}, {@code dt=now}): an update therefore re-reads the
 * bookmark (Pinboard has no preconditions: a moved {@code meta} is a remote change) and re-sends
 * what it had, changing only the fields Idiom changed. New bookmarks are private unless the account
 * says otherwise. Tags: Pinboard separates tags by spaces, so a space inside an Idiom tag is
 * written as "_" (and read back as the space through the copy's last synced tags; a "_" of the
 * tag's own stays); a tag Pinboard cannot hold (a comma, over 255 characters) and tags past the
 * 100th are left out of the copy ({@link #writable}), never the reason to refuse it. A title over
 * 255 characters or a URL of a scheme Pinboard refuses is refused before anything is sent.
 */
public final class PinboardTool implements AnnotationTool {
    public static final ToolLimits LIMITS = new ToolLimits(1, Duration.ofSeconds(3), 1);
    public static final Duration POSTS_ALL_INTERVAL = Duration.ofMinutes(5);
    /** A snapshot of 20,000 bookmarks is ~10 MB, which Pinboard may take minutes to send. */
    static final Duration POSTS_ALL_TIMEOUT = Duration.ofMinutes(5);
    static final int MAX_TAGS = 100;
    static final int MAX_TAG = 255;
    static final int MAX_TITLE = 255;
    static final int MAX_EXTENDED = 65_536;
    static final java.util.Set<String> SCHEMES = java.util.Set.of("http", "https", "javascript", "mailto", "ftp", "file", "feed");
    private static final ObjectMapper JSON = new ObjectMapper();
    /** The call Pinboard allows once per five minutes; when this account last made it is kept by its client, across processes by the cursor. */
    private static final String POSTS_ALL = "posts/all";

    private final URI base;
    private final String authToken;
    private final ToolHttp http;
    private final Clock clock;
    private final Pacing pacing;
    private final boolean createPrivate;

    /** @param base the API root, e.g. https://api.pinboard.in/v1/ */
    public PinboardTool(URI base, String authToken, ToolHttp http, Clock clock, Pacing pacing) {
        this(base, authToken, http, clock, pacing, true);
    }

    /** @param createPrivate whether bookmarks Idiom creates are private ({@code shared=no}) */
    public PinboardTool(URI base, String authToken, ToolHttp http, Clock clock, Pacing pacing, boolean createPrivate) {
        this(base, authToken, http, clock, pacing, createPrivate, true);
    }

    private PinboardTool(URI base, String authToken, ToolHttp http, Clock clock, Pacing pacing, boolean createPrivate, boolean waitsForTurns) {
        this.base = base.toString().endsWith("/") ? base : URI.create(base + "/");
        this.authToken = authToken;
        this.http = http;
        this.clock = clock;
        this.pacing = pacing;
        this.createPrivate = createPrivate;
        this.waitsForTurns = waitsForTurns;
    }

    /** False for a caller who wants an answer now: a posts/all turn that is not due fails at once, saying when it is. */
    private final boolean waitsForTurns;

    /** The same account on the same client (its pacing and turns shared), answering at once instead of waiting for a posts/all turn. */
    @Override
    public AnnotationTool answeringAtOnce() {
        return waitsForTurns ? new PinboardTool(base, authToken, http, clock, pacing, createPrivate, false) : this;
    }

    @Override
    public String kind() {
        return "pinboard";
    }

    @Override
    public boolean keepsPrivate() {
        return true;
    }

    /** A bookmark holds a title, a URL, a description and tags; nothing else of a DE. */
    @Override
    public java.util.Set<Field> fieldsKept() {
        return java.util.EnumSet.of(Field.TITLE, Field.URL, Field.TAGS, Field.NOTES);
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
        return read(method, http.send(request(method, params, Duration.ofSeconds(60))));
    }

    private HttpRequest request(String method, Map<String, String> params, Duration timeout) {
        StringBuilder q = new StringBuilder(method).append("?format=json&auth_token=").append(enc(authToken));
        params.forEach((k, v) -> q.append('&').append(k).append('=').append(enc(v)));
        return HttpRequest.newBuilder(base.resolve(q.toString())).timeout(timeout).GET().build();
    }

    private static JsonNode read(String method, HttpResponse<String> r) {
        if (r.statusCode() != 200) {
            throw new ToolException("Pinboard " + method + " answered HTTP " + r.statusCode());
        }
        try {
            return JSON.readTree(r.body());
        } catch (IOException e) {
            throw new ToolException("Pinboard " + method + " answered malformed JSON"); // the parser's words quote the answer: not for the caller
        }
    }

    /** Cursor: "update_time|epoch millis of the last posts/all" (an older cursor without the second part is read as never). */
    @Override
    public ChangePage changedSince(String cursor) {
        String lastUpdate = cursor == null ? null : cursor.split("\\|", 2)[0];
        Instant lastAll = cursor == null || !cursor.contains("|") ? Instant.EPOCH : Instant.ofEpochMilli(Long.parseLong(cursor.split("\\|", 2)[1]));
        String updated = call("posts/update", Map.of()).path("update_time").asText();
        if (updated.equals(lastUpdate)) {
            return new ChangePage(List.of(), List.of(), List.of(), cursor, false);
        }
        takeTurnAtPostsAll(lastAll);
        // never retried inside the call: Pinboard's answer to a second posts/all within its limits is 429 and a longer wait
        HttpResponse<String> answer = http.sendOnce(request(POSTS_ALL, Map.of("meta", "yes"), POSTS_ALL_TIMEOUT));
        Instant calledAt = clock.instant(); // the gate runs from when Pinboard answered: the call itself may take minutes
        if (answer.statusCode() == 429) {
            http.gate().refused(POSTS_ALL, calledAt, POSTS_ALL_INTERVAL);
            throw new ToolException("Pinboard refused posts/all as too frequent (429); the next call waits twice as long as the last");
        }
        JsonNode all = read(POSTS_ALL, answer); // a 5xx keeps the turn it took: the next is a whole wait away
        http.gate().answered(POSTS_ALL, calledAt, POSTS_ALL_INTERVAL);
        List<RemoteRecord> records = new ArrayList<>();
        List<Skipped> skipped = new ArrayList<>();
        for (JsonNode post : all) {
            try {
                records.add(record(post));
            } catch (RuntimeException bad) {
                skipped.add(new Skipped(post.path("href").asText(null), "unreadable Pinboard post: " + bad.getMessage()));
            }
        }
        // a snapshot with unreadable posts is not complete: their copies must not be taken for deleted
        return new ChangePage(records, List.of(), skipped, updated + "|" + calledAt.toEpochMilli(), false, skipped.isEmpty());
    }

    /**
     * Waits for this node's turn at posts/all: five minutes after the last call (of any node, and the
     * one the cursor remembers). A longer wait (Pinboard answered 429, so the wait doubled) is not
     * slept through inside a sync: the call fails saying when the next turn is.
     */
    private void takeTurnAtPostsAll(Instant lastAll) {
        try {
            for (;;) {
                Instant now = clock.instant();
                Instant floor = lastAll.plus(POSTS_ALL_INTERVAL);
                Instant due = now.isBefore(floor) ? floor : http.gate().take(POSTS_ALL, now, POSTS_ALL_INTERVAL).orElse(null);
                if (due == null) {
                    return;
                }
                Duration wait = Duration.between(now, due);
                if (wait.compareTo(POSTS_ALL_INTERVAL) > 0) {
                    throw new ToolException("Pinboard's posts/all may be called again at " + due + " (it answered 429 before, so the wait doubled)",
                            null, wait);
                }
                if (!waitsForTurns) { // a curator waiting for an answer is told now, not after minutes of silence
                    throw new ToolTurnException("queued: Pinboard allows one full listing (posts/all) every five minutes; its next is at " + due
                            + ", when the scheduled pull takes it", due, wait);
                }
                pacing.pause(wait);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ToolException("interrupted while waiting to call Pinboard posts/all", e);
        }
    }

    /** The shadow is the post exactly as Pinboard returned it. */
    private static RemoteRecord record(JsonNode post) {
        String href = post.path("href").asText();
        SortedSet<String> tags = new TreeSet<>();
        for (String t : post.path("tags").asText("").split(" ")) {
            if (!t.isBlank()) {
                tags.add(t); // as Pinboard has it: Idiom's form comes from the copy's synced tags
            }
        }
        String title = post.path("description").asText("");
        Metadata m = Metadata.EMPTY.with(Field.TYPE, "webpage").with(Field.URL, href).with(Field.TITLE, title.isBlank() ? href : title)
                .with(Field.TAGS, tags).with(Field.NOTES, Field.NOTES.fromText(post.path("extended").asText("")));
        // absent means shared (the API's default); anything but "yes" is taken as private, never the other way
        boolean shared = post.path("shared").asText("yes").equals("yes");
        return new RemoteRecord(href, post.path("meta").asText(post.path("hash").asText()), m, null, post.toString(), !shared);
    }

    @Override
    public String probeId() {
        return "https://idiom.invalid/account-check";
    }

    @Override
    public Optional<RemoteRecord> fetch(String url) {
        return post(url).map(PinboardTool::record);
    }

    private Optional<JsonNode> post(String url) {
        JsonNode posts = call("posts/get", Map.of("url", url, "meta", "yes")).path("posts");
        return posts.isEmpty() ? Optional.empty() : Optional.of(posts.get(0));
    }

    @Override
    public Optional<String> refusal(Metadata m) {
        if (m.url() != null) {
            return Optional.empty();
        }
        return Optional.of("a Pinboard bookmark needs a URL; this entity has none" + (m.doi() == null ? ""
                : " (it has a DOI: its URL could be https://doi.org/" + m.doi().strip() + ")"));
    }

    @Override
    public RemoteRecord create(Metadata m, boolean keepPrivate) {
        Optional<String> refused = refusal(m);
        if (refused.isPresent()) {
            throw new RecordRefusedException(refused.get());
        }
        Map<String, String> p = new LinkedHashMap<>();
        p.put("url", m.url());
        p.put("description", m.title() == null ? m.url() : m.title());
        p.put("extended", m.notes() == null ? "" : m.notes());
        p.put("tags", tags(m.tags()));
        p.put("shared", createPrivate || keepPrivate ? "no" : "yes");
        p.put("toread", "no");
        add(p, false);
        return fetch(m.url()).orElseThrow(() -> new ToolException("Pinboard did not keep " + m.url()));
    }

    /**
     * Re-reads the bookmark, refuses if it moved since {@code known}, then re-sends every property
     * it has with Idiom's changes applied. A changed URL is the same bookmark moved: added under
     * the new URL with all its properties (its date included), then deleted under the old one.
     */
    @Override
    public RemoteRecord update(RemoteRecord known, Metadata wanted) {
        String url = known.remoteId();
        JsonNode current = post(url).orElseThrow(() -> new RemoteChangedException("Pinboard no longer has " + url));
        if (known.version() != null && !known.version().equals(current.path("meta").asText(current.path("hash").asText()))) {
            throw new RemoteChangedException("Pinboard bookmark " + url + " changed since " + known.version());
        }
        Metadata before = known.metadata();
        Map<String, String> p = new LinkedHashMap<>();
        String newUrl = !Objects.equals(before.url(), wanted.url()) && wanted.url() != null ? wanted.url() : url;
        p.put("url", newUrl);
        p.put("description", !Objects.equals(before.title(), wanted.title()) ? (wanted.title() == null ? newUrl : wanted.title())
                : current.path("description").asText(""));
        p.put("extended", !Objects.equals(before.notes(), wanted.notes()) ? (wanted.notes() == null ? "" : wanted.notes())
                : current.path("extended").asText(""));
        p.put("tags", !before.tags().equals(wanted.tags()) ? tags(wanted.tags()) : current.path("tags").asText(""));
        p.put("dt", current.path("time").asText());
        p.put("shared", current.path("shared").asText("no")); // absent would mean "yes": never publish by omission
        p.put("toread", current.path("toread").asText("no"));
        if (newUrl.equals(url)) {
            add(p, true);
        } else {
            add(p, false);
            String result = call("posts/delete", Map.of("url", url)).path("result_code").asText();
            if (!result.equals("done")) {
                throw new ToolException("Pinboard kept the old URL " + url + " after the move to " + newUrl + ": " + result);
            }
        }
        return fetch(newUrl).orElseThrow(() -> new ToolException("Pinboard did not keep " + newUrl));
    }

    private void add(Map<String, String> params, boolean replace) {
        String url = params.get("url");
        check(params);
        Map<String, String> p = new LinkedHashMap<>(params);
        p.put("replace", replace ? "yes" : "no");
        String result = call("posts/add", p).path("result_code").asText();
        if (!result.equals("done")) {
            throw new RecordRefusedException("Pinboard posts/add refused " + url + ": " + result);
        }
    }

    /** Pinboard's published limits, checked before sending so a refusal names the rule. */
    private static void check(Map<String, String> p) {
        URI u;
        try {
            u = URI.create(p.get("url"));
        } catch (IllegalArgumentException e) {
            throw new RecordRefusedException("Pinboard takes only RFC 3986 URLs; '" + p.get("url") + "' is not one");
        }
        if (u.getScheme() == null || !SCHEMES.contains(u.getScheme().toLowerCase(java.util.Locale.ROOT))) {
            throw new RecordRefusedException("Pinboard takes URLs of the schemes " + new TreeSet<>(SCHEMES) + " only; got " + p.get("url"));
        }
        if (p.get("description").length() > MAX_TITLE) {
            throw new RecordRefusedException("Pinboard titles are at most " + MAX_TITLE + " characters; this one has " + p.get("description").length());
        }
        if (p.get("extended").length() > MAX_EXTENDED) {
            throw new RecordRefusedException("Pinboard descriptions are at most " + MAX_EXTENDED + " characters");
        }
    }

    @Override
    public String tagAsWritten(String tag) {
        return AnnotationTool.spacesAsUnderscores(tag);
    }

    /** Pinboard holds no tag with a comma, none over 255 characters, and 100 tags at most (those the copy has first). */
    @Override
    public Metadata writable(Metadata wanted, Metadata known) {
        java.util.List<String> held = new ArrayList<>();
        java.util.Set<String> has = known == null ? java.util.Set.of() : known.tags();
        wanted.tags().stream().filter(t -> t.indexOf(',') < 0 && tagAsWritten(t).length() <= MAX_TAG && !tagAsWritten(t).isEmpty())
                .sorted(java.util.Comparator.comparing((String t) -> !has.contains(t)).thenComparing(java.util.Comparator.naturalOrder()))
                .limit(MAX_TAGS).forEach(held::add);
        return held.size() == wanted.tags().size() ? wanted : wanted.with(Field.TAGS, new TreeSet<>(held));
    }

    /** Idiom tags as Pinboard's space-separated list, each in its written form. */
    static String tags(java.util.Collection<String> tags) {
        if (tags.size() > MAX_TAGS) {
            throw new RecordRefusedException("Pinboard keeps at most " + MAX_TAGS + " tags per bookmark; this one has " + tags.size());
        }
        List<String> out = new ArrayList<>();
        for (String t : tags) {
            if (t.indexOf(',') >= 0) {
                throw new RecordRefusedException("Pinboard tags cannot contain commas: '" + t + "'");
            }
            String written = AnnotationTool.spacesAsUnderscores(t);
            if (written.length() > MAX_TAG) {
                throw new RecordRefusedException("Pinboard tags are at most " + MAX_TAG + " characters: '" + t.substring(0, 40) + "…'");
            }
            out.add(written);
        }
        return String.join(" ", out);
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
