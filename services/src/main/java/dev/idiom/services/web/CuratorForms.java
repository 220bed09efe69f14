package dev.idiom.services.web;

import dev.idiom.events.Changes;
import dev.idiom.events.DigitalEntity;
import dev.idiom.events.Field;
import dev.idiom.events.InvalidValueException;
import dev.idiom.events.Metadata;
import dev.idiom.services.app.Application;
import dev.idiom.services.app.Caller;
import dev.idiom.services.app.ErrorCode;
import dev.idiom.services.app.ReadPath;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The workspace's edit and create forms: every field of a record, the main ones first. The version
 * the form was made from travels with it, so a save patches only what the curator changed from it
 * ({@link Changes#between}: the events' own rule of what differs), and a stale save keeps what was
 * typed and says what changed meanwhile. The record's rules (a new record needs a title) are the
 * application layer's, said back in the form.
 */
final class CuratorForms {
    /** The fields the forms show first; the others are under "More fields". */
    static final List<Field> MAIN = List.of(Field.TITLE, Field.AUTHORS, Field.EDITORS, Field.YEAR, Field.MONTH, Field.DAY, Field.VENUE, Field.VOLUME,
            Field.ISSUE, Field.PAGES, Field.PUBLISHER, Field.DOI, Field.URL, Field.ABSTRACT, Field.TAGS, Field.NOTES);

    private final Application app;
    private final CuratorWorkspace workspace;
    private final CuratorInbox inbox;
    private final PageTemplates pages;

    CuratorForms(Application app, CuratorWorkspace workspace, CuratorInbox inbox) {
        this.app = app;
        this.workspace = workspace;
        this.inbox = inbox;
        this.pages = inbox.pages();
    }

    /** A field of the form: names and tags one per line. */
    record FormField(String name, String label, String value, boolean multiline, String hint) {}

    record EditView(UUID id, int version, String type, boolean markedPrivate, List<FormField> main, List<FormField> more, List<String> types,
                    String error, List<String> meanwhile) {}

    String edit(CuratorChrome chrome, UUID id, int version, Metadata shown, boolean markedPrivate, String error, List<String> meanwhile) {
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
            FormField ff = new FormField(f.jsonName(), CuratorRecords.label(f), values.getOrDefault(f, ""), area,
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

    /** The record a form's typed values describe; a value that is not one (a bad date, malformed JSON) is refused with why. */
    private static Metadata parsed(Map<Field, String> typed) {
        Metadata m = Metadata.EMPTY;
        for (Field f : Field.values()) {
            Object v = f.fromLines(typed.get(f));
            if (v != null) {
                m = m.with(f, v);
            }
        }
        return m;
    }

    void create(HttpServletRequest req, HttpServletResponse res, Caller caller, String source) throws IOException {
        Map<Field, String> typed = typed(req);
        boolean priv = req.getParameter("private") != null;
        try {
            DigitalEntity de = app.writes().create(parsed(typed), priv, source).entity();
            CuratorWorkspace.redirect(res, req.getContextPath() + "/curator/records/" + de.id() + "?done="
                    + CuratorLibrary.enc("Created \u201c" + CuratorLibrary.title(de) + "\u201d."));
        } catch (InvalidValueException e) {
            CuratorChrome chrome = workspace.chrome(req, caller, inbox.recent(), "new");
            AdminConsole.page(res, 422, edit(chrome, null, 0, typed, typed.get(Field.TYPE), priv, "Not saved: " + e.getMessage(), List.of()));
        }
    }

    /** Saves what the form changed from the version it was made from; a stale one keeps what was typed and says what changed meanwhile. */
    void save(HttpServletRequest req, HttpServletResponse res, Caller caller, UUID id, int version, String source) throws IOException {
        Map<Field, String> typed = typed(req);
        boolean priv = req.getParameter("private") != null;
        CuratorChrome chrome = workspace.chrome(req, caller, inbox.recent(), "record");
        DigitalEntity formBase = app.reads().asOf(id, version, null, caller);
        Map<Field, Object> changed;
        try {
            changed = Changes.between(formBase.metadata(), parsed(typed));
        } catch (InvalidValueException e) {
            AdminConsole.page(res, 422, edit(chrome, id, version, typed, typed.get(Field.TYPE), priv, "Not saved: " + e.getMessage(), List.of()));
            return;
        }
        Boolean privacy = priv == formBase.markedPrivate() ? null : priv;
        if (changed.isEmpty() && privacy == null) {
            CuratorWorkspace.redirect(res, req.getContextPath() + "/curator/records/" + id + "?done=" + CuratorLibrary.enc("Nothing changed."));
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
            Changes.between(formBase.metadata(), now.metadata()).keySet().forEach(f -> meanwhile.add(CuratorRecords.label(f) + ": now \u201c"
                    + CuratorPage.text(now.metadata().get(f)) + "\u201d (was \u201c" + CuratorPage.text(formBase.metadata().get(f)) + "\u201d)"));
            AdminConsole.page(res, 409, edit(chrome, id, now.version(), typed, typed.get(Field.TYPE), priv, "Not saved: the record changed since you "
                    + "opened the form (version " + version + " → " + now.version() + "). What you typed is kept below; save again to put it over "
                    + "the changes listed.", meanwhile));
            return;
        }
        CuratorWorkspace.redirect(res, req.getContextPath() + "/curator/records/" + id + "?done=" + CuratorLibrary.enc("Saved " + changed.size() + " field"
                + (changed.size() == 1 ? "" : "s") + "; the copies get the change at the next push."));
    }
}
