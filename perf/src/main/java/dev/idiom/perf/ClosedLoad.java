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
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * Closed-loop load on a running Idiom: N clients, each sending its next request as soon as the
 * last one answered (no think time), one operation at a time for a fixed time after a warm-up,
 * every operation in the same run as the empty SOAP baseline. UpdateDE clients each update their
 * own DE and follow its version, so no request is stale by design. Prints achieved msg/s,
 * latency percentiles and each operation's rate as a ratio to empty SOAP.
 *
 * <pre>perf/load.sh [--clients 16] [--seconds 10] [--warmup 3] [--ops soap-empty,rest-update,…]</pre>
 */
public final class ClosedLoad {
    private static final List<String> ALL = List.of("soap-empty", "rest-empty", "soap-moreinfo-cache", "soap-moreinfo-db", "rest-moreinfo-cache",
            "rest-moreinfo-db", "soap-update", "rest-update");

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(5)).build();
    private final String base;

    private ClosedLoad(String base) {
        this.base = base;
    }

    /** One client's next request and how to read its answer. */
    private interface Client {
        HttpResponse<String> call() throws Exception;
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> opts = new LinkedHashMap<>(Map.of("url", "http://127.0.0.1:8080", "clients", "16", "seconds", "10", "warmup", "3",
                "ops", String.join(",", ALL)));
        for (int i = 0; i + 1 < args.length; i += 2) {
            String key = args[i].replaceFirst("^--", "");
            if (!opts.containsKey(key)) {
                throw new IllegalArgumentException("unknown option " + args[i] + "; options: " + opts.keySet());
            }
            opts.put(key, args[i + 1]);
        }
        List<String> ops = new ArrayList<>(List.of(opts.get("ops").split(",")));
        for (String op : ops) {
            if (!ALL.contains(op)) {
                throw new IllegalArgumentException("unknown operation " + op + "; operations: " + ALL);
            }
        }
        if (!ops.contains("soap-empty")) {
            ops.addFirst("soap-empty"); // the baseline is always measured in the same run
        }
        new ClosedLoad(opts.get("url")).run(ops, Integer.parseInt(opts.get("clients")), Integer.parseInt(opts.get("seconds")),
                Integer.parseInt(opts.get("warmup")));
    }

    private void run(List<String> ops, int clients, int seconds, int warmup) throws Exception {
        System.out.printf("Idiom closed-loop load at %s: %d clients, no think time, %d s per operation after %d s warm-up%n", base, clients, seconds, warmup);
        System.out.printf("%-22s %10s %9s %9s %9s %9s %8s %7s%n", "operation", "msg/s", "p50 ms", "p90 ms", "p99 ms", "max ms", "errors", "x empty");
        Map<String, List<Client>> byOp = new LinkedHashMap<>();
        for (String op : ops) {
            List<Client> cs = new ArrayList<>();
            for (int i = 0; i < clients; i++) {
                cs.add(client(op, i));
            }
            byOp.put(op, cs);
        }
        // warm every path first (JIT, pools), so the first operation measured is not the coldest
        for (List<Client> cs : byOp.values()) {
            measure(cs, warmup, 0);
        }
        double empty = 0;
        for (String op : ops) {
            Result r = measure(byOp.get(op), seconds, 1);
            if (op.equals("soap-empty")) {
                empty = r.rate;
            }
            System.out.printf("%-22s %10.0f %9.3f %9.3f %9.3f %9.3f %8d %7.2f%n", op, r.rate, r.h.getValueAtPercentile(50) / 1e6,
                    r.h.getValueAtPercentile(90) / 1e6, r.h.getValueAtPercentile(99) / 1e6, r.h.getMaxValue() / 1e6, r.errors, r.rate / empty);
        }
    }

    private record Result(double rate, Histogram h, long errors) {}

    private Result measure(List<Client> clients, int seconds, int warmup) throws Exception {
        Recorder latency = new Recorder(3);
        AtomicBoolean measuring = new AtomicBoolean();
        AtomicBoolean stop = new AtomicBoolean();
        AtomicLong count = new AtomicLong();
        AtomicLong errors = new AtomicLong();
        List<String> firstError = new ArrayList<>();
        CountDownLatch done = new CountDownLatch(clients.size());
        for (Client c : clients) {
            Thread.ofPlatform().start(() -> {
                try {
                    while (!stop.get()) {
                        long t0 = System.nanoTime();
                        HttpResponse<String> r;
                        try {
                            r = c.call();
                        } catch (Exception e) {
                            errors.incrementAndGet();
                            synchronized (firstError) {
                                if (firstError.isEmpty()) {
                                    firstError.add(e.toString());
                                }
                            }
                            continue;
                        }
                        long t1 = System.nanoTime();
                        if (measuring.get()) {
                            latency.recordValue(t1 - t0);
                            count.incrementAndGet();
                            if (r.statusCode() >= 300) {
                                errors.incrementAndGet();
                            }
                        }
                    }
                } finally {
                    done.countDown();
                }
            });
        }
        Thread.sleep(warmup * 1000L);
        latency.reset();
        measuring.set(true);
        long t0 = System.nanoTime();
        Thread.sleep(seconds * 1000L);
        measuring.set(false);
        long n = count.get();
        double elapsed = (System.nanoTime() - t0) / 1e9;
        stop.set(true);
        done.await();
        if (!firstError.isEmpty()) {
            System.out.println("  first error: " + firstError.getFirst());
        }
        return new Result(n / elapsed, latency.getIntervalHistogram(), errors.get());
    }

    private Client client(String op, int n) throws Exception {
        return switch (op) {
            case "soap-empty" -> () -> soap("<de:empty/>");
            case "rest-empty" -> () -> send(get("/api/ping"));
            case "soap-moreinfo-cache", "soap-moreinfo-db", "rest-moreinfo-cache", "rest-moreinfo-db" -> {
                String id = create(n).id;
                String source = op.endsWith("cache") ? "cache" : "db";
                yield op.startsWith("soap")
                        ? () -> soap("<de:moreInfo><de:id>" + id + "</de:id><de:source>" + source + "</de:source></de:moreInfo>")
                        : () -> send(get("/api/entities/" + id + "?source=" + source));
            }
            case "soap-update" -> {
                Created de = create(n);
                int[] version = {de.version};
                yield () -> {
                    HttpResponse<String> r = soap("<de:updateDE><de:id>" + de.id + "</de:id><de:field>notes</de:field><de:value>s" + version[0]
                            + "</de:value><de:expectedVersion>" + version[0] + "</de:expectedVersion></de:updateDE>");
                    if (r.statusCode() == 200) {
                        version[0] = Integer.parseInt(LatencyProbe.first(LatencyProbe.VERSION_XML, r.body()));
                    }
                    return r;
                };
            }
            case "rest-update" -> {
                Created de = create(n);
                int[] version = {de.version};
                yield () -> {
                    HttpResponse<String> r = send(HttpRequest.newBuilder(URI.create(base + "/api/entities/" + de.id))
                            .header("Content-Type", "application/merge-patch+json").header("If-Match", "\"" + version[0] + "\"")
                            .method("PATCH", HttpRequest.BodyPublishers.ofString("{\"metadata\":{\"notes\":\"n" + version[0] + "\"}}")));
                    if (r.statusCode() == 200) {
                        version[0] = Integer.parseInt(LatencyProbe.first(LatencyProbe.VERSION_JSON, r.body()));
                    }
                    return r;
                };
            }
            default -> throw new IllegalArgumentException(op);
        };
    }

    private record Created(String id, int version) {}

    private Created create(int n) throws Exception {
        String body = send(HttpRequest.newBuilder(URI.create(base + "/api/entities")).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"metadata\":{\"type\":\"article-journal\",\"title\":\"Load client " + n + " "
                        + System.nanoTime() + "\",\"year\":2005,\"venue\":\"ACM Computing Surveys\",\"authors\":[{\"family\":\"Saito\",\"given\":\"Yasushi\"}],"
                        + "\"tags\":[\"replication\",\"survey\"]}}"))).body();
        return new Created(LatencyProbe.first(LatencyProbe.ID_JSON, body), Integer.parseInt(LatencyProbe.first(LatencyProbe.VERSION_JSON, body)));
    }

    private HttpResponse<String> soap(String body) throws Exception {
        return send(HttpRequest.newBuilder(URI.create(base + "/services/DigitalEntityService")).header("Content-Type", "text/xml; charset=UTF-8")
                .header("SOAPAction", "\"\"").POST(HttpRequest.BodyPublishers.ofString(
                        "<soapenv:Envelope xmlns:soapenv=\"http://schemas.xmlsoap.org/soap/envelope/\" xmlns:de=\"http://idiom.dev/de/1\">"
                                + "<soapenv:Body>" + body + "</soapenv:Body></soapenv:Envelope>")));
    }

    private HttpRequest.Builder get(String path) {
        return HttpRequest.newBuilder(URI.create(base + path)).GET();
    }

    private HttpResponse<String> send(HttpRequest.Builder b) throws Exception {
        return http.send(ApiKey.signed(b).build(), HttpResponse.BodyHandlers.ofString());
    }
}
