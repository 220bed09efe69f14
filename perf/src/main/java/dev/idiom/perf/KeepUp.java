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
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Keep-up: does what the admin console shows keep up with the rate at which events happen? At each
 * rate r, a sequence of updates (one to each of r × seconds fresh DEs, created first and not
 * timed) is sent open-loop on schedule — update i at t0 + i/r, whatever the server does — while the
 * console's live feed ({@code /admin/live}, Server-Sent Events) is watched. Ideal delivery time =
 * the sequence's length / r; actual = from t0 to the first live snapshot whose store head holds
 * every update the server acknowledged. Ratio ideal / actual: 1.0 keeps up; the feed's tick (0.5 s)
 * keeps it a little under 1 even when all is well. Updates refused busy (503) are counted, not delivered.
 *
 * <pre>perf/keep-up.sh [--rates 200,800,2000] [--seconds 10] [--url http://host:port]</pre>
 */
public final class KeepUp {
    private static final Pattern HEAD = Pattern.compile("\"headPosition\":(\\d+)");
    private static final Pattern ID = Pattern.compile("\"id\":\"([0-9a-f-]{36})\"");

    private KeepUp() {}

    /** One live snapshot: when it arrived and the store head it showed. */
    private record Snapshot(long nanos, long head) {}

    public static void main(String[] args) throws Exception {
        Map<String, String> opts = new LinkedHashMap<>(Map.of("url", "http://127.0.0.1:8080", "rates", "200,800,2000", "seconds", "10"));
        for (int i = 0; i + 1 < args.length; i += 2) {
            opts.put(args[i].replaceFirst("^--", ""), args[i + 1]);
        }
        String url = opts.get("url");
        int seconds = Integer.parseInt(opts.get("seconds"));
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

        ConcurrentLinkedQueue<Snapshot> snapshots = new ConcurrentLinkedQueue<>();
        HttpResponse<Stream<String>> live = http.send(ApiKey.signed(HttpRequest.newBuilder(URI.create(url + "/admin/live"))).build(),
                HttpResponse.BodyHandlers.ofLines());
        if (live.statusCode() != 200) {
            throw new IllegalStateException("/admin/live answered " + live.statusCode() + " (an admin key in IDIOM_KEY?)");
        }
        Thread.ofVirtual().start(() -> {
            try {
                live.body().forEach(line -> {
                    Matcher m = HEAD.matcher(line);
                    if (line.startsWith("data: ") && m.find()) {
                        snapshots.add(new Snapshot(System.nanoTime(), Long.parseLong(m.group(1))));
                    }
                });
            } catch (java.io.UncheckedIOException closed) {
                // the run is over
            }
        });

        int eventsPerUpdate = eventsPerUpdate(http, url);
        System.out.printf("keep-up: %s, %d s per rate; one update appends %d event(s); live feed tick 500 ms%n", url, seconds, eventsPerUpdate);
        System.out.println("keep-up:   rate/s   updates   acked   busy  errors   ideal s  actual s   ratio   p99 ack ms");
        for (String r : opts.get("rates").split(",")) {
            int rate = Integer.parseInt(r.strip());
            run(http, url, rate, seconds, eventsPerUpdate, snapshots);
        }
        live.body().close();
    }

    private static void run(HttpClient http, String url, int rate, int seconds, int eventsPerUpdate, ConcurrentLinkedQueue<Snapshot> snapshots)
            throws Exception {
        int count = rate * seconds;
        List<String> ids = create(http, url, count);
        long headBefore = head(http, url);
        AtomicInteger acked = new AtomicInteger();
        AtomicInteger busy = new AtomicInteger();
        AtomicInteger errors = new AtomicInteger();
        org.HdrHistogram.Histogram ack = new org.HdrHistogram.Histogram(3_600_000_000L, 3);
        long t0 = System.nanoTime() + 200_000_000L;
        List<Future<?>> sent = new ArrayList<>(count);
        try (ExecutorService each = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int i = 0; i < count; i++) {
                long due = t0 + (long) (i * 1e9 / rate);
                String id = ids.get(i);
                sent.add(each.submit(() -> {
                    long wait = due - System.nanoTime();
                    if (wait > 0) {
                        TimeUnit.NANOSECONDS.sleep(wait);
                    }
                    HttpResponse<String> res = update(http, url, id);
                    synchronized (ack) {
                        ack.recordValue(Math.max(0, (System.nanoTime() - due) / 1000));
                    }
                    if (res.statusCode() == 200) {
                        acked.incrementAndGet();
                    } else if (res.statusCode() == 503) {
                        busy.incrementAndGet();
                    } else {
                        errors.incrementAndGet();
                    }
                    return null;
                }));
            }
            for (Future<?> f : sent) {
                try {
                    f.get();
                } catch (java.util.concurrent.ExecutionException e) {
                    errors.incrementAndGet();
                }
            }
        }
        long target = headBefore + (long) acked.get() * eventsPerUpdate;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        Snapshot delivered = null;
        while (delivered == null && System.nanoTime() < deadline) {
            delivered = snapshots.stream().filter(s -> s.nanos() >= t0 && s.head() >= target).findFirst().orElse(null);
            if (delivered == null) {
                Thread.sleep(50);
            }
        }
        snapshots.clear();
        double ideal = count / (double) rate;
        String actual = delivered == null ? "> 60" : String.format("%.2f", (delivered.nanos() - t0) / 1e9);
        String ratio = delivered == null ? "< " + String.format("%.2f", ideal / 60) : String.format("%.2f", ideal / ((delivered.nanos() - t0) / 1e9));
        System.out.printf("keep-up: %8d %9d %7d %6d %7d %9.2f %9s %7s %12.0f%n", rate, count, acked.get(), busy.get(), errors.get(), ideal, actual, ratio,
                ack.getValueAtPercentile(99) / 1000.0);
    }

    /** Creates {@code n} DEs (32 at a time, not timed), each at version 1. */
    private static List<String> create(HttpClient http, String url, int n) throws Exception {
        System.out.printf("keep-up: creating %,d DEs for the next rate…%n", n);
        String[] ids = new String[n];
        Semaphore inFlight = new Semaphore(32);
        try (ExecutorService each = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int i = 0; i < n; i++) {
                int at = i;
                inFlight.acquire();
                each.submit(() -> {
                    try {
                        HttpResponse<String> r = http.send(ApiKey.signed(HttpRequest.newBuilder(URI.create(url + "/api/entities")))
                                .header("Content-Type", "application/json")
                                .POST(HttpRequest.BodyPublishers.ofString("{\"metadata\":{\"type\":\"article-journal\",\"title\":\"Keep-up " + at + "\"}}")).build(),
                                HttpResponse.BodyHandlers.ofString());
                        Matcher m = ID.matcher(r.body());
                        if (r.statusCode() != 201 || !m.find()) {
                            throw new IllegalStateException("creating a DE answered " + r.statusCode() + ": " + r.body());
                        }
                        ids[at] = m.group(1);
                        return null;
                    } finally {
                        inFlight.release();
                    }
                });
            }
        }
        for (String id : ids) {
            if (id == null) {
                throw new IllegalStateException("not every DE was created; see the server's log");
            }
        }
        return List.of(ids);
    }

    /** How many events one update of a title appends: measured, not assumed. */
    private static int eventsPerUpdate(HttpClient http, String url) throws Exception {
        String id = create(http, url, 1).getFirst();
        long before = head(http, url);
        HttpResponse<String> r = update(http, url, id);
        if (r.statusCode() != 200) {
            throw new IllegalStateException("an update answered " + r.statusCode() + ": " + r.body());
        }
        return (int) Math.max(1, head(http, url) - before);
    }

    /** The update every rate sends: a new title for a DE at version 1. */
    private static HttpResponse<String> update(HttpClient http, String url, String id) throws Exception {
        return http.send(ApiKey.signed(HttpRequest.newBuilder(URI.create(url + "/api/entities/" + id)))
                .header("Content-Type", "application/merge-patch+json").header("If-Match", "\"1\"")
                .method("PATCH", HttpRequest.BodyPublishers.ofString("{\"metadata\":{\"title\":\"Keep-up, updated\"}}")).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static long head(HttpClient http, String url) throws Exception {
        HttpResponse<String> r = http.send(ApiKey.signed(HttpRequest.newBuilder(URI.create(url + "/admin/metrics"))).build(), HttpResponse.BodyHandlers.ofString());
        Matcher m = HEAD.matcher(r.body());
        if (r.statusCode() != 200 || !m.find()) {
            throw new IllegalStateException("/admin/metrics answered " + r.statusCode());
        }
        return Long.parseLong(m.group(1));
    }
}
