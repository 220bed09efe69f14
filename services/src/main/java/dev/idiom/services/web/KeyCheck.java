package dev.idiom.services.web;

import dev.idiom.services.http.AuthFailures;
import dev.idiom.services.http.PublicUrl;
import dev.idiom.services.app.ApiKeys;
import dev.idiom.services.app.Caller;
import dev.idiom.services.app.ErrorCode;
import dev.idiom.services.app.NotAuthorizedException;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/**
 * Every request presents an API key, except the few anonymous ones (the empty operation, the
 * WSDL, the OpenAPI document, the landing page, the console's login form and assets); the
 * console's pages may present its session cookie instead ({@link AdminSessions}). A missing or wrong key is refused here, before
 * any body is parsed; the endpoint then checks the caller's role for its operation.
 */
final class KeyCheck extends HttpFilter {
    /** The request attribute holding the console session a request came with (absent for a bearer key). */
    static final String SESSION = "dev.idiom.admin-session";

    private final ApiKeys keys;
    private final AdminSessions sessions;
    private final AdminSessions curatorSessions;
    private final transient AuthFailures failures;
    private final transient PublicUrl publicUrl;

    KeyCheck(ApiKeys keys, AdminSessions sessions, AdminSessions curatorSessions, AuthFailures failures, PublicUrl publicUrl) {
        this.keys = keys;
        this.sessions = sessions;
        this.curatorSessions = curatorSessions;
        this.failures = failures;
        this.publicUrl = publicUrl;
    }

    @Override
    protected void doFilter(HttpServletRequest req, HttpServletResponse res, FilterChain chain) throws IOException, ServletException {
        if (anonymous(req)) {
            chain.doFilter(req, res);
            return;
        }
        if (AdminConsole.keyInAddress(req.getQueryString())) {
            // a key in the address ends up in access logs, proxies and browser histories: refused whether or not it is good
            Refusal.send(req, res, ErrorCode.INVALID, "a key is never sent in the address (?key=…): send it as Authorization: Bearer <key>");
            return;
        }
        String authorization = req.getHeader("Authorization");
        String address = publicUrl.clientAddress(req);
        var wait = authorization == null ? java.util.Optional.<java.time.Duration>empty() : failures.wait(address, authorization);
        // a key known without a lookup (the environment's, or one verified moments ago) is not refused for another's wrong keys
        if (wait.isPresent() && keys.knownWithoutLookup(authorization).isEmpty()) {
            res.setHeader("Retry-After", Long.toString(Math.max(1, wait.get().toSeconds() + 1)));
            Refusal.send(req, res, ErrorCode.THROTTLED, "too many wrong keys like this one from this address in the last minute; try again after "
                    + Math.max(1, wait.get().toSeconds() + 1) + " s");
            return;
        }
        // a console's cookie counts on its own path only (/admin, /curator): the API takes keys, so no other site can ride on a browser's session
        String path = Refusal.path(req);
        AdminSessions consoleSessions = path.startsWith("/admin") ? sessions : path.startsWith("/curator") ? curatorSessions : null;
        boolean console = authorization == null && consoleSessions != null;
        var session = console ? consoleSessions.of(req) : java.util.Optional.<AdminSessions.Session>empty();
        Caller caller;
        try {
            if (session.isPresent()) {
                caller = consoleSessions.caller(session.get());
                req.setAttribute(SESSION, session.get());
            } else {
                caller = keys.authenticate(authorization);
            }
        } catch (NotAuthorizedException e) {
            if (authorization != null) {
                failures.failed(address, authorization);
            }
            if (console && wantsPage(req)) {
                res.setStatus(303); // a person at a browser: to the login form
                res.setHeader("Location", req.getContextPath() + consoleSessions.path() + "/login");
                return;
            }
            Refusal.send(req, res, ErrorCode.UNAUTHORIZED, e.getMessage());
            return;
        }
        req.setAttribute(Caller.ATTRIBUTE, caller);
        chain.doFilter(req, res);
    }

    private static boolean wantsPage(HttpServletRequest req) {
        String accept = req.getHeader("Accept");
        return "GET".equals(req.getMethod()) && accept != null && accept.contains("text/html");
    }

    static boolean anonymous(HttpServletRequest req) {
        String path = Refusal.path(req);
        if (path.startsWith("/admin/assets/")) {
            return "GET".equals(req.getMethod()); // the console's scripts and styles: public files
        }
        return switch (path) {
            case "/api/ping", "/api/openapi.json", "", "/", "/admin/login", "/curator/login" -> true;
            case "/services/DigitalEntityService" -> "GET".equals(req.getMethod()) && "wsdl".equalsIgnoreCase(req.getQueryString());
            default -> false;
        };
    }
}
