package dev.idiom.perf;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.Histogram;

/**
 * Does a reader formatting bibliographies stall everyone else (issue 48, finding 3)? One victim
 * reader calls MoreInfo in a closed loop, first alone, then while 8 readers loop over
 * {@code GET /api/entities} pages as {@code text/x-bibliography} in one of seven styles, each page
 * different (limit, year and style drawn at random: over 4,000 combinations, so the answer cache
 * helps only by chance). Formatters on one key, then on eight keys; formatters that wait the
 * {@code Retry-After} they are told, then ones that ignore it and spin. Every path is warmed up
 * before anything is timed. Prints the victim's p50/p99/p99.9 and the ratio of its loaded p99 to
 * its unloaded p99, and what the formatters got.
 *
 * <pre>perf/formatting-victim.sh [--seconds 20] [--entities 400]</pre>
 */
public final class FormattingVictim {
    private static final List<String> STYLES = List.of("apa", "ieee", "chicago-author-date", "modern-language-association",
            "harvard-cite-them-right", "vancouver", "nature");

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(5)).build();
    private final String base;

    private FormattingVictim(String base) {
        this.base = base;
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> opts = new LinkedHashMap<>(Map.of("url", "http://127.0.0.1:8080", "seconds", "20", "entities", "400"));
        for (int i = 0; i + 1 < args.length; i += 2) {
            opts.put(args[i].replaceFirst("^--", ""), args[i + 1]);
        }
        new FormattingVictim(opts.get("url")).run(Integer.parseInt(opts.get("seconds")), Integer.parseInt(opts.get("entities")));
    }

    private void run(int seconds, int entities) throws Exception {
        String id = null;
        for (int i = 0; i < entities; i++) {
            HttpResponse<String> r = send(HttpRequest.newBuilder(URI.create(base + "/api/entities")).header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString("{\"metadata\":{\"type\":\"article-journal\",\"title\":\"On bounded work, part " + i
                            + "\",\"year\":" + (1990 + i % 30) + ",\"venue\":\"Journal of Shared Machines\",\"volume\":\"" + (i % 40)
                            + "\",\"pages\":\"" + (i + 1) + "-" + (i + 12) + "\",\"authors\":[{\"family\":\"Lovelace" + (i % 23)
                            + "\",\"given\":\"Ada\"},{\"family\":\"Babbage\",\"given\":\"Charles\"}]}}")), ApiKey.current());
            if (r.statusCode() != 201) {
                throw new IllegalStateException("seeding: " + r.statusCode() + " " + r.body());
            }
            id = LatencyProbe.first(LatencyProbe.ID_JSON, r.body());
        }
        String victimKey = key("victim");
        List<String> keys = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            keys.add(key("formatter-" + i));
        }
        String moreInfo = "/api/entities/" + id;
        System.out.printf("A victim's MoreInfo under 8 readers formatting bibliographies, at %s: %d DEs, %d s a phase, 2 cores shared with the clients%n",
                base, entities, seconds);
        // warm-up: the victim's path, and formatting in every style, before anything is timed
        for (int i = 0; i < 3000; i++) {
            check(get(moreInfo, victimKey));
        }
        for (int i = 0; i < 70; i++) {
            HttpResponse<String> r = format(keys.get(i % 8));
            if (r.statusCode() != 200 && r.statusCode() != 429 && r.statusCode() != 503) {
                throw new IllegalStateException("formatting: " + r.statusCode() + " " + r.body());
            }
        }
        System.out.printf("%-44s %8s %8s %9s %8s %10s %s%n", "phase", "p50 ms", "p99 ms", "p99.9 ms", "calls", "p99 ratio", "formatters got");
        double alone = phase("victim alone", moreInfo, victimKey, seconds, List.of(), true, 0);
        phase("8 formatters, one key, honour Retry-After", moreInfo, victimKey, seconds, java.util.Collections.nCopies(8, keys.getFirst()), true, alone);
        phase("8 formatters, eight keys, honour Retry-After", moreInfo, victimKey, seconds, keys, true, alone);
        phase("8 formatters, eight keys, ignore Retry-After", moreInfo, victimKey, seconds, keys, false, alone);
    }

    /** Runs one phase; returns the victim's p99 in ms. */
    private double phase(String name, String moreInfo, String victimKey, int seconds, List<String> formatterKeys, boolean honour, double aloneP99)
            throws Exception {
        AtomicBoolean stop = new AtomicBoolean();
        Map<Integer, LongAdder> got = new ConcurrentHashMap<>();
        List<Thread> formatters = new ArrayList<>();
        for (String k : formatterKeys) {
            Thread t = Thread.ofPlatform().start(() -> {
                while (!stop.get()) {
                    try {
                        HttpResponse<String> r = format(k);
                        got.computeIfAbsent(r.statusCode(), s -> new LongAdder()).increment();
                        if (honour && r.headers().firstValue("Retry-After").isPresent()) {
                            Thread.sleep(1000L * Long.parseLong(r.headers().firstValue("Retry-After").get()));
                        }
                    } catch (InterruptedException e) {
                        return;
                    } catch (Exception e) {
                        got.computeIfAbsent(-1, s -> new LongAdder()).increment();
                    }
                }
            });
            formatters.add(t);
        }
        Thread.sleep(formatterKeys.isEmpty() ? 0 : 2000); // the load settles before the victim is timed
        Histogram h = new Histogram(60_000_000_000L, 3);
        long until = System.nanoTime() + seconds * 1_000_000_000L;
        int calls = 0;
        while (System.nanoTime() < until) {
            long t0 = System.nanoTime();
            check(get(moreInfo, victimKey));
            h.recordValue(System.nanoTime() - t0);
            calls++;
        }
        stop.set(true);
        for (Thread t : formatters) {
            t.interrupt();
            t.join();
        }
        double p99 = h.getValueAtPercentile(99) / 1e6;
        Map<Integer, Long> counts = new java.util.TreeMap<>();
        got.forEach((k, v) -> counts.put(k, v.sum()));
        System.out.printf("%-44s %8.2f %8.2f %9.2f %8d %10s %s%n", name, h.getValueAtPercentile(50) / 1e6, p99, h.getValueAtPercentile(99.9) / 1e6, calls,
                aloneP99 == 0 ? "1.00" : String.format("%.2f", p99 / aloneP99), counts.isEmpty() ? "-" : counts.toString());
        return p99;
    }

    private HttpResponse<String> format(String key) throws Exception {
        ThreadLocalRandom r = ThreadLocalRandom.current();
        String style = STYLES.get(r.nextInt(STYLES.size()));
        return send(HttpRequest.newBuilder(URI.create(base + "/api/entities?limit=" + (30 + r.nextInt(21)) + "&yearFrom=" + (1990 + r.nextInt(30))))
                .header("Accept", "text/x-bibliography; style=" + style).GET(), key);
    }

    private String key(String name) throws Exception {
        HttpResponse<String> r = send(HttpRequest.newBuilder(URI.create(base + "/api/keys")).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"name\":\"" + name + "-" + System.nanoTime() + "\",\"role\":\"reader\"}")), ApiKey.current());
        if (r.statusCode() != 201) {
            throw new IllegalStateException("making a key: " + r.statusCode() + " " + r.body());
        }
        return LatencyProbe.first(java.util.regex.Pattern.compile("\"key\":\"([^\"]+)\""), r.body());
    }

    private HttpResponse<String> get(String path, String key) throws Exception {
        return send(HttpRequest.newBuilder(URI.create(base + path)).GET(), key);
    }

    private HttpResponse<String> send(HttpRequest.Builder b, String key) throws Exception {
        return http.send(b.header("Authorization", "Bearer " + key).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static void check(HttpResponse<String> r) {
        if (r.statusCode() != 200) {
            throw new IllegalStateException("the victim got " + r.statusCode() + ": " + r.body());
        }
    }
}
