package dev.idiom.wrappers.pinboard;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.idiom.events.Fingerprint;
import dev.idiom.wrappers.StubServer;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Pinboard API v1 as published (pinboard.in/api): every method a GET under /v1/,
 * {@code auth_token=user:TOKEN} (401 otherwise), {@code format=json}; posts/update, posts/all
 * (meta=yes), posts/get, posts/add, posts/delete; result codes as Pinboard gives them.
 *
 * <p>posts/add as documented: {@code replace} defaults to yes and {@code replace=no} refuses an
 * existing URL; {@code shared} defaults to yes (this stub's user has not chosen "private by
 * default"), {@code toread} to no, {@code dt} to now (a date more than 10 minutes ahead is reset
 * to now) — and a replace sets every one of them from the request, not from the old bookmark.
 * Limits: title (description) ≤ 255, extended ≤ 65,536, ≤ 100 tags each ≤ 255 characters without
 * commas, URLs of the schemes http, https, javascript, mailto, ftp, file (and feed). posts/all at
 * most once per five minutes, else 429; after a 429 the wait doubles, counted from the refused
 * call, until a call keeps it (then it is five minutes again). The {@code hash} of a post is the MD5 of its URL. The
 * result_code wording for refused limits is inferred (the docs name the limits, not the messages).
 */
public final class PinboardStub extends StubServer {
    private static final ObjectMapper JSON = new ObjectMapper();
    public static final String TOKEN = "curator:0123456789ABCDEF";
    private static final Set<String> SCHEMES = Set.of("http", "https", "javascript", "mailto", "ftp", "file", "feed");

    private final Map<String, ObjectNode> posts = new LinkedHashMap<>();
    private final Clock clock;
    private Instant updated = Instant.parse("2026-01-01T00:00:00Z");
    private Instant lastPostsAll;
    private Duration postsAllWait = Duration.ofMinutes(5);
    private Duration postsAllTakes = Duration.ZERO;
    private final java.util.List<String> postsAllCalls = new java.util.ArrayList<>();
    private int edits;

    public PinboardStub() {
        this(Clock.systemUTC());
    }

    /** Every posts/all call, in order: its time and the status answered. */
    public synchronized java.util.List<String> postsAllCalls() {
        return java.util.List.copyOf(postsAllCalls);
    }

    /** posts/all takes this long to answer (a large snapshot). */
    public void postsAllTakes(Duration d) {
        postsAllTakes = d;
    }

    private static void sleep(Duration d) {
        try {
            Thread.sleep(d);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** @param clock the service's clock (a test's fake time, so five minutes need not pass) */
    public PinboardStub(Clock clock) {
        this.clock = clock;
    }

    @Override
    protected Reply answer(Request r) {
        if (!TOKEN.equals(r.query().get("auth_token"))) {
            return Reply.of(401, "401 Forbidden");
        }
        if (!"json".equals(r.query().get("format"))) {
            return Reply.of(200, "<?xml version=\"1.0\"?><result code=\"something went wrong\"/>");
        }
        String url = r.query().get("url");
        return switch (r.path()) {
            case "/v1/posts/update" -> json(JSON.createObjectNode().put("update_time", updated.toString()));
            case "/v1/posts/all" -> {
                Instant now = clock.instant();
                if (lastPostsAll != null && now.isBefore(lastPostsAll.plus(postsAllWait))) {
                    postsAllCalls.add(now + " 429");
                    postsAllWait = postsAllWait.multipliedBy(2);
                    lastPostsAll = now;
                    yield Reply.of(429, "Too Many Requests");
                }
                postsAllCalls.add(now + " 200");
                postsAllWait = Duration.ofMinutes(5);
                lastPostsAll = now;
                sleep(postsAllTakes);
                ArrayNode all = JSON.createArrayNode();
                posts.values().forEach(all::add);
                yield json(all);
            }
            case "/v1/posts/get" -> {
                ObjectNode out = JSON.createObjectNode().put("date", updated.toString()).put("user", "curator");
                ArrayNode list = out.putArray("posts");
                if (url != null && posts.containsKey(url)) {
                    list.add(posts.get(url));
                }
                yield json(out);
            }
            case "/v1/posts/add" -> add(r.query());
            case "/v1/posts/delete" -> {
                if (posts.remove(url) == null) {
                    yield result("item not found");
                }
                updated = updated.plusSeconds(1);
                yield result("done");
            }
            default -> Reply.of(404, "Not Found");
        };
    }

    private Reply add(Map<String, String> q) {
        String url = q.get("url");
        String description = q.get("description");
        if (url == null || url.isBlank()) {
            return result("missing url");
        }
        if (description == null) {
            return result("missing description");
        }
        URI u;
        try {
            u = URI.create(url);
        } catch (IllegalArgumentException e) {
            return result("invalid url");
        }
        if (u.getScheme() == null || !SCHEMES.contains(u.getScheme().toLowerCase(Locale.ROOT))) {
            return result("invalid url");
        }
        if (description.length() > 255) {
            return result("description too long");
        }
        String extended = q.getOrDefault("extended", "");
        if (extended.length() > 65_536) {
            return result("extended too long");
        }
        String tags = q.getOrDefault("tags", "").strip();
        String[] list = tags.isEmpty() ? new String[0] : tags.split("\\s+");
        if (list.length > 100) {
            return result("too many tags");
        }
        for (String t : list) {
            if (t.length() > 255 || t.contains(",")) {
                return result("invalid tag");
            }
        }
        if ("no".equals(q.get("replace")) && posts.containsKey(url)) {
            return result("item already exists");
        }
        Instant now = clock.instant().truncatedTo(ChronoUnit.SECONDS);
        Instant dt = q.containsKey("dt") ? Instant.parse(q.get("dt")) : now;
        if (dt.isAfter(now.plus(Duration.ofMinutes(10)))) {
            dt = now;
        }
        put(url, description, extended, String.join(" ", list), dt, q.getOrDefault("shared", "yes"), q.getOrDefault("toread", "no"));
        return result("done");
    }

    /** A bookmark as someone saves it on Pinboard itself (private, marked to read, dated). */
    void put(String url, String description, String extended, String tags, Instant dt, String shared, String toread) {
        updated = updated.plusSeconds(1);
        edits++;
        ObjectNode p = JSON.createObjectNode().put("href", url).put("description", description).put("extended", extended)
                .put("hash", md5(url)).put("time", dt.toString()).put("shared", shared).put("toread", toread).put("tags", tags);
        p.put("meta", Fingerprint.of(url + description + extended + tags + shared + toread + edits));
        posts.put(url, p);
    }

    /** Someone saves a bookmark on Pinboard itself; {@code shared} "no" keeps it private, tags are space-separated. */
    public synchronized void saveOnSite(String url, String title, String tags, String shared) {
        put(url, title, "", tags, clock.instant().truncatedTo(ChronoUnit.SECONDS), shared, "no");
    }

    /** Someone edits a bookmark on Pinboard: a new title, the rest as it was. */
    public void retitle(String url, String description) {
        ObjectNode p = posts.get(url);
        put(url, description, p.path("extended").asText(), p.path("tags").asText(), Instant.parse(p.path("time").asText()),
                p.path("shared").asText(), p.path("toread").asText());
    }

    /** Someone deletes a bookmark on Pinboard. */
    void remove(String url) {
        posts.remove(url);
        updated = updated.plusSeconds(1);
    }

    /** The bookmark as the stub holds it. */
    ObjectNode post(String url) {
        return posts.get(url).deepCopy();
    }


    private static Reply result(String code) {
        return json(JSON.createObjectNode().put("result_code", code));
    }

    private static Reply json(Object node) {
        return Reply.of(200, node.toString(), "Content-Type", "application/json");
    }
}
