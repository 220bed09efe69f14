package dev.idiom.services.web;

import dev.idiom.events.DigitalEntity;
import dev.idiom.events.Field;
import dev.idiom.events.InvalidValueException;
import dev.idiom.events.Metadata;
import dev.idiom.events.RecordedEvent;
import dev.idiom.events.Replica;
import dev.idiom.events.SearchPage;
import dev.idiom.events.SearchQuery;
import dev.idiom.events.UnknownEntityException;
import dev.idiom.services.app.Application;
import dev.idiom.services.app.Caller;
import dev.idiom.services.app.EntityReads;
import dev.idiom.services.app.ErrorCode;
import dev.idiom.services.app.Provenance;
import dev.idiom.services.app.ReadPath;
import dev.idiom.services.citations.CitationFormat;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;

/**
 * The curator's library: a ranked search with facets ({@code /curator/library}), a record's page
 * with every field's provenance, its copies, its history (revert to a version), a citation in a
 * chosen style and locale and the record as BibTeX and RIS ({@code /curator/records/{id}}), the edit
 * and create forms (the version the form was made from travels with it: a stale edit shows what
 * changed meanwhile and keeps what was typed), delete to the trash and the trash with restore
 * ({@code /curator/trash}). Every read and write is the application layer's, as REST's and SOAP's.
 */
final class CuratorLibrary extends CuratorPages {
    /** Results per page of the library. */
    static final int PAGE_SIZE = 25;
    /** The styles the record page offers (any CSL style name works in the address). */
    static final List<String> STYLES = List.of("apa", "chicago-author-date", "modern-language-association", "ieee", "harvard-cite-them-right",
            "vancouver", "nature");
    static final List<String> LOCALES = List.of("en-US", "en-GB", "de-DE", "fr-FR", "es-ES", "it-IT", "nl-NL", "pt-BR", "ja-JP", "zh-CN");
    /** The fields the forms show first; the others are under "More fields". */
    static final List<Field> MAIN = List.of(Field.TITLE, Field.AUTHORS, Field.EDITORS, Field.YEAR, Field.MONTH, Field.DAY, Field.VENUE, Field.VOLUME,
            Field.ISSUE, Field.PAGES, Field.PUBLISHER, Field.DOI, Field.URL, Field.ABSTRACT, Field.TAGS, Field.NOTES);

    CuratorLibrary(Application app, AdminSessions sessions, CuratorWorkspace workspace, CuratorInbox inbox) {
        super(app, sessions, workspace, inbox);
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
                AdminConsole.page(res, 200, edit(chrome.in("new"), null, 0, Metadata.EMPTY, false, null, List.of()));
            } else if (p.length == 4 && p[2].equals("records")) {
                AdminConsole.page(res, 200, record(req, chrome.in("record"), caller, id(p[3])));
            } else if (p.length == 5 && p[2].equals("records") && p[4].equals("edit")) {
                DigitalEntity de = app.reads().describe(id(p[3]), ReadPath.DB, caller).entity();
                AdminConsole.page(res, 200, edit(chrome.in("record"), de.id(), de.version(), de.metadata(), de.markedPrivate(), null, List.of()));
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
                create(req, res, caller, source);
                return;
            }
            if (p.length != 5 || !p[2].equals("records")) {
                res.sendError(404);
                return;
            }
            UUID id = id(p[3]);
            switch (p[4]) {
                case "edit" -> save(req, res, caller, id, source);
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

    private static int version(HttpServletRequest req) {
        try {
            return Integer.parseInt(req.getParameter("version"));
        } catch (NumberFormatException e) {
            throw new InvalidValueException("the form has no version; reload the page");
        }
    }

    private static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    private static String title(DigitalEntity de) {
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

    record MergeView(DigitalEntity one, DigitalEntity other, List<MergeRow> differing, List<FieldRow> same) {}

    private MergeView merge(Caller caller, UUID oneId, UUID otherId) {
        DigitalEntity one = app.reads().describe(oneId, ReadPath.DB, caller).entity();
        DigitalEntity other = app.reads().describe(otherId, ReadPath.DB, caller).entity();
        List<MergeRow> differing = new ArrayList<>();
        List<FieldRow> same = new ArrayList<>();
        for (Field f : Field.values()) {
            Object a = one.metadata().get(f);
            Object b = other.metadata().get(f);
            if (empty(a) && empty(b)) {
                continue;
            }
            if (Objects.equals(a, b)) {
                same.add(new FieldRow(label(f), f.toText(a), "", "", "", 0));
            } else {
                differing.add(new MergeRow(f.jsonName(), label(f), empty(a) ? "" : f.toText(a), empty(b) ? "" : f.toText(b)));
            }
        }
        return new MergeView(one, other, differing, same);
    }

    // ---- a record ----

    /** A field as the record page shows it: its value and where it came from (the event's source, when, which version). */
    record FieldRow(String label, String value, String source, String when, String at, int version) {}

    /** A copy of the record in a tool: its state, and a link into the tool where the tool has pages. */
    record CopyRow(String account, String tool, String remoteId, String state, String link) {}

    /** One step of the record's history; a step whose content is withheld shows only its kind and time. */
    record Step(int version, String what, String source, String when, String at) {}

    record RecordView(DigitalEntity de, String done, List<FieldRow> fields, List<CopyRow> copies, List<Step> history, String style, String locale,
                      String citation, String bibtex, String ris) {}

    private String record(HttpServletRequest req, CuratorChrome chrome, Caller caller, UUID id) {
        DigitalEntity de = app.reads().describe(id, ReadPath.DB, caller).entity();
        Instant now = app.clock().instant();
        List<EntityReads.FeedEvent> events = app.reads().history(id, caller);
        var sources = Provenance.of(id, events.stream().filter(e -> !e.withheld()).map(EntityReads.FeedEvent::event).toList());
        List<FieldRow> fields = new ArrayList<>();
        for (Field f : Field.values()) {
            Object v = de.metadata().get(f);
            if (v == null || v instanceof java.util.Collection<?> c && c.isEmpty()) {
                continue;
            }
            Provenance.FieldSource s = sources.get(f);
            fields.add(new FieldRow(label(f), f.toText(v), s == null ? "" : s.source(), s == null ? "" : CuratorPage.ago(s.at(), now),
                    s == null ? "" : s.at().toString(), s == null ? 0 : s.version()));
        }
        List<CopyRow> copies = new ArrayList<>();
        CuratorInbox.Contents inboxNow = inbox.recent();
        Map<String, String> refused = new HashMap<>();
        inboxNow.parked().forEach(pw -> {
            if (pw.write().entityId().equals(id)) {
                refused.put(pw.account(), pw.write().reason());
            }
        });
        for (Replica r : de.replicas()) {
            // the account as the curator named it: the engine's report pairs each name with the tool's own account id
            var named = inboxNow.rows().stream().map(CuratorPage.Row::account)
                    .filter(a -> a.kind().equals(r.tool()) && Objects.equals(a.account(), r.account())).findFirst();
            String account = named.map(a -> a.name()).orElse(r.tool() + " " + (r.account() == null ? "" : r.account()));
            String state = refused.containsKey(account) ? "refused: " + refused.get(account) : r.privateCopy() ? "linked (private copy)" : "linked";
            copies.add(new CopyRow(account, r.tool(), r.remoteId(), state, link(r)));
        }
        refused.forEach((account, reason) -> { // a copy the tool refused to make: not a replica yet, but the curator's to fix
            if (copies.stream().noneMatch(c -> c.account().equals(account))) {
                String kind = inboxNow.rows().stream().map(CuratorPage.Row::account).filter(a -> a.name().equals(account)).map(a -> a.kind())
                        .findFirst().orElse("");
                copies.add(new CopyRow(account, kind, "–", "refused, not made: " + reason, null));
            }
        });
        List<Step> history = new ArrayList<>();
        for (EntityReads.FeedEvent e : events) {
            RecordedEvent ev = e.event();
            history.add(new Step(ev.version(), ev.event().getClass().getSimpleName(), e.withheld() ? "" : ev.source(), CuratorPage.ago(ev.recordedAt(), now),
                    ev.recordedAt().toString()));
        }
        String style = pick(req.getParameter("style"), STYLES, "apa");
        String locale = pick(req.getParameter("locale"), LOCALES, "en-US");
        String citation;
        try {
            citation = app.reads().cite(List.of(de), true, CitationFormat.BIBLIOGRAPHY, style, locale, caller).strip();
        } catch (RuntimeException e) {
            citation = "No citation: " + ErrorCode.of(e).message();
        }
        String bibtex = app.reads().cite(List.of(de), true, CitationFormat.BIBTEX, null, null, caller).strip();
        String ris = app.reads().cite(List.of(de), true, CitationFormat.RIS, null, null, caller).strip();
        return pages.render("record.jte", Map.of("chrome", chrome, "view", new RecordView(de, CuratorWorkspace.done(req), fields, copies,
                history.reversed(), style, locale, citation, bibtex, ris)));
    }

    private static String pick(String asked, List<String> known, String otherwise) {
        return asked != null && known.contains(asked) ? asked : otherwise;
    }

    /** Where a person sees the copy in its tool: a Zotero item's page; other tools' copies have no page of their own. */
    private static String link(Replica r) {
        if (r.tool().equals("zotero") && r.account() != null && r.account().matches("(users|groups)/\\d+")) {
            return "https://www.zotero.org/" + r.account() + "/items/" + r.remoteId();
        }
        return null;
    }

    /** A field's name as a person reads it: "Collection title", "DOI". */
    static String label(Field f) {
        return switch (f) {
            case DOI, URL, ISBN, ISSN, PMID, PMCID -> f.jsonName().toUpperCase(java.util.Locale.ROOT);
            case ARXIV -> "arXiv id";
            case ZOTERO_EXTRAS -> "Zotero's own fields";
            case BIBTEX_EXTRAS -> "BibTeX's own fields";
            case VENUE -> "Venue (journal, proceedings, book)";
            default -> {
                String words = f.jsonName().replaceAll("([A-Z])", " $1").toLowerCase(java.util.Locale.ROOT);
                yield Character.toUpperCase(words.charAt(0)) + words.substring(1);
            }
        };
    }

    // ---- the forms ----

    /** A field of the form: names and tags one per line. */
    record FormField(String name, String label, String value, boolean multiline, String hint) {}

    record EditView(UUID id, int version, String type, boolean markedPrivate, List<FormField> main, List<FormField> more, List<String> types,
                    String error, List<String> meanwhile) {}

    private String edit(CuratorChrome chrome, UUID id, int version, Metadata shown, boolean markedPrivate, String error, List<String> meanwhile) {
        return edit(chrome, id, version, formValues(shown), shown.type(), markedPrivate, error, meanwhile);
    }

    private static Map<Field, String> formValues(Metadata m) {
        Map<Field, String> values = new HashMap<>();
        for (Field f : Field.values()) {
            values.put(f, f.toLines(m.get(f)));
        }
        return values;
    }

    private String edit(CuratorChrome chrome, UUID id, int version, Map<Field, String> values, String type, boolean markedPrivate, String error,
            List<String> meanwhile) {
        List<FormField> main = new ArrayList<>();
        List<FormField> more = new ArrayList<>();
        for (Field f : Field.values()) {
            if (f == Field.TYPE) {
                continue;
            }
            boolean lines = f.names() || f == Field.TAGS;
            boolean area = lines || f.kind() == Field.Kind.LONG_TEXT || f.kind() == Field.Kind.EXTRAS;
            FormField ff = new FormField(f.jsonName(), label(f), values.getOrDefault(f, ""), area,
                    f.names() ? "one name per line: Family, Given" : f == Field.TAGS ? "one tag per line" : f.kind() == Field.Kind.DATE ? "YYYY-MM-DD"
                    : f.kind() == Field.Kind.EXTRAS ? "JSON: {\"name\": \"value\"}, as the tool names its fields" : "");
            (MAIN.contains(f) ? main : more).add(ff);
        }
        main.sort(java.util.Comparator.comparingInt(ff -> MAIN.indexOf(Field.named(ff.name()))));
        return pages.render("edit.jte", Map.of("chrome", chrome, "view", new EditView(id, version, type == null ? "article-journal" : type,
                markedPrivate, main, more, Field.TYPES.stream().sorted().toList(), error, meanwhile)));
    }

    /** The form's values as typed, by field. */
    private static Map<Field, String> typed(HttpServletRequest req) {
        Map<Field, String> typed = new HashMap<>();
        for (Field f : Field.values()) {
            String v = req.getParameter(f.jsonName());
            typed.put(f, v == null ? "" : v);
        }
        return typed;
    }

    private void create(HttpServletRequest req, HttpServletResponse res, Caller caller, String source) throws IOException {
        Map<Field, String> typed = typed(req);
        boolean priv = req.getParameter("private") != null;
        try {
            Metadata m = Metadata.EMPTY;
            for (Field f : Field.values()) {
                Object v = f.fromLines(typed.get(f));
                if (v != null) {
                    m = m.with(f, v);
                }
            }
            DigitalEntity de = app.writes().create(m, priv, source).entity();
            CuratorWorkspace.redirect(res, req.getContextPath() + "/curator/records/" + de.id() + "?done=" + enc("Created \u201c" + title(de) + "\u201d."));
        } catch (InvalidValueException e) {
            CuratorChrome chrome = workspace.chrome(req, caller, inbox.recent(), "new");
            AdminConsole.page(res, 422, edit(chrome, null, 0, typed, typed.get(Field.TYPE), priv, "Not saved: " + e.getMessage(), List.of()));
        }
    }

    private void save(HttpServletRequest req, HttpServletResponse res, Caller caller, UUID id, String source) throws IOException {
        int version = version(req);
        Map<Field, String> typed = typed(req);
        boolean priv = req.getParameter("private") != null;
        CuratorChrome chrome = workspace.chrome(req, caller, inbox.recent(), "record");
        DigitalEntity formBase = app.reads().asOf(id, version, null, caller);
        Map<Field, Object> changed = new LinkedHashMap<>();
        try {
            for (Field f : Field.values()) {
                Object v = f.fromLines(typed.get(f));
                Object was = formBase.metadata().get(f);
                if (!Objects.equals(v, was) && !(empty(v) && empty(was))) {
                    changed.put(f, v);
                }
            }
        } catch (InvalidValueException e) {
            AdminConsole.page(res, 422, edit(chrome, id, version, typed, typed.get(Field.TYPE), priv, "Not saved: " + e.getMessage(), List.of()));
            return;
        }
        Boolean privacy = priv == formBase.markedPrivate() ? null : priv;
        if (changed.isEmpty() && privacy == null) {
            CuratorWorkspace.redirect(res, req.getContextPath() + "/curator/records/" + id + "?done=" + enc("Nothing changed."));
            return;
        }
        try {
            app.writes().patch(id, changed, privacy, version, source);
            inbox.changed(); // a change retries the record's refused writes at once
        } catch (RuntimeException e) {
            if (ErrorCode.of(e).code() != ErrorCode.STALE_VERSION) {
                throw e;
            }
            DigitalEntity now = app.reads().describe(id, ReadPath.DB, caller).entity();
            List<String> meanwhile = new ArrayList<>();
            for (Field f : Field.values()) {
                if (!Objects.equals(formBase.metadata().get(f), now.metadata().get(f))) {
                    meanwhile.add(label(f) + ": now \u201c" + CuratorPage.text(now.metadata().get(f)) + "\u201d (was \u201c"
                            + CuratorPage.text(formBase.metadata().get(f)) + "\u201d)");
                }
            }
            AdminConsole.page(res, 409, edit(chrome, id, now.version(), typed, typed.get(Field.TYPE), priv, "Not saved: the record changed since you "
                    + "opened the form (version " + version + " → " + now.version() + "). What you typed is kept below; save again to put it over "
                    + "the changes listed.", meanwhile));
            return;
        }
        CuratorWorkspace.redirect(res, req.getContextPath() + "/curator/records/" + id + "?done=" + enc("Saved " + changed.size() + " field"
                + (changed.size() == 1 ? "" : "s") + "; the copies get the change at the next push."));
    }

    private static boolean empty(Object v) {
        return v == null || v instanceof java.util.Collection<?> c && c.isEmpty();
    }
}
