package dev.idiom.services;

import dev.idiom.db.TimeSource;
import dev.idiom.services.app.ApiKeys;
import dev.idiom.events.InvalidValueException;
import dev.idiom.consistency.report.ImportOutcome;
import dev.idiom.consistency.report.ImportSummary;
import dev.idiom.services.app.ReplicaSync;
import dev.idiom.events.Outbox;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Map;

/**
 * {@code ./idiom sync --account NAME}: a curator's sync of one tool account, with progress and a
 * summary (pulled, pushed, merged, conflicts, unlinked, parked, held). In-process on the data
 * directory, or, with {@code --server URL}, by the running service's REST endpoint.
 */
final class SyncCommand {
    private final PrintStream out;
    private final PrintStream err;
    private long lastDraw;

    SyncCommand(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
    }

    int run(IdiomConfig config, Map<String, String> flags) throws Exception {
        String account = flags.get("account");
        if (account == null || account.isBlank()) {
            throw new InvalidValueException("say which tool account to sync: --account NAME (configured with PUT /api/tools/NAME)");
        }
        boolean allowDeletions = Boolean.parseBoolean(flags.getOrDefault("allow-deletions", "false"));
        boolean check = Boolean.parseBoolean(flags.getOrDefault("check", "false"));
        boolean dryRun = Boolean.parseBoolean(flags.getOrDefault("dry-run", "false"));
        if (flags.containsKey("server")) {
            json = flags.containsKey("json") && !"false".equals(flags.get("json"));
            return remote(flags.get("server"), account, allowDeletions, check, dryRun, clientKey(config.data()));
        }
        try (Idiom idiom = Idiom.start(config)) {
            ReplicaSync sync = idiom.application().sync();
            if (dryRun) {
                print(sync.plan(account));
                return 0;
            }
            out.println("idiom: syncing tool account " + account + "…");
            dev.idiom.consistency.report.SyncReport r = sync.sync(account, allowDeletions, this::draw);
            err.print("\r" + " ".repeat(100) + "\r");
            ImportSummary p = r.pulled();
            summary(account, p.records(), p.count(ImportOutcome.Kind.CREATED), p.count(ImportOutcome.Kind.MERGED), p.count(ImportOutcome.Kind.UPDATED),
                    p.count(ImportOutcome.Kind.UNCHANGED), p.count(ImportOutcome.Kind.SKIPPED), r.pushedCount(), r.mergedCount(), p.conflicts(), r.unlinked(),
                    r.parkedCount(), r.queued(), r.held());
            r.withheldTags().forEach((id, tags) -> out.println("  tags left out of " + id + " (private elsewhere, or acting in "
                    + account + "): " + String.join(", ", tags)));
            for (Outbox.Entry e : r.owed()) {
                out.println("  still owed: " + e.remoteId() + (e.parked() ? " (parked: " : " (retrying: ") + e.lastError() + ")");
            }
            if (check) {
                dev.idiom.consistency.report.CheckReport c = sync.check(account);
                out.printf("idiom: check of %s: %d listed, %d replicas, %d divergent, %d repaired, %d re-enqueued, %d missing, %d read anew, "
                        + "%d held by more than one DE%n", account, c.listed(), c.replicas(), c.divergent(), c.repaired(), c.reEnqueued(), c.missing(),
                        c.reread(), c.shared());
            }
            return r.held() == null ? 0 : 3;
        }
    }

    /** One sync's account of itself, the same from the data dir and from a running server. */
    private void summary(String account, long records, long created, long merged, long updated, long unchanged, long skipped, long pushed,
            long mergedRemote, long conflicts, long unlinked, long parked, String queued, String held) {
        out.printf("idiom: sync of %s finished: pulled %d (%d new, %d merged, %d updated, %d unchanged, %d skipped), pushed %d, merged %d, "
                + "conflicts %d, unlinked %d, parked %d%n", account, records, created, merged, updated, unchanged, skipped, pushed, mergedRemote, conflicts,
                unlinked, parked);
        if (queued != null) {
            out.println("idiom: the pull did not run now: " + queued);
        }
        if (held != null) {
            out.println("idiom: HELD, not applied: " + held);
            out.println("       check the tool; then run again with --allow-deletions true to apply them");
        }
    }

    /** --json: a running server's answer as it sent it, for scripts. */
    private boolean json;

    /** A running server's sync answer as {@link #summary} says it, or as it came with {@code --json}. */
    private void printSync(String body) {
        com.fasterxml.jackson.databind.JsonNode r;
        try {
            r = new com.fasterxml.jackson.databind.ObjectMapper().readTree(body);
        } catch (java.io.IOException notJson) {
            out.println(body);
            return;
        }
        if (json || !r.has("pulled")) {
            out.println(body);
            return;
        }
        com.fasterxml.jackson.databind.JsonNode p = r.path("pulled");
        com.fasterxml.jackson.databind.JsonNode pushed = r.path("pushed");
        summary(r.path("account").asText(), p.path("records").asInt(), p.path("created").asInt(), p.path("merged").asInt(), p.path("updated").asInt(),
                p.path("unchanged").asInt(), p.path("skipped").asInt(), pushed.path("pushed").asInt(), pushed.path("merged_remote_changes").asInt(),
                p.path("conflicts").asInt(), r.path("unlinked").asInt(), pushed.path("parked").asInt(), r.path("queued").isTextual() ? r.path("queued").asText()
                        : null, r.path("held").isTextual() ? r.path("held").asText() : null);
    }

    /**
     * The key the command line presents to a running Idiom: {@code IDIOM_KEY}, else
     * {@code IDIOM_ADMIN_TOKEN}, else the first admin key in {@code <data>/admin.key}.
     */
    static String clientKey(java.nio.file.Path data) throws java.io.IOException {
        for (String env : new String[] {"IDIOM_KEY", ApiKeys.ENV_TOKEN}) {
            String v = System.getenv(env);
            if (v != null && !v.isBlank()) {
                return v.strip();
            }
        }
        java.nio.file.Path file = data.resolve(ApiKeys.ADMIN_KEY_FILE);
        return java.nio.file.Files.isReadable(file) ? java.nio.file.Files.readString(file).strip() : null;
    }

    /** Through a running service: POST /api/tools/NAME/sync (and /check), with a curator's or admin's key. */
    private int remote(String server, String account, boolean allowDeletions, boolean check, boolean dryRun, String token) throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        String base = server.replaceAll("/+$", "") + "/api/tools/" + account;
        out.println("idiom: asking " + server + " to " + (dryRun ? "plan a sync of" : "sync") + " tool account " + account + "…");
        int status = post(http, base + "/sync?allowDeletions=" + allowDeletions + (dryRun ? "&dryRun=true" : ""), token, !dryRun);
        if (status == 0 && check) {
            status = post(http, base + "/check", token, false);
        }
        return status;
    }

    /** @param sync the answer is a sync's: said as the in-process sync says it (unless --json) */
    private int post(HttpClient http, String url, String token, boolean sync) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url)).POST(HttpRequest.BodyPublishers.noBody());
        if (token != null) {
            b.header("Authorization", "Bearer " + token);
        }
        HttpResponse<String> r = http.send(b.build(), HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() / 100 != 2) {
            err.println(r.body());
            return 1;
        }
        if (sync) {
            printSync(r.body());
        } else {
            out.println(r.body());
        }
        return 0;
    }

    /** A dry run's plan: what the pull would bring in, then what each account would be written, with samples. */
    private void print(dev.idiom.consistency.report.SyncPlan p) {
        dev.idiom.consistency.report.SyncPlan.Pulled pulled = p.pulled();
        out.printf("idiom: a sync of %s would pull %d new, %d merged, %d updated, %d unchanged, %d unreadable; unlink %d%n", p.account(),
                pulled.created.count(), pulled.merged.count(), pulled.updated.count(), pulled.unchanged, pulled.skipped, pulled.unlinked.count());
        samples("new", pulled.created);
        samples("merged", pulled.merged);
        samples("updated", pulled.updated);
        if (pulled.held != null) {
            out.println("idiom: HELD: " + pulled.held);
        }
        for (dev.idiom.consistency.report.SyncPlan.Writes w : p.writes()) {
            out.printf("idiom: and write to %s: %d copies, %d updates, %d removals%n", w.name(), w.copies.count(), w.updates.count(), w.removals.count());
            samples("copy", w.copies);
            samples("remove", w.removals);
            if (w.refused.count() > 0) {
                out.printf("idiom: %d of them %s would refuse as they stand (they would be parked):%n", w.refused.count(), w.name());
                samples("refused", w.refused);
            }
            if (w.held != null) {
                out.println("  HELD: " + w.held);
            }
        }
        out.println("idiom: nothing was changed (a dry run)");
    }

    private void samples(String what, dev.idiom.consistency.report.SyncPlan.Named named) {
        if (named.count() > 0) {
            out.println("  " + what + ": " + String.join("; ", named.samples()) + (named.count() > named.samples().size() ? "; …" : ""));
        }
    }

    private void draw(ImportSummary s, int done, int size, boolean lastPage) {
        long now = TimeSource.nanoTime();
        if (done < size && now - lastDraw < 100_000_000L) {
            return;
        }
        lastDraw = now;
        err.printf("\rpulling: %d/%d%s  new %d  merged %d  updated %d", done, size, lastPage ? "" : " (page)", s.count(ImportOutcome.Kind.CREATED),
                s.count(ImportOutcome.Kind.MERGED), s.count(ImportOutcome.Kind.UPDATED));
        err.flush();
    }
}
