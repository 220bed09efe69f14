package dev.idiom.services.web;

import dev.idiom.events.Changes;
import dev.idiom.events.DigitalEntity;
import dev.idiom.events.Field;
import dev.idiom.events.InvalidValueException;
import dev.idiom.events.Metadata;
import dev.idiom.events.SearchPage;
import dev.idiom.events.SearchQuery;
import dev.idiom.events.UnknownEntityException;
import dev.idiom.services.app.Application;
import dev.idiom.services.app.Caller;
import dev.idiom.services.app.ErrorCode;
import dev.idiom.services.app.ReadPath;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;

/**
 * The curator's library: a ranked search with facets ({@code /curator/library}), a record's page
 * ({@link CuratorRecords}, {@code /curator/records/{id}}), the edit and create forms
 * ({@link CuratorForms}), a merge field by field, delete to the trash and the trash with restore
 * ({@code /curator/trash}). Every read and write is the application layer's, as REST's and SOAP's.
 */
final class CuratorLibrary extends CuratorPages {
    /** Results per page of the library. */
    static final int PAGE_SIZE = 25;
    private final transient CuratorRecords records;
    private final transient CuratorForms forms;

    CuratorLibrary(Application app, AdminSessions sessions, CuratorWorkspace workspace, CuratorInbox inbox) {
        super(app, sessions, workspace, inbox);
        this.records = new CuratorRecords(app, inbox);
        this.forms = new CuratorForms(app, workspace, inbox);
    }

    @Override
    protected void doGet(HttpServletRequest req, HttpServletResponse res) throws IOException {
        Caller caller = CuratorWorkspace.curator(req, res);
        if (caller == null) {
            return;
        }
        String[] p = CuratorWorkspace.path(req).split("/"); // "", "curator", page, id, verb
        CuratorChrome chrome = workspace.chrome(req, caller, inbox.recent(), p[2]);
        try {
            if (p.length == 3 && p[2].equals("library")) {
                AdminConsole.page(res, 200, pages.render("library.jte", Map.of("chrome", chrome, "view", library(req, caller))));
            } else if (p.length == 3 && p[2].equals("merge")) {
                AdminConsole.page(res, 200, pages.render("merge.jte", Map.of("chrome", chrome.in("inbox"), "view",
                        merge(caller, id(String.valueOf(req.getParameter("one"))), id(String.valueOf(req.getParameter("other")))))));
            } else if (p.length == 3 && p[2].equals("trash")) {
                AdminConsole.page(res, 200, pages.render("trash.jte", Map.of("chrome", chrome, "done", CuratorWorkspace.done(req),
                        "records", app.lifecycle().trash(100), "retention", app.lifecycle().retention(), "now", app.clock().instant())));
            } else if (p.length == 4 && p[2].equals("records") && p[3].equals("new")) {
                AdminConsole.page(res, 200, forms.edit(chrome.in("new"), null, 0, Metadata.EMPTY, false, null, List.of()));
            } else if (p.length == 4 && p[2].equals("records")) {
                AdminConsole.page(res, 200, records.page(req, chrome.in("record"), caller, id(p[3])));
            } else if (p.length == 5 && p[2].equals("records") && p[4].equals("edit")) {
                DigitalEntity de = app.reads().describe(id(p[3]), ReadPath.DB, caller).entity();
                AdminConsole.page(res, 200, forms.edit(chrome.in("record"), de.id(), de.version(), de.metadata(), de.markedPrivate(), null, List.of()));
            } else {
                res.sendError(404);
            }
        } catch (InvalidValueException | UnknownEntityException e) { // a malformed id, or one nobody has
            ErrorCode.Failure f = ErrorCode.of(e);
            AdminConsole.page(res, f.code().status(), pages.render("refused.jte", Map.of("chrome", chrome, "status", f.code().status(),
                    "message", f.message())));
        }
    }

    @Override
    protected void doPost(HttpServletRequest req, HttpServletResponse res) throws IOException {
        Caller caller = CuratorWorkspace.curator(req, res);
        if (caller == null || !CuratorWorkspace.csrf(sessions, req, res)) {
            return;
        }
        String source = caller.source("web", "curator workspace");
        String[] p = CuratorWorkspace.path(req).split("/");
        String base = req.getContextPath();
        try {
            if (p.length == 3 && p[2].equals("records")) {
                forms.create(req, res, caller, source);
                return;
            }
            if (p.length != 5 || !p[2].equals("records")) {
                res.sendError(404);
                return;
            }
            UUID id = id(p[3]);
            switch (p[4]) {
                case "edit" -> forms.save(req, res, caller, id, version(req), source);
                case "delete" -> {
                    var de = app.lifecycle().delete(id, version(req), source).entity();
                    inbox.changed();
                    CuratorWorkspace.redirect(res, base + "/curator/trash?done=" + enc("Moved \u201c" + title(de) + "\u201d to the trash; its copies are "
                            + "removed from their tools, and restoring it puts them back."));
                }
                case "restore" -> {
                    var de = app.lifecycle().restore(id, source).entity();
                    inbox.changed();
                    CuratorWorkspace.redirect(res, base + "/curator/records/" + id + "?done=" + enc("Restored \u201c" + title(de) + "\u201d with its copies."));
                }
                case "revert" -> {
                    int to = Integer.parseInt(req.getParameter("to"));
                    app.lifecycle().revert(id, to, version(req), source);
                    CuratorWorkspace.redirect(res, base + "/curator/records/" + id + "?done=" + enc("Reverted to version " + to + "."));
                }
                default -> res.sendError(404);
            }
        } catch (RuntimeException e) {
            String done = CuratorWorkspace.notDone(e);
            String back = p.length >= 4 && !p[2].equals("records") ? "/curator" : p.length >= 4 ? "/curator/records/" + p[3] : "/curator/library";
            CuratorWorkspace.redirect(res, base + back + "?done=" + enc(done));
        }
    }

    private static UUID id(String text) {
        try {
            return UUID.fromString(text);
        } catch (IllegalArgumentException e) {
            throw new InvalidValueException("'" + text + "' is not a record's id");
        }
    }

    static int version(HttpServletRequest req) {
        try {
            return Integer.parseInt(req.getParameter("version"));
        } catch (NumberFormatException e) {
            throw new InvalidValueException("the form has no version; reload the page");
        }
    }

    static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    static String title(DigitalEntity de) {
        return de.metadata().title() == null ? "[untitled]" : de.metadata().title();
    }

    // ---- the library ----

    /** A facet's value as a link that narrows the search to it. */
    record FacetLink(String label, long count, String href, boolean active) {}

    record FacetGroup(String name, List<FacetLink> links) {}

    record LibraryView(Map<String, String> query, String error, List<DigitalEntity> hits, long total, boolean estimated, List<FacetGroup> facets,
                       String nextHref, List<String> accounts, List<String> types) {
        String q(String name) {
            return query.getOrDefault(name, "");
        }
    }

    private static final List<String> CRITERIA = List.of("q", "type", "tag", "author", "venue", "yearFrom", "yearTo", "tool");

    private LibraryView library(HttpServletRequest req, Caller caller) {
        Map<String, String> query = new LinkedHashMap<>();
        for (String c : CRITERIA) {
            String v = req.getParameter(c);
            if (v != null && !v.isBlank()) {
                query.put(c, v.strip());
            }
        }
        List<String> accounts = app.tools().accounts().list().stream().map(a -> a.name()).sorted().toList();
        List<String> types = Field.TYPES.stream().sorted().toList();
        try {
            SearchQuery q = new SearchQuery(query.get("q"), query.get("tag"), query.get("author"), year(query.get("yearFrom")), year(query.get("yearTo")),
                    query.get("type"), query.get("venue"), query.get("tool"), req.getParameter("cursor"), PAGE_SIZE, caller.seesPrivate());
            SearchPage page = app.reads().search(q, caller);
            List<FacetGroup> facets = new ArrayList<>();
            for (String name : SearchPage.FACETS) {
                List<SearchPage.FacetCount> counts = page.facets().getOrDefault(name, List.of());
                if (counts.isEmpty()) {
                    continue;
                }
                List<FacetLink> links = new ArrayList<>();
                for (SearchPage.FacetCount c : counts.stream().limit(12).toList()) {
                    Map<String, String> narrowed = new LinkedHashMap<>(query);
                    boolean active;
                    if (name.equals("year")) {
                        active = c.value().equals(query.get("yearFrom")) && c.value().equals(query.get("yearTo"));
                        narrowed.put("yearFrom", c.value());
                        narrowed.put("yearTo", c.value());
                    } else {
                        active = c.value().equalsIgnoreCase(query.getOrDefault(name, ""));
                        narrowed.put(name, c.value());
                    }
                    links.add(new FacetLink(c.value(), c.count(), "/curator/library?" + queryString(narrowed), active));
                }
                facets.add(new FacetGroup(name, links));
            }
            String next = null;
            if (page.nextCursor() != null) {
                Map<String, String> after = new LinkedHashMap<>(query);
                after.put("cursor", page.nextCursor());
                next = "/curator/library?" + queryString(after);
            }
            return new LibraryView(query, null, page.entities(), page.total(), page.estimated(), facets, next, accounts, types);
        } catch (InvalidValueException e) {
            return new LibraryView(query, e.getMessage(), List.of(), 0, false, List.of(), null, accounts, types);
        }
    }

    private static Integer year(String s) {
        if (s == null) {
            return null;
        }
        try {
            return Integer.valueOf(s);
        } catch (NumberFormatException e) {
            throw new InvalidValueException("a year is a whole number, got '" + s + "'");
        }
    }

    private static String queryString(Map<String, String> params) {
        StringBuilder b = new StringBuilder();
        params.forEach((k, v) -> b.append(b.isEmpty() ? "" : "&").append(k).append('=').append(enc(v)));
        return b.toString();
    }

    // ---- a merge, field by field ----

    /** A field the two records hold differently: which value the kept record takes is the curator's choice. */
    record MergeRow(String name, String label, String one, String other) {}

    record MergeView(DigitalEntity one, DigitalEntity other, List<MergeRow> differing, List<CuratorRecords.FieldRow> same) {}

    private MergeView merge(Caller caller, UUID oneId, UUID otherId) {
        DigitalEntity one = app.reads().describe(oneId, ReadPath.DB, caller).entity();
        DigitalEntity other = app.reads().describe(otherId, ReadPath.DB, caller).entity();
        List<MergeRow> differing = new ArrayList<>();
        List<CuratorRecords.FieldRow> same = new ArrayList<>();
        for (Field f : Field.values()) {
            Object a = one.metadata().get(f);
            Object b = other.metadata().get(f);
            if (Changes.empty(a) && Changes.empty(b)) {
                continue;
            }
            if (Objects.equals(a, b)) {
                same.add(new CuratorRecords.FieldRow(CuratorRecords.label(f), f.toText(a), "", "", "", 0));
            } else {
                differing.add(new MergeRow(f.jsonName(), CuratorRecords.label(f), Changes.empty(a) ? "" : f.toText(a), Changes.empty(b) ? "" : f.toText(b)));
            }
        }
        return new MergeView(one, other, differing, same);
    }

}
