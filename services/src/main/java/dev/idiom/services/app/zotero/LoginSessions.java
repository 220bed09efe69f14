package dev.idiom.services.app.zotero;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.idiom.events.zotero.ServedLibraries.ClientKey;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Zotero desktop's web login ({@code keys/sessions}, as the dataserver's login sessions): the client
 * opens a session and shows its user the session's login URL; whoever may approve there (the test
 * root in Zotero's suite; a curator in Idiom's workspace) completes it for a user with an access, a
 * key is made then, and the client, polling the session, receives it once. Sessions live in this
 * node's memory for {@link #LIFETIME} (a client starts again after a restart), as write tokens do.
 */
public final class LoginSessions {
    /** Where a curator approves a session, below Idiom's public URL (the workspace's page; the session's token follows). */
    public static final String APPROVAL_PATH = "/curator/zotero-login";
    /** How long a session waits for its approval. */
    public static final Duration LIFETIME = Duration.ofMinutes(15);
    private static final String ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789";
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final com.fasterxml.jackson.databind.ObjectMapper JSON = new com.fasterxml.jackson.databind.ObjectMapper();

    /** Where a session stands; {@code apiKey} once completed. */
    public enum Status { PENDING, COMPLETED, CANCELLED }

    /**
     * One login: {@code userID} and {@code access} are known at once where the client presented a
     * key (a key's update) or named its user; {@code client} is the platform its User-Agent names.
     */
    public record Session(String token, Status status, Long userID, JsonNode access, String client, Instant opened, String apiKey) {
        Session with(Status s, Long user, String key) {
            return new Session(token, s, user, access, client, opened, key);
        }
    }

    private final ZoteroKeys keys;
    private final Clock clock;
    private final java.util.function.LongFunction<String> usernames;
    private final Map<String, Session> sessions = new ConcurrentHashMap<>();

    LoginSessions(ZoteroKeys keys, Clock clock, java.util.function.LongFunction<String> usernames) {
        this.keys = keys;
        this.clock = clock;
        this.usernames = usernames;
    }

    /** A new pending session; {@code presented} a key to update (its user and access known), or {@code userID} a user the client names. */
    public Session open(ClientKey presented, Long userID, String userAgent) {
        forgetOld();
        StringBuilder token = new StringBuilder(32);
        for (int i = 0; i < 32; i++) {
            token.append(ALPHABET.charAt(RANDOM.nextInt(ALPHABET.length())));
        }
        Long user = presented != null ? Long.valueOf(presented.userNumber()) : userID;
        Session s = new Session(token.toString(), Status.PENDING, user, presented == null ? null : ZoteroKeys.access(presented),
                client(userAgent), clock.instant(), null);
        sessions.put(s.token(), s);
        return s;
    }

    /** The session, 404 if there is none, 410 once it ran out. */
    public Session get(String token) {
        Session s = sessions.get(token);
        if (s == null) {
            throw new ZoteroApiException(404, "Login session not found");
        }
        if (s.status() == Status.PENDING && clock.instant().isAfter(s.opened().plus(LIFETIME))) {
            sessions.remove(token);
            throw new ZoteroApiException(410, "Login session expired");
        }
        return s;
    }

    /** The client gave up: 409 unless it is pending. */
    public void cancel(String token) {
        Session s = get(token);
        if (s.status() != Status.PENDING) {
            throw new ZoteroApiException(409, "Login session is not pending");
        }
        sessions.put(token, s.with(Status.CANCELLED, s.userID(), null));
    }

    /**
     * Approves the session for {@code userID} (the session's own user where it has one) with
     * {@code access}: a key named for the client's platform is made; 400 without a user or an
     * access, 409 unless pending.
     */
    public Session complete(String token, Long userID, JsonNode access) {
        if (token == null || token.isBlank()) {
            throw new ZoteroApiException(400, "'sessionToken' not provided");
        }
        if (access == null || !access.isObject()) {
            throw new ZoteroApiException(400, "'access' not provided");
        }
        Session s = get(token);
        Long user = s.userID() != null ? s.userID() : userID;
        if (user == null) {
            throw new ZoteroApiException(400, "'userID' not provided");
        }
        synchronized (this) {
            s = get(token);
            if (s.status() != Status.PENDING) {
                throw new ZoteroApiException(409, "Login session is not pending");
            }
            String key = keys.issue(user, "Zotero on " + s.client(), (ObjectNode) access.deepCopy());
            Session done = s.with(Status.COMPLETED, user, key);
            sessions.put(token, done);
            return done;
        }
    }

    /** What the client's User-Agent says it runs on (the key's name says so). */
    static String client(String userAgent) {
        String ua = userAgent == null ? "" : userAgent;
        if (ua.contains("Macintosh") || ua.contains("Mac OS")) {
            return "macOS";
        }
        if (ua.contains("Windows")) {
            return "Windows";
        }
        if (ua.contains("Linux") || ua.contains("X11")) {
            return "Linux";
        }
        return "another system";
    }

    /** The pending sessions, newest first (for the approval page). */
    public java.util.List<Session> pending() {
        forgetOld();
        return sessions.values().stream().filter(s -> s.status() == Status.PENDING).sorted((a, b) -> b.opened().compareTo(a.opened())).toList();
    }

    private void forgetOld() {
        Instant cut = clock.instant().minus(LIFETIME.multipliedBy(4));
        sessions.values().removeIf(s -> s.opened().isBefore(cut));
    }

    /** The session's answer to its client: its status, and the key once (after that the key is the client's alone). */
    public ObjectNode answer(Session s) {
        ObjectNode out = JSON.createObjectNode().put("status", s.status().name().toLowerCase(java.util.Locale.ROOT));
        if (s.status() == Status.COMPLETED && s.apiKey() != null) {
            out.put("apiKey", s.apiKey()).put("userID", s.userID()).put("username", usernames.apply(s.userID()));
            sessions.computeIfPresent(s.token(), (t, now) -> now.with(Status.COMPLETED, now.userID(), null));
        }
        return out;
    }

    /** What the approver sees of a session (the suite's {@code info}): its status, user and access where known. */
    public ObjectNode info(Session s) {
        ObjectNode out = JSON.createObjectNode().put("status", s.status().name().toLowerCase(java.util.Locale.ROOT)).put("client", s.client());
        if (s.userID() == null) {
            out.putNull("userID");
        } else {
            out.put("userID", s.userID());
        }
        out.set("access", s.access() == null ? JSON.nullNode() : s.access());
        return out;
    }
}
