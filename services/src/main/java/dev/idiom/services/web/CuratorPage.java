package dev.idiom.services.web;

import dev.idiom.consistency.report.AccountConsistency;
import dev.idiom.consistency.report.ParkedWrite;
import dev.idiom.events.Author;
import dev.idiom.events.DigitalEntity;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.stream.Collectors;

/**
 * What the curator's templates ({@code src/main/jte}) show, in the words a person reads: an
 * account's state, a value as text, a record as a line, a time as "3 min ago".
 */
final class CuratorPage {
    private CuratorPage() {}

    /** One account's row: its figures, when it last pulled and pushed, and why its last scheduled run failed (null: it did not). */
    record Row(AccountConsistency account, String lastPull, String lastPush, Instant lastPullAt, Instant lastPushAt, String lastError) {}

    /** A write a tool refused, and which account's. */
    record Parked(String account, ParkedWrite write) {}

    static String login(String base, String error) {
        return ConsolePage.login(base, error, "Idiom — curator's workspace", "/curator/login", "Curator key",
                "A curator's or an admin's key (<code>./idiom keys create --role curator</code>).");
    }

    /** The page a key without the curator's role gets: why, and where to log in with another. */
    static String forbidden(String base, String why) {
        return "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>Not for this key — Idiom</title><link rel=\"stylesheet\" href=\""
                + ConsolePage.esc(base) + "/admin/assets/console.css\"></head><body class=\"login\"><main><h1>Not for this key</h1><p class=\"error\">"
                + ConsolePage.esc(why.substring(0, 1).toUpperCase() + why.substring(1)) + ".</p><p><a href=\"" + ConsolePage.esc(base)
                + "/curator/login\">Log in with another key</a></p></main></body></html>";
    }

    /** A row's state: the account's, or "failing" where it would read "in step" but its last scheduled pull or check failed. */
    static String state(Row r) {
        String s = state(r.account());
        return s.equals("in step") && r.lastError() != null ? "failing" : s;
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

    /** The id of the element that shows an account's state, which the live feed updates (any name makes a valid id). */
    static String stateId(String account) {
        return "state-" + HexFormat.of().formatHex(account.getBytes(StandardCharsets.UTF_8));
    }

    static String accountPath(String name) {
        return "/curator/actions/accounts/" + URLEncoder.encode(name, StandardCharsets.UTF_8);
    }

    /** A DE as a line: title, first author, year. */
    static String summary(DigitalEntity de) {
        var m = de.metadata();
        return (m.title() == null ? "[untitled]" : m.title()) + (m.authors().isEmpty() ? "" : " — " + m.authors().getFirst().family())
                + (m.year() == null ? "" : " (" + m.year() + ")");
    }

    /** The authors as a line: "Family, Given; Family, Given", at most three then "et al.". */
    static String authors(DigitalEntity de) {
        var names = de.metadata().authors();
        String shown = names.stream().limit(3).map(Author::toString).collect(Collectors.joining("; "));
        return names.size() > 3 ? shown + " et al." : shown;
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

    /** How long something will take, as a person reads it: "under a minute", "about 12 min", "about 3 h". */
    static String about(Duration d) {
        if (d == null || d.toSeconds() < 60) {
            return "under a minute";
        }
        return d.toMinutes() < 120 ? "about " + d.toMinutes() + " min" : "about " + d.toHours() + " h";
    }

    /** "3 min ago", as a person reads it. */
    static String ago(Instant at, Instant now) {
        if (at == null) {
            return "never";
        }
        Duration d = Duration.between(at, now);
        if (d.isNegative() || d.toSeconds() < 60) {
            return "just now";
        }
        if (d.toMinutes() < 60) {
            return d.toMinutes() + " min ago";
        }
        if (d.toHours() < 48) {
            return d.toHours() + " h ago";
        }
        return d.toDays() + " days ago";
    }
}
