package dev.idiom.services.web;

import dev.idiom.services.app.ApiKeys;
import dev.idiom.services.app.Caller;
import dev.idiom.services.app.ForbiddenException;
import dev.idiom.services.app.Role;
import jakarta.servlet.http.Cookie;
import jakarta.servlet.http.HttpServletRequest;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Browser sessions of a console (the admin console at {@code /admin}, the curator's workspace at
 * {@code /curator}): a person logs in once with a key of the console's role and the browser keeps
 * only a random session id, in an HttpOnly, SameSite=Strict cookie scoped to the console's path
 * (Secure when the page was reached over HTTPS), so neither the key nor the session reaches script
 * or another site. Each session has a CSRF token that the console's actions must send back. The
 * key itself stays in server memory and is checked again on every request, so revoking it ends its
 * sessions at once. Sessions live in this node's memory: a restart logs people out.
 */
final class AdminSessions {
    static final String CSRF_HEADER = "X-CSRF-Token";
    /** A session ends this long after login. */
    static final Duration LIFETIME = Duration.ofHours(8);
    private static final int MOST = 1000;

    private final ApiKeys keys;
    private final SecureRandom random = new SecureRandom();
    private final Map<String, Session> sessions = new ConcurrentHashMap<>();

    /** One logged-in browser: the key it logged in with, its CSRF token, when it ends. */
    record Session(String id, String key, String csrf, Instant endsAt) {}

    private final Clock clock;
    private final String cookieName;
    private final String path;
    private final Role role;
    private final String console;

    /** @param clock when sessions end (the application's clock, so tests can move it) */
    AdminSessions(ApiKeys keys, Clock clock) {
        this(keys, clock, "idiom_admin", "/admin", dev.idiom.services.app.Operation.ADMIN_CONSOLE.role(), "the console");
    }

    /**
     * @param path the console's path: its cookie is sent there only
     * @param role the least role a key must have to log in
     * @param console what the console is called in refusals
     */
    AdminSessions(ApiKeys keys, Clock clock, String cookieName, String path, Role role, String console) {
        this.keys = keys;
        this.clock = clock;
        this.cookieName = cookieName;
        this.path = path;
        this.role = role;
        this.console = console;
    }

    /** The console's path ({@code /admin}, {@code /curator}). */
    String path() {
        return path;
    }

    /**
     * Logs in with an admin key.
     *
     * @throws dev.idiom.services.app.NotAuthorizedException an unknown or revoked key
     * @throws ForbiddenException a key of a lower role
     */
    Session login(String key) {
        Caller caller = keys.authenticate("Bearer " + (key == null ? "" : key.strip()));
        if (!caller.role().includes(role)) {
            throw new ForbiddenException(console + " needs " + (role == Role.ADMIN ? "an admin" : "a " + role.id()) + " key; '" + caller.keyName()
                    + "' is a " + caller.role().id() + " key");
        }
        if (sessions.size() >= MOST) {
            Instant now = clock.instant();
            sessions.values().removeIf(s -> now.isAfter(s.endsAt()));
        }
        Session s = new Session(token(), key.strip(), token(), clock.instant().plus(LIFETIME));
        sessions.put(s.id(), s);
        return s;
    }

    /** The live session the request's cookie names, if any. */
    Optional<Session> of(HttpServletRequest req) {
        Cookie[] cookies = req.getCookies();
        if (cookies == null) {
            return Optional.empty();
        }
        for (Cookie c : cookies) {
            if (cookieName.equals(c.getName())) {
                Session s = sessions.get(c.getValue());
                if (s != null && clock.instant().isAfter(s.endsAt())) {
                    sessions.remove(s.id());
                    return Optional.empty();
                }
                return Optional.ofNullable(s);
            }
        }
        return Optional.empty();
    }

    /** The caller a session stands for, the key checked again (a revoked key ends the session). */
    Caller caller(Session s) {
        try {
            return keys.authenticate("Bearer " + s.key());
        } catch (RuntimeException revoked) {
            sessions.remove(s.id());
            throw revoked;
        }
    }

    /** Whether the request carries the session's CSRF token (compared in constant time). */
    static boolean csrfMatches(Session s, HttpServletRequest req) {
        String sent = req.getHeader(CSRF_HEADER);
        if (sent == null) {
            sent = req.getParameter("csrf");
        }
        return sent != null && MessageDigest.isEqual(sent.getBytes(StandardCharsets.UTF_8), s.csrf().getBytes(StandardCharsets.UTF_8));
    }

    void logout(Session s) {
        sessions.remove(s.id());
    }

    /** The Set-Cookie value for a session ({@code null}: the cookie that deletes it). */
    String cookie(Session s, boolean secure) {
        String value = s == null ? "" : s.id();
        long maxAge = s == null ? 0 : LIFETIME.toSeconds();
        return cookieName + "=" + value + "; Path=" + path + "; Max-Age=" + maxAge + "; HttpOnly; SameSite=Strict" + (secure ? "; Secure" : "");
    }

    private String token() {
        byte[] b = new byte[32];
        random.nextBytes(b);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(b);
    }
}
