package dev.idiom.services;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.idiom.consistency.report.MirrorProgress;
import dev.idiom.events.InvalidValueException;
import dev.idiom.services.tools.ToolAccount;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;

/**
 * {@code ./idiom mirror --account NAME [--rule R] [--direction D] [--deletions P]}: sets a tool
 * account's replication settings (each flag left out keeps its setting) and says where its mirror
 * stands: how far the rule is planned, the writes owed and when they should be done at the tool's
 * pace. In-process on the data directory, or with {@code --server URL} through the running service.
 */
final class MirrorCommand {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final PrintStream out;
    private final PrintStream err;

    MirrorCommand(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
    }

    int run(IdiomConfig config, Map<String, String> flags) throws Exception {
        String account = flags.get("account");
        if (account == null || account.isBlank()) {
            throw new InvalidValueException("say which tool account: --account NAME (configured with PUT /api/tools/NAME)");
        }
        JsonNode rule = flags.containsKey("rule") ? dev.idiom.services.tools.ToolAccounts.rule(flags.get("rule")) : null;
        String direction = flags.get("direction");
        String deletions = flags.get("deletions");
        boolean changes = rule != null || direction != null || deletions != null;
        if (flags.containsKey("server")) {
            return remote(flags.get("server").replaceAll("/+$", ""), account, rule, direction, deletions, changes, SyncCommand.clientKey(config.data()));
        }
        try (Idiom idiom = Idiom.start(config)) {
            if (changes) {
                ToolAccount a = idiom.application().tools().accounts().replicate(account, rule, direction, deletions);
                out.println("idiom: " + a.name() + " now mirrors " + a.mirror() + ", direction " + a.direction() + ", deletions " + a.deletions());
            }
            MirrorProgress p = idiom.application().sync().mirror(account);
            print(p.name(), p.mirror().toString(), p.direction(), p.planned(), p.of(), p.owed(), p.estimate());
            printParked(p.name(), p.parked(), p.parkedSamples().stream().map(w -> new String[] {w.title(), w.reason()}).toList());
            return 0;
        }
    }

    private void print(String name, String mirror, String direction, long planned, long of, int owed, Duration estimate) {
        out.printf("idiom: %s: rule %s (%s); planned %d of %d events; %d writes owed%s%n", name, mirror, direction, Math.min(planned, of), of, owed,
                owed == 0 ? "" : ", about " + human(estimate) + " at the tool's pace");
    }

    /** The writes the tool refused, with a few titles and the tool's words; a mirror with any is not complete. */
    private void printParked(String name, int parked, java.util.List<String[]> samples) {
        if (parked == 0) {
            return;
        }
        out.printf("idiom: %s: %d writes refused by the tool and parked (the mirror is not complete until they are fixed and retried):%n", name, parked);
        samples.forEach(s -> out.printf("  \"%s\": %s%n", s[0], s[1]));
        out.printf("  all of them: GET /api/tools/%s/parked; after fixing the records: POST /api/tools/%s/retry%n", name, name);
    }

    /** A duration as a person reads it: "17 h 4 min", "3 min 20 s", "12 s". */
    static String human(Duration d) {
        long s = d.toSeconds();
        if (s >= 3600) {
            return s / 3600 + " h " + (s % 3600) / 60 + " min";
        }
        if (s >= 60) {
            return s / 60 + " min " + s % 60 + " s";
        }
        return Math.max(s, d.isZero() ? 0 : 1) + " s";
    }

    private int remote(String server, String account, JsonNode rule, String direction, String deletions, boolean changes, String token) throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        String base = server + "/api/tools/" + account;
        if (changes) {
            var body = JSON.createObjectNode();
            if (rule != null) {
                body.set("mirror", rule);
            }
            if (direction != null) {
                body.put("direction", direction);
            }
            if (deletions != null) {
                body.put("deletions", deletions);
            }
            HttpResponse<String> r = http.send(authorized(HttpRequest.newBuilder(URI.create(base)), token).header("Content-Type", "application/json")
                    .method("PATCH", HttpRequest.BodyPublishers.ofString(body.toString())).build(), HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() != 200) {
                err.println("idiom: " + r.body());
                return 1;
            }
        }
        HttpResponse<String> r = http.send(authorized(HttpRequest.newBuilder(URI.create(base + "/mirror")), token).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 200) {
            err.println("idiom: " + r.body());
            return 1;
        }
        JsonNode p = JSON.readTree(r.body());
        print(account, p.get("mirror").toString(), p.path("direction").asText(), p.path("plannedEvents").asLong(), p.path("ofEvents").asLong(),
                p.path("owed").asInt(), Duration.ofSeconds(p.path("estimatedSeconds").asLong()));
        java.util.List<String[]> samples = new java.util.ArrayList<>();
        p.path("parkedSamples").forEach(w -> samples.add(new String[] {w.path("title").asText(), w.path("reason").asText()}));
        printParked(account, p.path("parked").asInt(), samples);
        return 0;
    }

    private static HttpRequest.Builder authorized(HttpRequest.Builder b, String token) {
        return token == null ? b : b.header("Authorization", "Bearer " + token);
    }
}
