package dev.idiom.services.web;

import dev.idiom.services.http.AuthFailures;
import dev.idiom.services.http.PublicUrl;
import dev.idiom.services.app.Application;
import dev.idiom.services.app.Caller;
import dev.idiom.services.app.Operation;
import dev.idiom.services.app.EntityLifecycle;
import dev.idiom.services.app.ErrorCode;
import dev.idiom.services.app.Role;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The curator's workspace at {@code /curator}: every tool account at a glance (its state, last pull
 * and push, its last error, what it owes and what it parked, with sync now, pause and resume, retry)
 * and one inbox of what waits for a person — writes a tool refused, open conflicts, likely
 * duplicates, held mass deletions — each with its actions; the library's pages are
 * {@link CuratorLibrary}'s. Curator and admin keys log in as at the console (a session cookie scoped
 * to {@code /curator}, a CSRF token on every action). Pages are plain forms that work without
 * script; htmx only keeps the counts and states current from {@code /curator/live}. Every action
 * goes through the same application layer as REST and SOAP; none is a second door.
 */
final class CuratorWorkspace extends HttpServlet {
    private final transient Application app;
    private final transient AdminSessions sessions;
    private final transient PublicUrl publicUrl;
    private final transient AuthFailures failures;
    private final transient CuratorInbox inbox;
    private final transient PageTemplates pages;
    private final transient LiveFeed live;
    private final transient CuratorSyncs syncs;

    CuratorWorkspace(Application app, AdminSessions sessions, PublicUrl publicUrl, AuthFailures failures, CuratorInbox inbox, LiveFeed live) {
        this.app = app;
        this.sessions = sessions;
        this.publicUrl = publicUrl;
        this.failures = failures;
        this.inbox = inbox;
        this.pages = inbox.pages();
        this.live = live;
        this.syncs = new CuratorSyncs(app);
    }

    static String path(HttpServletRequest req) {
        return req.getServletPath() + (req.getPathInfo() == null ? "" : req.getPathInfo());
    }

    /** The application stops: the live feed's ticker with it (a stopped web application keeps no thread). */
    @Override
    public void destroy() {
        live.close();
    }

    @Override
    protected void doGet(HttpServletRequest req, HttpServletResponse res) throws IOException {
        String path = path(req);
        if (path.equals("/curator/login")) {
            if (sessions.of(req).isPresent()) {
                redirect(res, req.getContextPath() + "/curator");
                return;
            }
            AdminConsole.page(res, 200, CuratorPage.login(publicUrl.of(req), null));
        } else if (path.equals("/curator") || path.equals("/curator/")) {
            Caller caller = curator(req, res);
            if (caller != null) {
                CuratorInbox.Contents c = inbox.read(); // the inbox itself: as it is now
                CuratorChrome chrome = chrome(req, caller, c, "inbox");
                AdminConsole.page(res, 200, pages.render("workspace.jte", Map.of("chrome", chrome, "done", done(req), "rows", c.rows(),
                        "parked", c.parked(), "conflicts", c.conflicts(), "duplicates", c.duplicates())));
            }
        } else if (path.equals("/curator/live")) {
            Caller caller = curator(req, res);
            if (caller != null) {
                live.subscribe(req, res, AdminConsole.stillHolds(req, sessions, app.keys(), Operation.CURATOR_WORKSPACE.role()));
            }
        } else {
            res.sendError(404);
        }
    }

    /** The syncs the workspace started that may still be under way. */
    CuratorSyncs syncs() {
        return syncs;
    }

    /** The message an action left for the page it redirected to, if any. */
    static String done(HttpServletRequest req) {
        String d = req.getParameter("done");
        return d == null ? "" : d;
    }

    /** The frame of a page: the session's token and name, the inbox's count. */
    CuratorChrome chrome(HttpServletRequest req, Caller caller, CuratorInbox.Contents contents, String section) {
        String csrf = sessions.of(req).map(AdminSessions.Session::csrf).orElse("");
        return new CuratorChrome(publicUrl.of(req), csrf, caller.keyName(), contents.waiting(), contents.rows().size(), section);
    }

    @Override
    protected void doPost(HttpServletRequest req, HttpServletResponse res) throws IOException {
        String path = path(req);
        if (path.equals("/curator/login")) {
            login(req, res);
            return;
        }
        Caller caller = curator(req, res);
        if (caller == null || !csrf(sessions, req, res)) {
            return;
        }
        if (path.equals("/curator/logout")) {
            sessions.of(req).ifPresent(sessions::logout);
            res.setHeader("Set-Cookie", sessions.cookie(null, secure(req)));
            redirect(res, req.getContextPath() + "/curator/login");
            return;
        }
        String done;
        try {
            done = act(path, req, caller.source("web", "curator workspace"));
        } catch (RuntimeException e) {
            done = notDone(e);
        }
        if (done == null) {
            res.sendError(404);
            return;
        }
        inbox.changed();
        // post, redirect, get: a reload does not do it again
        redirect(res, req.getContextPath() + "/curator?done=" + URLEncoder.encode(done, StandardCharsets.UTF_8));
    }

    /** An action refused for a reason a person can act on: its message; anything else is the server's fault and goes on. */
    static String notDone(RuntimeException e) {
        ErrorCode.Failure f = ErrorCode.of(e);
        if (f.code() == ErrorCode.INTERNAL) {
            throw e;
        }
        return "Not done: " + f.message();
    }

    /** A form of a logged-in page carries the session's CSRF token; a bearer key's request has no ambient credential to ride on. */
    static boolean csrf(AdminSessions sessions, HttpServletRequest req, HttpServletResponse res) throws IOException {
        var session = sessions.of(req);
        if (session.isPresent() && !AdminSessions.csrfMatches(session.get(), req)) {
            Refusal.send(req, res, ErrorCode.FORBIDDEN, "this action needs the page's CSRF token; reload the workspace");
            return false;
        }
        return true;
    }

    /** Does one action; what to tell the curator, or null for no such action. */
    private String act(String path, HttpServletRequest req, String source) {
        String[] p = path.split("/"); // "", "curator", "actions", kind, id, verb
        if (p.length != 6 || !p[2].equals("actions")) {
            return null;
        }
        String id = URLDecoder.decode(p[4], StandardCharsets.UTF_8);
        String verb = p[5];
        return switch (p[3]) {
            case "accounts" -> switch (verb) {
                case "sync" -> {
                    var done = syncs.syncNow(id);
                    if (done.isEmpty()) {
                        yield "Syncing " + id + ": it goes on in the background; the account's page shows how far it is.";
                    }
                    yield CuratorSyncs.said(id, done.get());
                }
                case "pause" -> { app.sync().pause(id); yield "Paused " + id + "."; }
                case "resume" -> { app.sync().resume(id, false); yield "Resumed " + id + "."; }
                case "retry" -> "Retrying " + app.sync().retryParked(id) + " parked writes of " + id + ".";
                case "allow-held" -> { app.sync().resume(id, true); yield "Applied the deletions held in " + id + " and resumed it."; }
                case "deny-held" -> "Put back " + app.sync().restoreHeld(id) + " records into " + id + " from their DEs.";
                default -> null;
            };
            case "conflicts" -> switch (verb) {
                case "tool", "idiom" -> {
                    var de = app.sync().resolveConflictAsText(UUID.fromString(id), verb, null, source);
                    yield "Resolved: \u201c" + de.metadata().title() + "\u201d keeps " + (verb.equals("tool") ? "the tool's" : "Idiom's") + " value.";
                }
                case "value" -> {
                    var de = app.sync().resolveConflictAsText(UUID.fromString(id), "value", req.getParameter("value"), source);
                    yield "Resolved: \u201c" + de.metadata().title() + "\u201d takes the value you typed.";
                }
                default -> null;
            };
            case "duplicates" -> switch (verb) {
                case "dismiss" -> {
                    app.lifecycle().dismissDuplicate(UUID.fromString(id), UUID.fromString(req.getParameter("other")), source);
                    yield "Noted: not duplicates. The pair is not suggested again.";
                }
                case "merge" -> {
                    // the fields whose value the kept record takes from the other one (the merge page's choices; none from the inbox's button)
                    List<String> fromOther = req.getParameterMap().entrySet().stream().filter(e -> e.getKey().startsWith("take.")
                            && List.of(e.getValue()).contains("other")).map(e -> e.getKey().substring("take.".length())).sorted().toList();
                    EntityLifecycle.Outcome o = app.lifecycle().merge(UUID.fromString(id), UUID.fromString(req.getParameter("other")), fromOther, false,
                            Integer.parseInt(req.getParameter("version")), source);
                    yield "Merged into \u201c" + o.kept().entity().metadata().title() + "\u201d" + (o.duplicates().isEmpty() ? "."
                            : "; " + o.duplicates().size() + " duplicate copies " + (o.duplicates().stream().allMatch(EntityLifecycle.DuplicateCopy::removed)
                            ? "are removed from their tools." : "are left for you to remove in their tools."));
                }
                default -> null;
            };
            default -> null;
        };
    }

    private void login(HttpServletRequest req, HttpServletResponse res) throws IOException {
        String base = publicUrl.of(req);
        new ConsoleLogin(sessions, failures, publicUrl, error -> CuratorPage.login(base, error)).post(req, res, base);
    }

    /** The caller if it is a curator or an admin (the key check put it there); otherwise refused here, null. */
    static Caller curator(HttpServletRequest req, HttpServletResponse res) throws IOException {
        if (req.getAttribute(Caller.ATTRIBUTE) instanceof Caller c && Operation.CURATOR_WORKSPACE.allows(c)) {
            return c;
        }
        String why = "the curator's workspace needs a curator or admin key";
        String accept = req.getHeader("Accept");
        if (accept != null && accept.contains("text/html")) { // a person at a browser: a page that says so, and the way back
            AdminConsole.page(res, 403, CuratorPage.forbidden(req.getContextPath(), why));
        } else {
            Refusal.send(req, res, ErrorCode.FORBIDDEN, why);
        }
        return null;
    }

    private boolean secure(HttpServletRequest req) {
        return req.isSecure() || publicUrl.of(req).startsWith("https:");
    }

    static void redirect(HttpServletResponse res, String location) {
        res.setStatus(303);
        res.setHeader("Location", location);
    }

}
