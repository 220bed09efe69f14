package dev.idiom.perf;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.HdrHistogram.Histogram;

/**
 * Single-client latency of Idiom's operations over SOAP and REST: one client, one call at a time
 * (closed loop, so no coordinated omission to correct), warm-up first, then p50/p99/p99.9 from an
 * HdrHistogram, each operation also as a ratio to the empty operation of the same protocol.
 *
 * <pre>java -cp … dev.idiom.perf.LatencyProbe --url http://127.0.0.1:8080 [--calls 2000] [--warmup 1000]</pre>
 */
public final class LatencyProbe {
    static final Pattern VERSION_XML = Pattern.compile("<(?:\\w+:)?version>(\\d+)</");
    static final Pattern VERSION_JSON = Pattern.compile("\"version\":(\\d+)");
    static final Pattern ID_JSON = Pattern.compile("\"id\":\"([0-9a-f-]{36})\"");

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(5)).build();
    private final String base;

    private LatencyProbe(String base) {
        this.base = base;
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> opts = new LinkedHashMap<>(Map.of("url", "http://127.0.0.1:8080", "calls", "2000", "warmup", "1000"));
        for (int i = 0; i + 1 < args.length; i += 2) {
            opts.put(args[i].replaceFirst("^--", ""), args[i + 1]);
        }
        int calls = Integer.parseInt(opts.get("calls"));
        int warmup = Integer.parseInt(opts.get("warmup"));
        new LatencyProbe(opts.get("url")).run(calls, warmup);
    }

    private void run(int calls, int warmup) throws Exception {
        String created = send(post("/api/entities", "application/json",
                "{\"metadata\":{\"type\":\"article-journal\",\"title\":\"Optimistic replication\",\"year\":2005,\"venue\":\"ACM Computing Surveys\","
                        + "\"authors\":[{\"family\":\"Saito\",\"given\":\"Yasushi\"},{\"family\":\"Shapiro\",\"given\":\"Marc\"}],"
                        + "\"doi\":\"10.1145/1057977.1057980\",\"tags\":[\"replication\",\"survey\"]}}")).body();
        String id = first(ID_JSON, created);
        int[] version = {Integer.parseInt(first(VERSION_JSON, created))};

        Map<String, Callable<HttpResponse<String>>> ops = new LinkedHashMap<>();
        ops.put("REST empty", () -> send(get("/api/ping")));
        ops.put("REST moreInfo cache", () -> send(get("/api/entities/" + id + "?source=cache")));
        ops.put("REST moreInfo db", () -> send(get("/api/entities/" + id + "?source=db")));
        ops.put("REST updateDE", () -> {
            HttpResponse<String> r = send(HttpRequest.newBuilder(URI.create(base + "/api/entities/" + id))
                    .header("Content-Type", "application/merge-patch+json").header("If-Match", "\"" + version[0] + "\"")
                    .method("PATCH", HttpRequest.BodyPublishers.ofString("{\"metadata\":{\"notes\":\"n" + version[0] + "\"}}")));
            version[0] = Integer.parseInt(first(VERSION_JSON, r.body()));
            return r;
        });
        ops.put("SOAP empty", () -> soap("<de:empty/>"));
        ops.put("SOAP moreInfo cache", () -> soap("<de:moreInfo><de:id>" + id + "</de:id><de:source>cache</de:source></de:moreInfo>"));
        ops.put("SOAP moreInfo db", () -> soap("<de:moreInfo><de:id>" + id + "</de:id><de:source>db</de:source></de:moreInfo>"));
        ops.put("SOAP updateDE", () -> {
            HttpResponse<String> r = soap("<de:updateDE><de:id>" + id + "</de:id><de:field>notes</de:field><de:value>s" + version[0]
                    + "</de:value><de:expectedVersion>" + version[0] + "</de:expectedVersion></de:updateDE>");
            version[0] = Integer.parseInt(first(VERSION_XML, r.body()));
            return r;
        });

        System.out.printf("Idiom single-client latency at %s: %d calls per operation after %d warm-up calls%n", base, calls, warmup);
        System.out.printf("%-22s %9s %9s %9s %9s %7s %9s%n", "operation", "p50 ms", "p99 ms", "p99.9 ms", "mean ms", "x empty", "resp B");
        Map<String, Double> emptyP50 = new LinkedHashMap<>();
        List<String> failures = new ArrayList<>();
        // warm every path (JIT, pools, caches) before measuring any, so the order does not matter
        for (int i = 0; i < warmup; i++) {
            for (Map.Entry<String, Callable<HttpResponse<String>>> op : ops.entrySet()) {
                check(op.getKey(), op.getValue().call(), failures);
            }
        }
        for (Map.Entry<String, Callable<HttpResponse<String>>> op : ops.entrySet()) {
            Histogram h = new Histogram(60_000_000_000L, 3);
            int bytes = 0;
            for (int i = 0; i < calls; i++) {
                long t0 = System.nanoTime();
                HttpResponse<String> r = op.getValue().call();
                h.recordValue(System.nanoTime() - t0);
                check(op.getKey(), r, failures);
                bytes = r.body().length();
            }
            String protocol = op.getKey().substring(0, 4);
            double p50 = h.getValueAtPercentile(50) / 1e6;
            emptyP50.putIfAbsent(protocol, p50);
            System.out.printf("%-22s %9.3f %9.3f %9.3f %9.3f %7.2f %9d%n", op.getKey(), p50, h.getValueAtPercentile(99) / 1e6,
                    h.getValueAtPercentile(99.9) / 1e6, h.getMean() / 1e6, p50 / emptyP50.get(protocol), bytes);
        }
        if (!failures.isEmpty()) {
            System.out.println("FAILED calls: " + failures.size() + ", first: " + failures.getFirst());
            System.exit(1);
        }
    }

    private static void check(String op, HttpResponse<String> r, List<String> failures) {
        if (r.statusCode() >= 300) {
            failures.add(op + " -> " + r.statusCode() + " " + r.body());
        }
    }

    private HttpResponse<String> soap(String body) throws IOException, InterruptedException {
        return send(post("/services/DigitalEntityService", "text/xml; charset=UTF-8",
                "<soapenv:Envelope xmlns:soapenv=\"http://schemas.xmlsoap.org/soap/envelope/\" xmlns:de=\"http://idiom.dev/de/1\">"
                        + "<soapenv:Body>" + body + "</soapenv:Body></soapenv:Envelope>").header("SOAPAction", "\"\""));
    }

    private HttpRequest.Builder get(String path) {
        return HttpRequest.newBuilder(URI.create(base + path)).GET();
    }

    private HttpRequest.Builder post(String path, String type, String body) {
        return HttpRequest.newBuilder(URI.create(base + path)).header("Content-Type", type).POST(HttpRequest.BodyPublishers.ofString(body));
    }

    private HttpResponse<String> send(HttpRequest.Builder b) throws IOException, InterruptedException {
        return http.send(ApiKey.signed(b).build(), HttpResponse.BodyHandlers.ofString());
    }

    static String first(Pattern p, String s) {
        Matcher m = p.matcher(s);
        if (!m.find()) {
            throw new IllegalStateException("unexpected response: " + s);
        }
        return m.group(1);
    }
}
