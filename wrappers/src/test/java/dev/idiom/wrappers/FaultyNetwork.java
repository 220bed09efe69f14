package dev.idiom.wrappers;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.Executors;

/**
 * A proxy between an adapter and a tool's stand-in that meets a share of the calls with what real
 * networks and real services do: 429 with {@code Retry-After}, {@code Backoff} on an answer,
 * 500/502/503, a connection reset before the tool saw the call, an answer lost after the tool applied
 * it, an answer slower than the caller's timeout (the call applied all the same), a body cut off midway. Which call meets what is drawn from a seeded generator, so a schedule
 * is named by its seed; {@link #counts()} says what was injected.
 */
public final class FaultyNetwork implements AutoCloseable {
    /** What a call can meet. */
    public enum Fault {
        RATE_LIMITED, BACKOFF, SERVER_ERROR, BAD_GATEWAY, UNAVAILABLE, RESET, ANSWER_LOST, TRUNCATED, SLOW
    }

    /** How late a {@link Fault#SLOW} answer comes, after the tool applied the call: past the caller's call timeout. */
    public static final Duration SLOW_BY = Duration.ofMillis(1500);

    private static final Set<String> HOP_BY_HOP = Set.of("connection", "content-length", "transfer-encoding", "host", "upgrade", "keep-alive",
            "expect", "te", "trailer", "date");
    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    private final URI target;
    private final HttpServer server;
    private final SplittableRandom random;
    private volatile double share;
    private final Map<Fault, Integer> counts = new EnumMap<>(Fault.class);
    private int calls;

    /** @param share the part of calls that meet a fault (0 to 1) */
    public FaultyNetwork(URI target, long seed, double share) {
        this.target = target;
        this.random = new SplittableRandom(seed);
        this.share = share;
        try {
            server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        server.createContext("/", this::handle);
        server.start();
    }

    /** Where the adapter calls: the stand-in's address through the proxy. */
    public URI uri() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    }

    /** From now on this share of calls meets a fault (zero: the network heals). */
    public void share(double share) {
        this.share = share;
    }

    /** How many calls met each fault so far. */
    public synchronized Map<Fault, Integer> counts() {
        return new EnumMap<>(counts);
    }

    /** How many calls came through so far. */
    public synchronized int calls() {
        return calls;
    }

    private synchronized Fault draw() {
        calls++;
        if (random.nextDouble() >= share) {
            return null;
        }
        Fault f = Fault.values()[random.nextInt(Fault.values().length)];
        counts.merge(f, 1, Integer::sum);
        return f;
    }

    private void handle(HttpExchange x) throws IOException {
        try (x) {
            byte[] body = x.getRequestBody().readAllBytes();
            Fault fault = draw();
            if (fault == Fault.RESET) {
                return; // closed without a status line: the tool never saw the call
            }
            if (fault == Fault.RATE_LIMITED) {
                answer(x, 429, Map.of("Retry-After", List.of("2")), "Too many requests".getBytes());
                return;
            }
            if (fault == Fault.SERVER_ERROR || fault == Fault.BAD_GATEWAY || fault == Fault.UNAVAILABLE) {
                answer(x, fault == Fault.SERVER_ERROR ? 500 : fault == Fault.BAD_GATEWAY ? 502 : 503, Map.of(), "fault".getBytes());
                return;
            }
            HttpResponse<byte[]> there = forward(x, body);
            if (fault == Fault.ANSWER_LOST) {
                return; // the tool applied the call; its answer never reaches the caller
            }
            if (fault == Fault.SLOW) {
                Thread.sleep(SLOW_BY); // applied; the answer comes after the caller gave up
            }
            Map<String, List<String>> headers = new java.util.HashMap<>(there.headers().map());
            if (fault == Fault.BACKOFF) {
                headers.put("Backoff", List.of("3"));
            }
            byte[] answered = fault == Fault.TRUNCATED ? java.util.Arrays.copyOf(there.body(), there.body().length / 2) : there.body();
            answer(x, there.statusCode(), headers, answered);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private HttpResponse<byte[]> forward(HttpExchange x, byte[] body) throws IOException, InterruptedException {
        HttpRequest.Builder b = HttpRequest.newBuilder(target.resolve(x.getRequestURI().toString())).timeout(Duration.ofSeconds(30))
                .method(x.getRequestMethod(), body.length == 0 ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofByteArray(body));
        x.getRequestHeaders().forEach((k, vs) -> {
            if (!HOP_BY_HOP.contains(k.toLowerCase(java.util.Locale.ROOT))) {
                vs.forEach(v -> b.header(k, v));
            }
        });
        return CLIENT.send(b.build(), HttpResponse.BodyHandlers.ofByteArray());
    }

    private static void answer(HttpExchange x, int status, Map<String, List<String>> headers, byte[] body) throws IOException {
        headers.forEach((k, vs) -> {
            if (!HOP_BY_HOP.contains(k.toLowerCase(java.util.Locale.ROOT)) && !k.startsWith(":")) {
                vs.forEach(v -> x.getResponseHeaders().add(k, v));
            }
        });
        boolean empty = status == 204 || status == 304;
        x.sendResponseHeaders(status, empty ? -1 : body.length == 0 ? -1 : body.length);
        if (!empty && body.length > 0) {
            try (OutputStream out = x.getResponseBody()) {
                out.write(body);
            }
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
