package dev.idiom.perf;

import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Pattern;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * Search on a seeded store (see {@code ./idiom seed}): waits for the index to hold the whole store,
 * rebuilds it from events (and prints how fast), then times a page of 50 with facets for
 * queries that match nothing, a few percent, half the store, with typos, filters and deep cursors,
 * one client at a time and then several at once; last, the index's lag while writers saturate
 * the write path.
 *
 * <pre>perf/growth.sh --entities N --probe search [--calls 1000] [--clients 8] [--writers 64] [--seconds 15] [--only all|queries|lag] [--rate R: writes/s offered, else as fast as they can] [--settle 300: at most this many seconds waiting for the rebuilt index's merges before timing]</pre>
 */
public final class SearchProbe {
    /** The corpus's words, repeated to the longest criterion a query may have (SearchQuery.MAX_CRITERION), each as {@code shaped}. */
    private static String longest(String open, String close, java.util.function.UnaryOperator<String> shaped) {
        String[] words = ("optimistic replication consistency epidemic gossip causal ordering vector clocks merge conflict annotation bookmarks "
                + "federation metadata scholarly digital library citation retrieval ranking search index graph distributed transactions consensus "
                + "paxos raft byzantine fault tolerance storage log structured compaction stream processing event sourcing snapshot").split(" ");
        StringBuilder b = new StringBuilder(open);
        for (int i = 0; b.length() + words[i % words.length].length() + 2 + close.length() < dev.idiom.events.SearchQuery.MAX_CRITERION; i++) {
            b.append(i == 0 ? "" : " ").append(shaped.apply(words[i % words.length]));
        }
        return b.append(close).toString();
    }

    private static final Pattern TOTAL = Pattern.compile("\"total\":(\\d+)");
    private static final Pattern NEXT = Pattern.compile("\"next\":\"([^\"]+)\"");

    private SearchProbe() {}

    public static void main(String[] args) throws Exception {
        Map<String, String> opts = new LinkedHashMap<>(Map.of("url", "http://127.0.0.1:8080", "calls", "1000", "warmup", "300", "clients", "8",
                "writers", "64", "seconds", "15", "sample", "2000", "rate", "0", "only", "all", "settle", "300"));
        for (int i = 0; i + 1 < args.length; i += 2) {
            opts.put(args[i].replaceFirst("^--", ""), args[i + 1]);
        }
        String base = opts.get("url");
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        awaitIndex(http, base);
        if (opts.get("only").equals("lag")) {
            lagUnderWrites(http, base, Integer.parseInt(opts.get("writers")), Integer.parseInt(opts.get("seconds")), Integer.parseInt(opts.get("sample")),
                    Double.parseDouble(opts.get("rate")));
            return;
        } else if (!opts.get("only").equals("all") && !opts.get("only").equals("queries")) {
            throw new IllegalArgumentException("--only is all, queries or lag, not " + opts.get("only"));
        }
        // a rebuild from events while the current index answers: its rate is one of the figures
        HttpResponse<String> rebuild = http.send(ApiKey.signed(HttpRequest.newBuilder(URI.create(base + "/api/search-index")))
                .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
        GrowthProbe.check("rebuild", rebuild);
        Map<String, String> index = awaitIndex(http, base);
        System.out.printf("search index: %s DEs; last rebuild from events: %s DEs in %s ms (%s DEs/s)%n", index.get("documents"),
                index.get("lastRebuildEntities"), index.get("lastRebuildMillis"), rate(index));
        // the rebuilt index's segments go on merging in the background for a while after the swap: time the searches after
        System.out.printf("background merges after the rebuild: %s%n", awaitMerges(http, base, Long.parseLong(opts.get("settle"))));

        Map<String, String> queries = new LinkedHashMap<>();
        queries.put("no match", "q=zzyzxqv");
        queries.put("one word", "q=paxos");
        queries.put("two words", "q=optimistic+replication");
        queries.put("typo", "q=replicaton");
        queries.put("phrase", "q=" + URLEncoder.encode("\"event sourcing\"", StandardCharsets.UTF_8));
        queries.put("half (filter)", "yearFrom=1998");
        queries.put("word + half", "q=consensus&yearFrom=1998");
        queries.put("author exact", "author=saito");
        // the worst the document allows: the longest criterion of the corpus's commonest words, as one quoted phrase (every
        // word counts against the 32-word cap) and as 32 words each a letter off (each expanded to its near spellings)
        queries.put("worst phrase", "q=" + URLEncoder.encode(longest("\"", "\"", w -> w), StandardCharsets.UTF_8));
        queries.put("worst typos", "q=" + URLEncoder.encode(longest("", "", w -> w.substring(0, w.length() - 1) + "x"), StandardCharsets.UTF_8));
        int calls = Integer.parseInt(opts.get("calls"));
        int warmup = Integer.parseInt(opts.get("warmup"));
        // the queries taken in turn first, so the server's JIT has compiled the paths they share (rendering the entities
        // among them) before any is timed, not only the first query's; yearTo 2100-8999, apart from the timed ones
        for (int i = 0; i < Math.min(warmup, 6900); i++) {
            for (Map.Entry<String, String> q : queries.entrySet()) {
                GrowthProbe.check(q.getKey(), GrowthProbe.get(http, base + "/api/entities?limit=50&" + q.getValue() + "&yearTo=" + (2100 + i)));
            }
        }
        // every call a distinct query (yearTo=9000+i: a range every seeded DE is in), so none is answered from the
        // index's cache of totals and facets; then the same query again, as a portal's popular queries are
        System.out.printf("%-16s %11s %9s %9s %9s %12s %12s%n", "query (limit 50)", "matches", "p50 ms", "p99 ms", "mean ms", "repeat p50", "repeat p99");
        for (Map.Entry<String, String> q : queries.entrySet()) {
            String url = base + "/api/entities?limit=50&" + q.getValue();
            Histogram h = new Histogram(60_000_000_000L, 3);
            Histogram repeated = new Histogram(60_000_000_000L, 3);
            String total = "";
            for (int i = 0; i < calls; i++) {
                long t0 = System.nanoTime();
                HttpResponse<String> r = GrowthProbe.get(http, url + "&yearTo=" + (9000 + i));
                h.recordValue(System.nanoTime() - t0);
                GrowthProbe.check(q.getKey(), r);
                total = LatencyProbe.first(TOTAL, r.body());
                t0 = System.nanoTime();
                GrowthProbe.check(q.getKey(), GrowthProbe.get(http, url + "&yearTo=" + (9000 + i)));
                repeated.recordValue(System.nanoTime() - t0);
            }
            System.out.printf("%-16s %,11d %9.3f %9.3f %9.3f %12.3f %12.3f%n", q.getKey(), Long.parseLong(total), h.getValueAtPercentile(50) / 1e6,
                    h.getValueAtPercentile(99) / 1e6, h.getMean() / 1e6, repeated.getValueAtPercentile(50) / 1e6, repeated.getValueAtPercentile(99) / 1e6);
        }
        if (opts.get("only").equals("queries")) {
            return; // the latency of each kind of query only: no cursors, concurrency or lag
        }
        deepPages(http, base + "/api/entities?limit=50&yearFrom=1998", 40);
        deepPages(http, base + "/api/entities?limit=50&q=replication", 40);
        concurrent(http, base, List.copyOf(queries.values()), Integer.parseInt(opts.get("clients")), Integer.parseInt(opts.get("seconds")));
        lagUnderWrites(http, base, Integer.parseInt(opts.get("writers")), Integer.parseInt(opts.get("seconds")), Integer.parseInt(opts.get("sample")),
                Double.parseDouble(opts.get("rate")));
    }

    /** Follows cursors {@code pages} deep, timing each page: the cost must not grow with depth. Each round its own query, so page 1 counts. */
    private static void deepPages(HttpClient http, String first, int pages) throws Exception {
        Histogram early = new Histogram(60_000_000_000L, 3);
        Histogram late = new Histogram(60_000_000_000L, 3);
        for (int round = 0; round < 5; round++) {
            String start = first + "&yearTo=" + (7000 + round);
            String url = start;
            for (int p = 0; p < pages && url != null; p++) {
                long t0 = System.nanoTime();
                HttpResponse<String> r = GrowthProbe.get(http, url);
                (p == 0 ? early : late).recordValue(System.nanoTime() - t0);
                GrowthProbe.check("deep page", r);
                var m = NEXT.matcher(r.body());
                url = m.find() ? start + "&cursor=" + m.group(1) : null;
            }
        }
        String what = first.substring(first.indexOf('?') + 1);
        System.out.printf("cursor paging %s: page 1 p50 %.3f ms; pages 2-%d (same view) p50 %.3f ms, p99 %.3f ms%n", what,
                early.getValueAtPercentile(50) / 1e6, pages, late.getValueAtPercentile(50) / 1e6, late.getValueAtPercentile(99) / 1e6);
    }

    /** {@code clients} callers at once, each cycling through the queries, for {@code seconds}. */
    private static void concurrent(HttpClient http, String base, List<String> queries, int clients, int seconds) throws Exception {
        Recorder latencies = new Recorder(3);
        AtomicLong errors = new AtomicLong();
        AtomicLong distinct = new AtomicLong();
        untilEnd(clients, seconds, (c, i) -> {
            long t0 = System.nanoTime();
            // distinct each time (see the single-client table), so none is answered from the facet cache
            HttpResponse<String> r = GrowthProbe.get(http, base + "/api/entities?limit=50&" + queries.get((c + i) % queries.size())
                    + "&yearTo=" + (2026 + distinct.incrementAndGet() % 7900));
            latencies.recordValue(System.nanoTime() - t0);
            if (r.statusCode() != 200) {
                errors.incrementAndGet();
            }
        });
        Histogram h = latencies.getIntervalHistogram();
        System.out.printf("%d clients, mixed queries, %d s: %,.0f searches/s, p50 %.3f ms, p99 %.3f ms, errors %d%n", clients, seconds,
                h.getTotalCount() / (double) seconds, h.getValueAtPercentile(50) / 1e6, h.getValueAtPercentile(99) / 1e6, errors.get());
    }

    /**
     * Writers patch DEs (each its own, following versions) as fast as they can, or, given a {@code rate} (per second, all
     * writers together), each on its share of a fixed schedule (a late writer goes at once); the index's lag over that window.
     */
    private static void lagUnderWrites(HttpClient http, String base, int writers, int seconds, int sample, double rate) throws Exception {
        List<String> ids = GrowthProbe.sample(http, base, Math.max(writers, sample));
        Map<String, Integer> versions = GrowthProbe.versions(http, base, ids);
        AtomicLong writes = new AtomicLong();
        AtomicLong refused = new AtomicLong();
        // warm the indexing path first (a server that has not indexed since it started compiles it during the first writes),
        // then let the lag window forget the warm-up and the build
        write(http, base, ids, versions, writers, Math.min(seconds, 10), rate, new AtomicLong(), new AtomicLong());
        Thread.sleep(61_000);
        write(http, base, ids, versions, writers, seconds, rate, writes, refused);
        Thread.sleep(500);
        Map<String, String> index = figures(http, base);
        System.out.printf("index lag with %d writers%s (%,.0f UpdateDE/s acknowledged, %d refused): p50 %s ms, p99 %s ms, max %s ms%n", writers,
                rate > 0 ? String.format(" offering %,.0f/s", rate) : "", writes.get() / (double) seconds, refused.get(), index.get("p50LagMillis"), index.get("p99LagMillis"), index.get("maxLagMillis"));
    }

    /** {@code writers} patch DEs for {@code seconds}, each its own DEs, paced to {@code rate} if given. */
    private static void write(HttpClient http, String base, List<String> ids, Map<String, Integer> versions, int writers, int seconds, double rate,
                              AtomicLong writes, AtomicLong refused) throws Exception {
        int mine = ids.size() / writers; // each writer its own DEs: no two race for a version
        long origin = System.nanoTime();
        untilEnd(writers, seconds, (w, i) -> {
            if (rate > 0) {
                long due = origin + (long) ((i * (double) writers + w) * 1e9 / rate);
                long wait = due - System.nanoTime();
                if (wait > 0) {
                    Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
                }
            }
            String id = ids.get(w + (i % mine) * writers);
            (GrowthProbe.patchNotes(http, base, id, versions, "lag " + i).statusCode() == 200 ? writes : refused).incrementAndGet();
        });
    }

    /** One client's i-th call. */
    private interface Call {
        void run(int client, int i) throws Exception;
    }

    /** {@code clients} threads, each making calls one after another until {@code seconds} have passed. */
    private static void untilEnd(int clients, int seconds, Call call) throws Exception {
        long end = System.nanoTime() + seconds * 1_000_000_000L;
        try (ExecutorService pool = Executors.newFixedThreadPool(clients)) {
            List<Future<?>> all = new ArrayList<>();
            for (int c = 0; c < clients; c++) {
                int me = c;
                all.add(pool.submit(() -> {
                    for (int i = 0; System.nanoTime() < end; i++) {
                        call.run(me, i);
                    }
                    return null;
                }));
            }
            for (Future<?> f : all) {
                f.get();
            }
        }
    }

    private static Map<String, String> awaitIndex(HttpClient http, String base) throws Exception {
        long head = GrowthProbe.head(http, base);
        long start = System.nanoTime();
        for (long shown = 0; ; ) {
            Map<String, String> f = figures(http, base);
            if (!Boolean.parseBoolean(f.get("rebuilding")) && Long.parseLong(f.get("position")) >= head) {
                Thread.sleep(300); // a finished rebuild is swapped in on the follower's next round
                return f;
            }
            long s = (System.nanoTime() - start) / 1_000_000_000L;
            if (s > 1800) {
                throw new IllegalStateException("the search index did not reach the store's head (" + head + ") in 30 minutes: " + f);
            }
            if (s >= shown + 10) {
                shown = s;
                System.err.printf("waiting for the search index: %s DEs after %d s…%n", f.get("documents"), s);
            }
            Thread.sleep(500);
        }
    }

    /** Waits, at most {@code seconds}, until the index merges no more; says how long that took. */
    private static String awaitMerges(HttpClient http, String base, long seconds) throws Exception {
        long start = System.nanoTime();
        while (Boolean.parseBoolean(figures(http, base).get("merging"))) {
            if (System.nanoTime() - start > seconds * 1_000_000_000L) {
                return String.format("still running after %d s; timing anyway", seconds);
            }
            Thread.sleep(1000);
        }
        return String.format("done %.0f s after it", (System.nanoTime() - start) / 1e9);
    }

    private static Map<String, String> figures(HttpClient http, String base) throws Exception {
        Map<String, String> out = new LinkedHashMap<>();
        var m = Pattern.compile("\"(\\w+)\":(\\w+)").matcher(GrowthProbe.get(http, base + "/api/search-index").body());
        while (m.find()) {
            out.put(m.group(1), m.group(2));
        }
        return out;
    }

    private static String rate(Map<String, String> f) {
        long ms = Long.parseLong(f.get("lastRebuildMillis"));
        return ms == 0 ? "-" : String.format("%,.0f", Long.parseLong(f.get("lastRebuildEntities")) * 1000.0 / ms);
    }
}
