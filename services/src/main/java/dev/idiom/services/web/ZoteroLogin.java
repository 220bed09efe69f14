package dev.idiom.services.web;

import dev.idiom.services.app.Application;
import dev.idiom.services.app.Caller;
import dev.idiom.services.app.zotero.LoginSessions;
import dev.idiom.services.app.zotero.ZoteroApiException;
import dev.idiom.services.app.zotero.ZoteroKeys;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.List;
import java.util.Map;

/**
 * Where a curator approves Zotero desktop's web login ({@code keys/sessions}'s {@code loginURL}):
 * the page names the client's platform and the served user libraries; Allow completes the session
 * for the one chosen, with every right on it (the key then goes to the polling client once), Deny
 * cancels it. Through {@link LoginSessions}, as the test root's {@code keys/sessions/complete} does.
 */
final class ZoteroLogin extends CuratorPages {
    static final String PATH = LoginSessions.APPROVAL_PATH;

    /** What the page shows: the session's client and the accounts to choose from, or how it ended. */
    record Ask(String token, String client, List<String> accounts, String done, String error) {}

    ZoteroLogin(Application app, AdminSessions sessions, CuratorWorkspace workspace, CuratorInbox inbox) {
        super(app, sessions, workspace, inbox);
    }

    /** Both methods need a curator; a POST also the page's CSRF token. GET shows the sign-in, POST allows or denies it. */
    @Override
    protected void service(HttpServletRequest req, HttpServletResponse res) throws IOException {
        boolean post = req.getMethod().equals("POST");
        if (!post && !req.getMethod().equals("GET")) {
            res.sendError(405);
            return;
        }
        Caller caller = CuratorWorkspace.curator(req, res);
        if (caller == null || post && !CuratorWorkspace.csrf(sessions, req, res)) {
            return;
        }
        String token = req.getPathInfo() == null ? "" : req.getPathInfo().replaceFirst("^/", "");
        Ask ask;
        try {
            ask = post ? decided(req, token) : asked(token);
        } catch (ZoteroApiException e) {
            ask = new Ask(token, "", List.of(), null, e.status() == 410 ? "This sign-in ran out: start it again in Zotero."
                    : e.status() == 404 ? "No such sign-in." : "Not done: " + e.getMessage());
        }
        show(req, res, caller, ask);
    }

    private Ask asked(String token) {
        LoginSessions.Session s = app.zotero().logins().get(token);
        return s.status() == LoginSessions.Status.PENDING ? new Ask(token, s.client(), accounts(), null, null)
                : new Ask(token, s.client(), List.of(), null, "This sign-in is " + s.status().name().toLowerCase(java.util.Locale.ROOT) + " already.");
    }

    private Ask decided(HttpServletRequest req, String token) {
        LoginSessions logins = app.zotero().logins();
        if ("deny".equals(req.getParameter("action"))) {
            logins.cancel(token);
            return new Ask(token, "", List.of(), "Zotero's sign-in was denied; it gets no key.", null);
        }
        String account = req.getParameter("account");
        long user = app.zotero().accounts().userOf(account == null || !accounts().contains(account) ? "" : account)
                .orElseThrow(() -> new ZoteroApiException(400, "choose one of the served libraries"));
        LoginSessions.Session s = logins.complete(token, user, ZoteroKeys.fullAccess());
        return new Ask(token, s.client(), List.of(), "Zotero on " + s.client() + " may now sync " + account + ": go back to Zotero.", null);
    }

    private void show(HttpServletRequest req, HttpServletResponse res, Caller caller, Ask ask) throws IOException {
        CuratorChrome chrome = workspace.chrome(req, caller, inbox.recent(), "accounts");
        AdminConsole.page(res, ask.error() == null ? 200 : 409, pages.render("zoterologin.jte", Map.of("chrome", chrome, "ask", ask)));
    }

    /** The served user libraries' accounts, by name. */
    private List<String> accounts() {
        return app.tools().accounts().list().stream().filter(a -> dev.idiom.wrappers.registry.ToolRegistry.SERVED_ZOTERO.equals(a.kind()))
                .map(dev.idiom.services.tools.ToolAccount::name).filter(n -> app.zotero().accounts().userOf(n).isPresent()).sorted().toList();
    }
}
