package dev.idiom.services.web;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.idiom.consistency.report.SyncPlan;
import dev.idiom.events.InvalidValueException;
import dev.idiom.services.app.Application;
import dev.idiom.services.app.Caller;
import dev.idiom.services.tools.ToolAccount;
import dev.idiom.services.tools.ToolAccounts;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * A curator's tool accounts: add one ({@code /curator/accounts/new}: the tool, its address or file,
 * its library and key, checked against the tool before it is kept), and for each account
 * ({@code /curator/accounts/{name}}) its replication rule with a preview of what a new rule would
 * write there — copies, changes, removals and a hold, with samples — before it is saved, and its
 * removal, saying first how many copies it unlinks. Through {@code ToolAccounts}, {@code Tools} and
 * {@code ReplicaSync}, as {@code PUT}, {@code PATCH} and {@code DELETE /api/tools/{name}} do.
 */
final class CuratorAccounts extends CuratorPages {
    private static final ObjectMapper JSON = new ObjectMapper();
    static final List<String> KINDS = ToolAccounts.KINDS.stream().sorted().toList();
    static final List<String> POLICIES = List.of("prefer-idiom", "prefer-remote", "last-writer-wins", "ask");
    static final List<String> DIRECTIONS = List.of("both", "receive-only", "send-only");

    CuratorAccounts(Application app, AdminSessions sessions, CuratorWorkspace workspace, CuratorInbox inbox) {
        super(app, sessions, workspace, inbox);
    }

    /** The add form's values as typed, so a refused one is shown again whole (the secret aside). */
    record NewAccount(String name, String kind, String baseUrl, String account, String conflictPolicy, boolean privateLibrary, String error) {}

    /** A rule as the form holds it: "none", "all" or "filter" with its tags, types and words. */
    record RuleForm(String mirror, String tags, String types, String query, String direction, String deletions) {}

    record AccountView(ToolAccount account, int copies, String done, RuleForm rule, SyncPlan.Writes preview, String previewError,
                       dev.idiom.consistency.report.MirrorProgress progress, String syncing, String synced) {}

    /** What the sync the workspace started on the account has done so far, or "" if none is under way. */
    private String syncing(String name) {
        return workspace.syncs().of(name).map(r -> "A sync started " + CuratorPage.ago(r.started(), app.clock().instant()) + ": " + r.said())
                .orElse("");
    }

    /** How the last sync started from the workspace on the account ended, or "". */
    private String synced(String name) {
        return workspace.syncs().ended(name).orElse("");
    }

    @Override
    protected void doGet(HttpServletRequest req, HttpServletResponse res) throws IOException {
        Caller caller = CuratorWorkspace.curator(req, res);
        if (caller == null) {
            return;
        }
        String[] p = CuratorWorkspace.path(req).split("/"); // "", "curator", "accounts", name
        CuratorInbox.Contents now = inbox.recent();
        CuratorChrome chrome = workspace.chrome(req, caller, now, "accounts");
        if (p.length == 4 && p[3].equals("new")) {
            AdminConsole.page(res, 200, pages.render("accountnew.jte", Map.of("chrome", chrome, "form",
                    new NewAccount("", "bibtex", "", "", "prefer-idiom", false, null))));
            return;
        }
        if (p.length == 5 && p[4].equals("progress")) { // the mirror's progress alone: what the page's script asks for every two seconds
            String name = URLDecoder.decode(p[3], StandardCharsets.UTF_8);
            try {
                AdminConsole.page(res, 200, pages.render("progress.jte", Map.of("chrome", chrome, "name", name, "progress", app.sync().mirror(name),
                        "syncing", syncing(name), "synced", synced(name))));
            } catch (RuntimeException e) {
                res.sendError(404);
            }
            return;
        }
        if (p.length != 4) {
            res.sendError(404);
            return;
        }
        String name = URLDecoder.decode(p[3], StandardCharsets.UTF_8);
        ToolAccount a = app.tools().accounts().list().stream().filter(x -> x.name().equals(name)).findFirst().orElse(null);
        if (a == null) {
            AdminConsole.page(res, 404, pages.render("refused.jte", Map.of("chrome", chrome, "status", 404, "message",
                    "no tool account is called '" + name + "'")));
            return;
        }
        int copies = now.rows().stream().filter(r -> r.account().name().equals(name)).mapToInt(r -> r.account().replicas()).findFirst().orElse(0);
        RuleForm rule = req.getParameter("mirror") == null ? form(a) : typed(req);
        SyncPlan.Writes preview = null;
        String previewError = null;
        if (req.getParameter("preview") != null) {
            try {
                preview = app.sync().previewRule(name, app.tools().accounts().candidate(name, mirror(rule), rule.direction(), rule.deletions()))
                        .writes().getFirst();
            } catch (InvalidValueException e) {
                previewError = e.getMessage();
            }
        }
        AdminConsole.page(res, 200, pages.render("account.jte", Map.of("chrome", chrome, "view",
                new AccountView(a, copies, CuratorWorkspace.done(req), rule, preview, previewError, app.sync().mirror(name), syncing(name), synced(name)))));
    }

    @Override
    protected void doPost(HttpServletRequest req, HttpServletResponse res) throws IOException {
        Caller caller = CuratorWorkspace.curator(req, res);
        if (caller == null || !CuratorWorkspace.csrf(sessions, req, res)) {
            return;
        }
        String[] p = CuratorWorkspace.path(req).split("/");
        String base = req.getContextPath();
        if (p.length == 3) {
            add(req, res, caller);
            return;
        }
        if (p.length != 5) {
            res.sendError(404);
            return;
        }
        String name = URLDecoder.decode(p[3], StandardCharsets.UTF_8);
        String done;
        String back = "/curator/accounts/" + URLEncoder.encode(name, StandardCharsets.UTF_8);
        try {
            switch (p[4]) {
                case "rule" -> {
                    RuleForm rule = typed(req);
                    ToolAccount saved = app.tools().accounts().replicate(name, mirror(rule), rule.direction(), rule.deletions());
                    done = "Saved the rule of " + name + ": " + ruleText(saved) + ". Its copies follow at the next planning round.";
                }
                case "check" -> {
                    app.tools().checkConnection(name);
                    done = "Checked " + name + ": the tool answered, and the key works.";
                }
                case "password" -> { // a browsers' account's new password, shown once on a page of its own
                    String password = app.tools().accounts().renewBrowserPassword(name);
                    ToolAccount a = app.tools().accounts().list().stream().filter(x -> x.name().equals(name)).findFirst().orElseThrow();
                    CuratorChrome chrome = workspace.chrome(req, caller, inbox.recent(), "accounts");
                    AdminConsole.page(res, 200, pages.render("davmade.jte", Map.of("chrome", chrome, "name", name, "davUrl",
                            chrome.base() + "/dav/" + name + "/", "file", a.baseUrl(), "password", password)));
                    return;
                }
                case "remove" -> {
                    int unlinked = app.sync().removeAccount(name);
                    done = "Removed " + name + ": " + unlinked + " copies unlinked; the records stay in the tool and in Idiom.";
                    back = "/curator";
                }
                default -> {
                    res.sendError(404);
                    return;
                }
            }
        } catch (RuntimeException e) {
            done = CuratorWorkspace.notDone(e);
        }
        inbox.changed();
        CuratorWorkspace.redirect(res, base + back + "?done=" + URLEncoder.encode(done, StandardCharsets.UTF_8));
    }

    private void add(HttpServletRequest req, HttpServletResponse res, Caller caller) throws IOException {
        NewAccount typed = new NewAccount(param(req, "name"), param(req, "kind"), param(req, "baseUrl"), param(req, "account"), param(req, "conflictPolicy"),
                req.getParameter("privateLibrary") != null, null);
        if (ToolAccounts.SERVED.equals(typed.kind())) {
            addServed(req, res, caller, typed);
            return;
        }
        boolean browsers = ToolAccounts.BROWSERS.equals(typed.kind());
        // a browsers' account's password: Idiom makes one unless the curator typed one, and shows it this once
        String made = browsers && param(req, "secret").isEmpty() ? ToolAccounts.newBrowserPassword() : null;
        String secret = made != null ? made : param(req, "secret");
        try {
            app.tools().saveChecked(typed.name(), req.getParameter("create") != null, true, () -> app.tools().accounts().put(typed.name(), typed.kind(),
                    typed.baseUrl(), typed.account().isEmpty() ? null : typed.account(), secret.isEmpty() ? null : secret, null, typed.conflictPolicy(),
                    typed.privateLibrary()));
        } catch (RuntimeException e) {
            String why = CuratorWorkspace.notDone(e);
            CuratorChrome chrome = workspace.chrome(req, caller, inbox.recent(), "accounts");
            AdminConsole.page(res, 422, pages.render("accountnew.jte", Map.of("chrome", chrome, "form",
                    new NewAccount(typed.name(), typed.kind(), typed.baseUrl(), typed.account(), typed.conflictPolicy(), typed.privateLibrary(), why))));
            return;
        }
        inbox.changed();
        if (browsers) {
            ToolAccount a = app.tools().accounts().list().stream().filter(x -> x.name().equals(typed.name())).findFirst().orElseThrow();
            CuratorChrome chrome = workspace.chrome(req, caller, inbox.recent(), "accounts");
            AdminConsole.page(res, 200, pages.render("davmade.jte", Map.of("chrome", chrome, "name", typed.name(), "davUrl",
                    chrome.base() + "/dav/" + typed.name() + "/", "file", a.baseUrl(), "password", made == null ? "(the one you typed)" : made)));
            return;
        }
        CuratorWorkspace.redirect(res, req.getContextPath() + "/curator/accounts/" + URLEncoder.encode(typed.name(), StandardCharsets.UTF_8) + "?done="
                + URLEncoder.encode("Added " + typed.name() + " and checked it with the tool. Sync it to bring its records in; set a rule to "
                + "mirror records to it.", StandardCharsets.UTF_8));
    }

    /**
     * A Zotero library Idiom serves (kind zotero-api): made with the account; the page says once what
     * Zotero's clients need (the API's address, the user, the key; desktop 7's name and password).
     */
    private void addServed(HttpServletRequest req, HttpServletResponse res, Caller caller, NewAccount typed) throws IOException {
        dev.idiom.services.app.zotero.ServedAccounts.Saved saved;
        try {
            if (!typed.baseUrl().isEmpty() || !typed.account().isEmpty() || !param(req, "secret").isEmpty()) {
                throw new dev.idiom.events.InvalidValueException("a zotero-api library is Idiom's to make: leave the address, library and key empty");
            }
            saved = app.zotero().accounts().save(app.tools(), typed.name(), false, true, null, typed.conflictPolicy(), typed.privateLibrary(),
                    null, null, null);
        } catch (RuntimeException e) {
            CuratorChrome chrome = workspace.chrome(req, caller, inbox.recent(), "accounts");
            AdminConsole.page(res, 422, pages.render("accountnew.jte", Map.of("chrome", chrome, "form",
                    new NewAccount(typed.name(), typed.kind(), typed.baseUrl(), typed.account(), typed.conflictPolicy(), typed.privateLibrary(),
                            CuratorWorkspace.notDone(e)))));
            return;
        }
        inbox.changed();
        CuratorChrome chrome = workspace.chrome(req, caller, inbox.recent(), "accounts");
        var s = saved.served();
        AdminConsole.page(res, 200, pages.render("zoteromade.jte", Map.of("chrome", chrome, "name", typed.name(), "apiUrl", chrome.base(),
                "userID", s.userNumber(), "apiKey", s.clientKey() == null ? "(the key it has: renew it from the API to see a new one)" : s.clientKey(),
                "password", s.password() == null ? "(the one said when it was made)" : s.password())));
    }

    /** The account's rule as a person reads it: which records, which way, what deletions do. */
    static String ruleText(ToolAccount a) {
        JsonNode m = a.mirror();
        String which = m.isTextual() ? (m.asText().equals("all") ? "every record" : "only what it brings in or is given") : "the records matching " + m;
        return which + ", " + a.direction() + ", deletions " + a.deletions();
    }

    private static String param(HttpServletRequest req, String name) {
        String v = req.getParameter(name);
        return v == null ? "" : v.strip();
    }

    private static RuleForm form(ToolAccount a) {
        JsonNode m = a.mirror();
        if (m.isTextual()) {
            return new RuleForm(m.asText(), "", "", "", a.direction(), a.deletions());
        }
        return new RuleForm("filter", join(m.path("tags")), join(m.path("types")), m.path("query").asText(""), a.direction(), a.deletions());
    }

    private static String join(JsonNode array) {
        StringBuilder b = new StringBuilder();
        array.forEach(v -> b.append(b.isEmpty() ? "" : ", ").append(v.asText()));
        return b.toString();
    }

    private static RuleForm typed(HttpServletRequest req) {
        return new RuleForm(param(req, "mirror"), param(req, "tags"), param(req, "types"), param(req, "query"), param(req, "direction"),
                param(req, "deletions"));
    }

    /** The rule as the API takes it: "none", "all" or a filter of the tags, types and words given. */
    private static JsonNode mirror(RuleForm f) {
        if (!f.mirror().equals("filter")) {
            return JSON.getNodeFactory().textNode(f.mirror().isEmpty() ? "none" : f.mirror());
        }
        ObjectNode filter = JSON.createObjectNode();
        if (!list(f.tags()).isEmpty()) {
            list(f.tags()).forEach(filter.putArray("tags")::add);
        }
        if (!list(f.types()).isEmpty()) {
            list(f.types()).forEach(filter.putArray("types")::add);
        }
        if (!f.query().isBlank()) {
            filter.put("query", f.query());
        }
        return filter;
    }

    private static List<String> list(String commaSeparated) {
        return Arrays.stream(commaSeparated.split(",")).map(String::strip).filter(s -> !s.isEmpty()).toList();
    }
}
