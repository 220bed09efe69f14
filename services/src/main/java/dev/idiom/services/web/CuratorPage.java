package dev.idiom.services.web;

import static dev.idiom.services.web.ConsolePage.esc;

import dev.idiom.consistency.report.AccountConsistency;
import dev.idiom.consistency.report.ConflictEntry;
import dev.idiom.consistency.report.ParkedWrite;
import dev.idiom.events.Author;
import dev.idiom.events.ConflictResolved;
import dev.idiom.events.DigitalEntity;
import dev.idiom.services.app.EntityLifecycle;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The curator's workspace as HTML: markup only, with the console's stylesheet and no script, so it
 * runs under the same Content-Security-Policy. Every action is a form that posts the session's CSRF
 * token and answers with the page again.
 */
final class CuratorPage {
    private CuratorPage() {}

    /** One account's row: its figures and when it last pulled and pushed, as a person reads it. */
    record Row(AccountConsistency account, String lastPull, String lastPush) {}

    /** A write a tool refused, and which account's. */
    record Parked(String account, ParkedWrite write) {}

    static String login(String base, String error) {
        return ConsolePage.login(base, error, "Idiom — curator's workspace", "/curator/login", "Curator key",
                "A curator's or an admin's key (<code>./idiom keys create --role curator</code>).");
    }

    static String workspace(String base, String csrf, String who, String done, List<Row> rows, List<Parked> parked, List<ConflictEntry> conflicts,
            List<EntityLifecycle.DuplicatePair> duplicates) {
        long held = rows.stream().filter(r -> r.account().held() != null).count();
        long waiting = parked.size() + conflicts.size() + duplicates.size() + held;
        StringBuilder b = new StringBuilder();
        b.append("<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>")
                .append(waiting == 0 ? "Idiom — all in step" : "Idiom — " + waiting + " need you").append("</title>")
                .append("<link rel=\"stylesheet\" href=\"").append(esc(base)).append("/admin/assets/console.css\"></head><body>")
                .append("<header><h1>Curator's workspace</h1><span class=\"status\">").append(esc(who)).append("</span><nav>")
                .append("<a href=\"#accounts\">Accounts (").append(rows.size()).append(")</a> · <a href=\"#parked\">Refused writes (").append(parked.size())
                .append(")</a> · <a href=\"#conflicts\">Conflicts (").append(conflicts.size()).append(")</a> · <a href=\"#duplicates\">Likely duplicates (")
                .append(duplicates.size()).append(")</a> · <a href=\"#held\">Held deletions (").append(held).append(")</a></nav>")
                .append(form(base, csrf, "/curator/logout", "Log out", List.of())).append("</header>");
        if (done != null && !done.isBlank()) {
            b.append("<p class=\"").append(done.startsWith("Not done") ? "error" : "hint").append("\" role=\"status\">").append(esc(done)).append("</p>");
        }

        b.append("<section id=\"accounts\"><h2>Accounts</h2><table><thead><tr><th>account</th><th>tool</th><th>state</th><th>copies</th>")
                .append("<th>last pull</th><th>last push</th><th>lag p99 ms</th><th></th></tr></thead><tbody>");
        for (Row r : rows) {
            AccountConsistency a = r.account();
            String name = a.name();
            b.append("<tr><td>").append(esc(name)).append("</td><td>").append(esc(a.kind())).append(' ').append(esc(a.account() == null ? "" : a.account()))
                    .append("</td><td>").append(esc(state(a))).append("</td><td>").append(a.replicas()).append("</td><td>").append(esc(r.lastPull()))
                    .append("</td><td>").append(esc(r.lastPush())).append("</td><td>").append(a.lag() == null || a.lag().samples() == 0 ? "–" : a.lag().p99())
                    .append("</td><td>").append(form(base, csrf, account(name, "sync"), "Sync now", List.of()))
                    .append(a.paused() && a.held() == null ? form(base, csrf, account(name, "resume"), "Resume", List.of())
                            : a.paused() ? "" : form(base, csrf, account(name, "pause"), "Pause", List.of()))
                    .append(a.parked() > 0 ? form(base, csrf, account(name, "retry"), "Retry refused writes", List.of()) : "")
                    .append("</td></tr>");
        }
        b.append("</tbody></table></section>");

        b.append("<section id=\"parked\"><h2>Writes a tool refused</h2>");
        if (parked.isEmpty()) {
            b.append("<p class=\"hint\">None: every tool took what Idiom wrote.</p>");
        } else {
            b.append("<p class=\"hint\">").append(esc(ParkedWrite.ADVICE)).append(".</p><table><thead><tr><th>account</th><th>record</th>")
                    .append("<th>the tool said</th><th>tries</th></tr></thead><tbody>");
            for (Parked p : parked) {
                b.append("<tr><td>").append(esc(p.account())).append("</td><td>").append(esc(p.write().title() == null ? p.write().entityId().toString()
                        : p.write().title())).append("</td><td>").append(esc(p.write().reason() == null ? "" : p.write().reason())).append("</td><td>")
                        .append(p.write().attempts()).append("</td></tr>");
            }
            b.append("</tbody></table>");
        }
        b.append("</section>");

        b.append("<section id=\"conflicts\"><h2>Conflicts</h2>");
        if (conflicts.isEmpty()) {
            b.append("<p class=\"hint\">None open: no field waits for you.</p>");
        } else {
            b.append("<table><thead><tr><th>record</th><th>field</th><th>before</th><th>Idiom's value</th><th>the tool's value</th><th>tool</th>")
                    .append("<th></th></tr></thead><tbody>");
            for (ConflictEntry e : conflicts) {
                ConflictResolved c = e.conflict();
                String path = "/curator/actions/conflicts/" + e.id();
                b.append("<tr><td>").append(esc(e.title() == null ? "" : e.title())).append("</td><td>").append(esc(c.field().jsonName())).append("</td><td>")
                        .append(esc(text(c.base()))).append("</td><td>").append(esc(text(c.idiomValue()))).append("</td><td>").append(esc(text(c.remoteValue())))
                        .append("</td><td>").append(esc(c.tool())).append("</td><td>").append(form(base, csrf, path + "/tool", "Take the tool's", List.of()))
                        .append(form(base, csrf, path + "/idiom", "Keep Idiom's", List.of()))
                        .append("<form method=\"post\" action=\"").append(esc(base)).append(path).append("/value\">").append(hidden("csrf", csrf))
                        .append("<input name=\"value\" aria-label=\"another value\" placeholder=\"or type a value\"><button type=\"submit\">Take it</button></form>")
                        .append("</td></tr>");
            }
            b.append("</tbody></table>");
        }
        b.append("</section>");

        b.append("<section id=\"duplicates\"><h2>Likely duplicates</h2>");
        if (duplicates.isEmpty()) {
            b.append("<p class=\"hint\">None suggested.</p>");
        } else {
            b.append("<p class=\"hint\">Idiom never joins two records of one library on its own: merge them, or say they are different works.</p>")
                    .append("<table><thead><tr><th>one</th><th>the other</th><th>why</th><th></th></tr></thead><tbody>");
            for (EntityLifecycle.DuplicatePair p : duplicates) {
                String path = "/curator/actions/duplicates/" + p.first().id();
                b.append("<tr><td>").append(esc(summary(p.first()))).append("</td><td>").append(esc(summary(p.second()))).append("</td><td>")
                        .append(esc(p.evidence())).append(": ").append(esc(p.key())).append("</td><td>")
                        .append(form(base, csrf, path + "/merge", "Merge the other into this one",
                                List.of(new String[] {"other", p.second().id().toString()}, new String[] {"version", Integer.toString(p.first().version())})))
                        .append(form(base, csrf, path + "/dismiss", "Not duplicates", List.<String[]>of(new String[] {"other", p.second().id().toString()})))
                        .append("</td></tr>");
            }
            b.append("</tbody></table>");
        }
        b.append("</section>");

        b.append("<section id=\"held\"><h2>Held deletions</h2>");
        if (held == 0) {
            b.append("<p class=\"hint\">None: no account would lose more than its share of records at once.</p>");
        } else {
            b.append("<table><thead><tr><th>account</th><th>what was held</th><th></th></tr></thead><tbody>");
            for (Row r : rows) {
                if (r.account().held() != null) {
                    String name = r.account().name();
                    b.append("<tr><td>").append(esc(name)).append("</td><td>").append(esc(r.account().held())).append("</td><td>")
                            .append(form(base, csrf, account(name, "allow-held"), "Allow: delete them", List.of()))
                            .append(form(base, csrf, account(name, "deny-held"), "Deny: put them back", List.of())).append("</td></tr>");
                }
            }
            b.append("</tbody></table>");
        }
        b.append("</section></body></html>");
        return b.toString();
    }

    /** An account's state in a word or two. */
    static String state(AccountConsistency a) {
        if (a.held() != null) {
            return "held";
        }
        if (a.paused()) {
            return "paused";
        }
        if (a.parked() > 0) {
            return a.parked() + " refused";
        }
        if (a.pending() > 0) {
            return "owed " + a.pending();
        }
        return a.divergent() > 0 ? a.divergent() + " divergent" : "in step";
    }

    private static String account(String name, String action) {
        return "/curator/actions/accounts/" + URLEncoder.encode(name, StandardCharsets.UTF_8) + "/" + action;
    }

    private static String form(String base, String csrf, String path, String label, List<String[]> fields) {
        StringBuilder f = new StringBuilder("<form method=\"post\" action=\"").append(esc(base)).append(esc(path)).append("\">").append(hidden("csrf", csrf));
        fields.forEach(kv -> f.append(hidden(kv[0], kv[1])));
        return f.append("<button type=\"submit\">").append(esc(label)).append("</button></form>").toString();
    }

    private static String hidden(String name, String value) {
        return "<input type=\"hidden\" name=\"" + esc(name) + "\" value=\"" + esc(value) + "\">";
    }

    /** A DE as a line: title, first author, year. */
    private static String summary(DigitalEntity de) {
        var m = de.metadata();
        return (m.title() == null ? "(no title)" : m.title()) + (m.authors().isEmpty() ? "" : " — " + m.authors().getFirst().family())
                + (m.year() == null ? "" : " (" + m.year() + ")");
    }

    /** A field's value as text: names as "Family, Given", lists joined. */
    static String text(Object v) {
        if (v == null || v instanceof java.util.Collection<?> c && c.isEmpty()) {
            return "–";
        }
        if (v instanceof java.util.Collection<?> c) {
            return c.stream().map(o -> o instanceof Author a ? a.family() + (a.given().isEmpty() ? "" : ", " + a.given()) : String.valueOf(o))
                    .collect(Collectors.joining("; "));
        }
        return String.valueOf(v);
    }
}
