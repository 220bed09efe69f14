package dev.idiom.services.web;

import dev.idiom.events.DigitalEntity;
import dev.idiom.events.Field;
import dev.idiom.events.RecordedEvent;
import dev.idiom.events.Replica;
import dev.idiom.services.app.Application;
import dev.idiom.services.app.Caller;
import dev.idiom.services.app.EntityReads;
import dev.idiom.services.app.ErrorCode;
import dev.idiom.services.app.Provenance;
import dev.idiom.services.app.ReadPath;
import dev.idiom.services.citations.CitationFormat;
import jakarta.servlet.http.HttpServletRequest;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;

/**
 * A record's page in the curator's workspace: every field with where it came from, its copies (with
 * what a tool refused), its history (revert to a version), a citation in a chosen style and locale,
 * and the record as BibTeX and RIS. Reads are the application layer's.
 */
final class CuratorRecords {
    /** The styles the record page offers (any CSL style name works in the address). */
    static final List<String> STYLES = List.of("apa", "chicago-author-date", "modern-language-association", "ieee", "harvard-cite-them-right",
            "vancouver", "nature");
    static final List<String> LOCALES = List.of("en-US", "en-GB", "de-DE", "fr-FR", "es-ES", "it-IT", "nl-NL", "pt-BR", "ja-JP", "zh-CN");

    private final Application app;
    private final CuratorInbox inbox;
    private final PageTemplates pages;

    CuratorRecords(Application app, CuratorInbox inbox) {
        this.app = app;
        this.inbox = inbox;
        this.pages = inbox.pages();
    }

    /** A field as the record page shows it: its value and where it came from (the event's source, when, which version). */
    record FieldRow(String label, String value, String source, String when, String at, int version) {}

    /** A copy of the record in a tool: its state, and a link into the tool where the tool has pages. */
    record CopyRow(String account, String tool, String remoteId, String state, String link) {}

    /** One step of the record's history; a step whose content is withheld shows only its kind and time. */
    record Step(int version, String what, String source, String when, String at) {}

    record RecordView(DigitalEntity de, String done, List<FieldRow> fields, List<CopyRow> copies, List<Step> history, String style, String locale,
                      String citation, String bibtex, String ris) {}

    String page(HttpServletRequest req, CuratorChrome chrome, Caller caller, UUID id) {
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
}
