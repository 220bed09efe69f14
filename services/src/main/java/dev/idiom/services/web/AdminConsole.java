package dev.idiom.services.web;

import dev.idiom.services.http.AuthFailures;
import dev.idiom.services.http.PublicUrl;
import dev.idiom.services.app.Application;
import dev.idiom.services.app.Caller;
import dev.idiom.services.app.Operation;
import dev.idiom.services.app.ErrorCode;
import dev.idiom.services.app.ForbiddenException;
import dev.idiom.services.app.NotAuthorizedException;
import dev.idiom.services.app.Role;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.InputStream;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * The admin console's moving parts: login and logout (a session cookie, {@link AdminSessions}), the
 * live figures ({@code /admin/live}, Server-Sent Events), the actions on tool accounts (pause, resume,
 * retry parked pushes, apply or reject a held mass deletion; a session must send its CSRF token), and the console's own scripts and styles,
 * Chart.js among them from its WebJar: nothing is loaded from the internet.
 */
final class AdminConsole extends HttpServlet {
    /** The console's files: served name to classpath resource. */
    private static final Map<String, String> ASSETS = Map.of(
            "console.js", "/dev/idiom/services/web/console/console.js",
            "console.css", "/dev/idiom/services/web/console/console.css",
            "chart.umd.js", "/META-INF/resources/webjars/chart.js/4.4.1/dist/chart.umd.js",
            // the curator's workspace: pages work without script; htmx keeps their counts live over server-sent events
            "htmx.min.js", "/META-INF/resources/webjars/htmx.org/2.0.7/dist/htmx.min.js",
            "sse.js", "/META-INF/resources/webjars/htmx-ext-sse/2.2.2/sse.js");

    private final transient Application app;
    private final transient AdminSessions sessions;
    private final transient LiveFeed live;
    private final transient PublicUrl publicUrl;
    private final transient AuthFailures failures;

    AdminConsole(Application app, AdminSessions sessions, LiveFeed live, PublicUrl publicUrl, AuthFailures failures) {
        this.failures = failures;
        this.app = app;
        this.sessions = sessions;
        this.live = live;
        this.publicUrl = publicUrl;
    }

    @Override
    public void destroy() {
        live.close();
    }

    private static String path(HttpServletRequest req) {
        return req.getServletPath() + (req.getPathInfo() == null ? "" : req.getPathInfo());
    }

    @Override
    protected void doGet(HttpServletRequest req, HttpServletResponse res) throws IOException {
        String path = path(req);
        if (path.startsWith("/admin/assets/")) {
            asset(res, path.substring("/admin/assets/".length()));
        } else if (path.equals("/admin/login")) {
            if (sessions.of(req).isPresent()) {
                redirect(res, req.getContextPath() + "/admin");
                return;
            }
            page(res, 200, ConsolePage.login(publicUrl.of(req), null));
        } else if (path.equals("/admin/live")) {
            if (admin(req, res)) {
                live.subscribe(req, res, stillHolds(req, sessions, app.keys(), Operation.ADMIN_CONSOLE.role()));
            }
        } else {
            res.sendError(404);
        }
    }

    @Override
    protected void doPost(HttpServletRequest req, HttpServletResponse res) throws IOException {
        String path = path(req);
        if (path.equals("/admin/login")) {
            login(req, res);
        } else if (path.equals("/admin/logout")) {
            if (!admin(req, res)) {
                return;
            }
            var session = sessions.of(req);
            if (session.isPresent() && !AdminSessions.csrfMatches(session.get(), req)) {
                Refusal.send(req, res, ErrorCode.FORBIDDEN, "logging out needs the page's CSRF token (" + AdminSessions.CSRF_HEADER + ")");
                return;
            }
            session.ifPresent(sessions::logout);
            res.setHeader("Set-Cookie", sessions.cookie(null, secure(req)));
            redirect(res, req.getContextPath() + "/admin/login");
        } else if (path.startsWith("/admin/actions/tools/")) {
            if (admin(req, res) && csrf(req, res)) {
                toolAction(req, res, path.substring("/admin/actions/tools/".length()));
            }
        } else {
            res.sendError(404);
        }
    }

    private void login(HttpServletRequest req, HttpServletResponse res) throws IOException {
        String base = publicUrl.of(req);
        new ConsoleLogin(sessions, failures, publicUrl, error -> ConsolePage.login(base, error)).post(req, res, base);
    }

    /**
     * Whether a query string names the key, however its name is written: the servlet's parameters
     * are decoded, so {@code %6bey=…} is the key too (a check of the raw text let it in).
     */
    static boolean keyInAddress(String query) {
        if (query == null) {
            return false;
        }
        for (String part : query.split("&")) {
            int eq = part.indexOf('=');
            String name = eq < 0 ? part : part.substring(0, eq);
            try {
                if (URLDecoder.decode(name, StandardCharsets.UTF_8).strip().equalsIgnoreCase("key")) {
                    return true;
                }
            } catch (IllegalArgumentException malformed) {
                return true; // a name that does not decode is not let through to a decoder that might read it otherwise
            }
        }
        return false;
    }

    /** Pause, resume or retry the parked pushes of one tool account: {@code <name>/<action>}. */
    private void toolAction(HttpServletRequest req, HttpServletResponse res, String rest) throws IOException {
        int slash = rest.lastIndexOf('/');
        String name = slash < 0 ? "" : URLDecoder.decode(rest.substring(0, slash), StandardCharsets.UTF_8);
        String action = slash < 0 ? rest : rest.substring(slash + 1);
        try {
            String answer = switch (action) {
                case "pause" -> "{\"paused\":" + app.sync().pause(name).paused() + "}";
                case "resume" -> "{\"paused\":" + app.sync().resume(name, false).paused() + "}";
                case "retry" -> "{\"unparked\":" + app.sync().retryParked(name) + "}";
                // a held mass deletion, reviewed: resume and apply what was held
                case "apply-held" -> "{\"paused\":" + app.sync().resume(name, true).paused() + "}";
                // a held mass deletion, rejected: the records go back into the tool from their DEs
                case "restore-held" -> "{\"restored\":" + app.sync().restoreHeld(name) + "}";
                default -> null;
            };
            if (answer == null) {
                Refusal.send(req, res, ErrorCode.NOT_FOUND, "no action '" + action + "'; the actions are pause, resume, retry, apply-held and restore-held");
                return;
            }
            res.setContentType("application/json");
            res.getWriter().write(answer);
        } catch (RuntimeException e) {
            ErrorCode.Failure f = ErrorCode.of(e);
            Refusal.send(req, res, f.code(), f.message());
        }
    }

    /**
     * Whether the key a live stream was opened with still has {@code role}: asked every tick, so a
     * stream ends within a tick of its key's revocation (its session's, or its bearer key's).
     */
    static java.util.function.BooleanSupplier stillHolds(HttpServletRequest req, AdminSessions sessions, dev.idiom.services.app.ApiKeys keys, Role role) {
        Object session = req.getAttribute(KeyCheck.SESSION);
        String authorization = req.getHeader("Authorization");
        return () -> {
            try {
                Caller c = session instanceof AdminSessions.Session s ? sessions.caller(s) : keys.authenticate(authorization);
                return c.role().includes(role);
            } catch (RuntimeException revoked) {
                return false;
            }
        };
    }

    /** An admin's request (bearer key or console session); otherwise refused here. */
    private static boolean admin(HttpServletRequest req, HttpServletResponse res) throws IOException {
        if (req.getAttribute(Caller.ATTRIBUTE) instanceof Caller c && Operation.ADMIN_CONSOLE.allows(c)) {
            return true;
        }
        Refusal.send(req, res, ErrorCode.FORBIDDEN, "the admin console needs an admin key");
        return false;
    }

    /** A console session's actions carry its CSRF token; a bearer key's request has no ambient credential to ride on. */
    private static boolean csrf(HttpServletRequest req, HttpServletResponse res) throws IOException {
        if (!(req.getAttribute(KeyCheck.SESSION) instanceof AdminSessions.Session s) || AdminSessions.csrfMatches(s, req)) {
            return true;
        }
        Refusal.send(req, res, ErrorCode.FORBIDDEN, "this action needs the page's CSRF token in " + AdminSessions.CSRF_HEADER + "; reload the console");
        return false;
    }

    private boolean secure(HttpServletRequest req) {
        return req.isSecure() || publicUrl.of(req).startsWith("https:");
    }

    private static void asset(HttpServletResponse res, String name) throws IOException {
        String resource = ASSETS.get(name);
        try (InputStream in = resource == null ? null : AdminConsole.class.getResourceAsStream(resource)) {
            if (in == null) {
                res.sendError(404);
                return;
            }
            res.setContentType(name.endsWith(".css") ? "text/css;charset=UTF-8" : "text/javascript;charset=UTF-8");
            res.setHeader("Cache-Control", "max-age=300");
            res.setHeader("X-Content-Type-Options", "nosniff");
            in.transferTo(res.getOutputStream());
        }
    }

    private static void redirect(HttpServletResponse res, String location) {
        res.setStatus(303);
        res.setHeader("Location", location);
    }

    static void page(HttpServletResponse res, int status, String html) throws IOException {
        res.setStatus(status);
        res.setContentType("text/html;charset=UTF-8");
        res.setHeader("Cache-Control", "no-store");
        res.setHeader("Content-Security-Policy", ConsolePage.CSP);
        res.setHeader("X-Frame-Options", "DENY");
        res.getWriter().write(html);
    }
}
