package dev.idiom.perf;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.regex.Pattern;
import org.HdrHistogram.Histogram;

/**
 * Single-client cost of MoreInfo (database and cache), UpdateDE and history on a store that
 * already holds many DEs (see {@code ./idiom seed}): the DEs read and written are sampled at
 * random positions of the change feed, so the reads touch the whole store, not one hot row.
 *
 * <pre>perf/growth.sh --data DIR [--calls 3000] [--sample 500]</pre>
 */
public final class GrowthProbe {
    private static final Pattern HEAD = Pattern.compile("\"headPosition\":(\\d+)");
    private static final Pattern ENTITY = Pattern.compile("\"entityId\":\"([0-9a-f-]{36})\"");

    private GrowthProbe() {}

    public static void main(String[] args) throws Exception {
        Map<String, String> opts = new LinkedHashMap<>(Map.of("url", "http://127.0.0.1:8080", "calls", "3000", "sample", "500", "warmup", "1000"));
        for (int i = 0; i + 1 < args.length; i += 2) {
            opts.put(args[i].replaceFirst("^--", ""), args[i + 1]);
        }
        String base = opts.get("url");
        int calls = Integer.parseInt(opts.get("calls"));
        int warmup = Integer.parseInt(opts.get("warmup"));
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        long head = head(http, base);
        List<String> ids = sample(http, base, Integer.parseInt(opts.get("sample")));
        Map<String, Integer> versions = versions(http, base, ids);
        System.out.printf("Idiom at %s: %,d events in the store; %d DEs sampled across it; %d calls per operation after %d warm-up%n", base, head,
                ids.size(), calls, warmup);
        System.out.printf("%-20s %9s %9s %9s%n", "operation", "p50 ms", "p99 ms", "mean ms");
        Map<String, Op> ops = new LinkedHashMap<>();
        ops.put("moreInfo db", i -> get(http, base + "/api/entities/" + ids.get(i % ids.size()) + "?source=db"));
        ops.put("moreInfo cache", i -> get(http, base + "/api/entities/" + ids.get(i % ids.size()) + "?source=cache"));
        ops.put("updateDE (REST)", i -> patchNotes(http, base, ids.get(i % ids.size()), versions, "growth " + i));
        ops.put("asOf version 1", i -> get(http, base + "/api/entities/" + ids.get(i % ids.size()) + "?version=1"));
        for (Map.Entry<String, Op> op : ops.entrySet()) {
            for (int i = 0; i < warmup; i++) {
                check(op.getKey(), op.getValue().call(i));
            }
            Histogram h = new Histogram(60_000_000_000L, 3);
            for (int i = 0; i < calls; i++) {
                long t0 = System.nanoTime();
                HttpResponse<String> r = op.getValue().call(warmup + i);
                h.recordValue(System.nanoTime() - t0);
                check(op.getKey(), r);
            }
            System.out.printf("%-20s %9.3f %9.3f %9.3f%n", op.getKey(), h.getValueAtPercentile(50) / 1e6, h.getValueAtPercentile(99) / 1e6,
                    h.getMean() / 1e6);
        }
    }

    /** The store's head position, from the admin figures. */
    public static long head(HttpClient http, String base) throws Exception {
        return Long.parseLong(LatencyProbe.first(HEAD, get(http, base + "/admin/metrics").body()));
    }

    /** Up to {@code n} distinct DEs at random positions of the change feed, so calls touch the whole store. */
    public static List<String> sample(HttpClient http, String base, int n) throws Exception {
        long head = head(http, base);
        Random random = new Random(7);
        Set<String> sampled = new LinkedHashSet<>();
        for (int i = 0; i < n * 2 && sampled.size() < n; i++) {
            long p = (long) (random.nextDouble() * head);
            var m = ENTITY.matcher(get(http, base + "/api/changes?after=" + p + "&limit=1").body());
            if (m.find()) {
                sampled.add(m.group(1));
            }
        }
        return new ArrayList<>(sampled);
    }

    /** Each DE's current version (its ETag), for writes that follow versions. */
    static Map<String, Integer> versions(HttpClient http, String base, List<String> ids) throws Exception {
        Map<String, Integer> versions = new java.util.concurrent.ConcurrentHashMap<>();
        for (String id : ids) {
            versions.put(id, Integer.parseInt(LatencyProbe.first(LatencyProbe.VERSION_JSON, get(http, base + "/api/entities/" + id + "?source=db").body())));
        }
        return versions;
    }

    private interface Op {
        HttpResponse<String> call(int i) throws Exception;
    }

    /** UpdateDE over REST: sets the DE's notes at the version last seen, and follows the version it answers. */
    static HttpResponse<String> patchNotes(HttpClient http, String base, String id, Map<String, Integer> versions, String notes) throws Exception {
        HttpResponse<String> r = http.send(ApiKey.signed(HttpRequest.newBuilder(URI.create(base + "/api/entities/" + id))
                .header("Content-Type", "application/merge-patch+json").header("If-Match", "\"" + versions.get(id) + "\"")
                .method("PATCH", HttpRequest.BodyPublishers.ofString("{\"metadata\":{\"notes\":\"" + notes + "\"}}"))).build(),
                HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() == 200) {
            versions.put(id, Integer.parseInt(LatencyProbe.first(LatencyProbe.VERSION_JSON, r.body())));
        }
        return r;
    }

    static void check(String op, HttpResponse<String> r) {
        if (r.statusCode() >= 300) {
            throw new IllegalStateException(op + " answered " + r.statusCode() + ": " + r.body());
        }
    }

    public static HttpResponse<String> get(HttpClient http, String url) throws Exception {
        return http.send(ApiKey.signed(HttpRequest.newBuilder(URI.create(url))).GET().build(), HttpResponse.BodyHandlers.ofString());
    }
}
