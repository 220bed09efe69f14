package dev.idiom.wrappers;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A local HTTP server on 127.0.0.1 and a free port that plays a tool's published API, for
 * wrapper tests. Subclasses answer requests; failures can be queued ahead of any request.
 */
public abstract class StubServer implements AutoCloseable {
    private final HttpServer server;
    private final Deque<Reply> injected = new ArrayDeque<>();
    private int requests;

    /** What a stub answers. */
    public record Reply(int status, Map<String, String> headers, String body) {
        public static Reply of(int status, String body, String... headers) {
            Map<String, String> h = new LinkedHashMap<>();
            for (int i = 0; i + 1 < headers.length; i += 2) {
                h.put(headers[i], headers[i + 1]);
            }
            return new Reply(status, h, body);
        }
    }

    /** A request as the stub sees it. */
    public record Request(String method, String path, Map<String, String> query, com.sun.net.httpserver.Headers headers, String body) {
        public String header(String name) {
            return headers.getFirst(name);
        }
    }

    protected StubServer() {
        this(null);
    }

    /**
     * With an executor the stub takes requests concurrently (a load test: the real service is not
     * one thread); without, one at a time on the server's own thread. Its state stays guarded by
     * the stub's lock either way.
     */
    protected StubServer(java.util.concurrent.Executor executor) {
        try {
            server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), executor == null ? 50 : 1024);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        server.createContext("/", this::handle);
        server.setExecutor(executor);
        server.start();
    }

    public URI uri() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    }

    /** Whether a queued failure goes to this request (a subclass may keep a request apart from the ones a test fails). */
    protected boolean takesInjected(String method, String path) {
        return true;
    }

    /** The next request gets this reply instead (a 429, a 500, …). */
    public synchronized void failNext(Reply reply) {
        injected.add(reply);
    }

    public synchronized int requests() {
        return requests;
    }

    /** Requests dropped while down (not counted in {@link #requests}). */
    public synchronized int dropped() {
        return dropped;
    }

    private int dropped;

    private volatile java.util.function.Consumer<String> beforeReply;

    /** Runs after each request was answered by the stub (its effect applied) and before the answer is sent: "METHOD /path status". */
    public void beforeReply(java.util.function.Consumer<String> hook) {
        this.beforeReply = hook;
    }

    /** Every request so far, as "METHOD /path status". */
    public synchronized List<String> log() {
        return List.copyOf(log);
    }

    /** Requests that write (any method but GET and HEAD), as "METHOD /path status". */
    public synchronized List<String> writes() {
        return log.stream().filter(l -> !l.startsWith("GET ") && !l.startsWith("HEAD ")).toList();
    }

    /** While down, every connection is dropped without an answer (the client sees a network failure). */
    public void down(boolean isDown) {
        this.down = isDown;
    }

    /** Every answer comes this late (a tool under load); zero for none. */
    public void slow(java.time.Duration d) {
        this.delay = d;
    }

    protected abstract Reply answer(Request request);

    private final List<String> log = new java.util.ArrayList<>();
    private volatile boolean down;
    private volatile java.time.Duration delay = java.time.Duration.ZERO;

    private void handle(HttpExchange x) throws IOException {
        if (down) {
            synchronized (this) {
                dropped++;
            }
            x.close(); // no status line: the connection just ends
            return;
        }
        if (!delay.isZero()) {
            try {
                Thread.sleep(delay);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        Reply reply;
        synchronized (this) {
            requests++;
            reply = takesInjected(x.getRequestMethod(), x.getRequestURI().getRawPath()) ? injected.poll() : null;
        }
        if (reply == null) {
            String body = new String(x.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            try {
                synchronized (this) {
                    reply = answer(new Request(x.getRequestMethod(), x.getRequestURI().getRawPath(), query(x.getRequestURI()), x.getRequestHeaders(), body));
                }
            } catch (RuntimeException e) {
                reply = Reply.of(500, "stub failure: " + e);
            }
        }
        synchronized (this) {
            log.add(x.getRequestMethod() + " " + x.getRequestURI().getRawPath() + " " + reply.status());
        }
        java.util.function.Consumer<String> hook = beforeReply;
        if (hook != null) {
            hook.accept(x.getRequestMethod() + " " + x.getRequestURI().getRawPath() + " " + reply.status());
        }
        reply.headers().forEach((k, v) -> x.getResponseHeaders().add(k, v));
        byte[] bytes = reply.body() == null ? new byte[0] : reply.body().getBytes(StandardCharsets.UTF_8);
        if (reply.status() == 204 || reply.status() == 304) {
            x.sendResponseHeaders(reply.status(), -1);
        } else {
            x.sendResponseHeaders(reply.status(), bytes.length == 0 ? -1 : bytes.length);
            try (OutputStream out = x.getResponseBody()) {
                out.write(bytes);
            }
        }
        x.close();
    }

    private static Map<String, String> query(URI uri) {
        Map<String, String> q = new LinkedHashMap<>();
        if (uri.getRawQuery() != null) {
            for (String kv : uri.getRawQuery().split("&")) {
                int eq = kv.indexOf('=');
                String k = URLDecoder.decode(eq < 0 ? kv : kv.substring(0, eq), StandardCharsets.UTF_8);
                q.put(k, eq < 0 ? "" : URLDecoder.decode(kv.substring(eq + 1), StandardCharsets.UTF_8));
            }
        }
        return q;
    }

    @Override
    public void close() {
        server.stop(0);
    }

    /** MD5 in hex: the hash several services use for ids (Pinboard's post hash, BibSonomy's). */
    public static String md5(String s) {
        try {
            return java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("MD5")
                    .digest(s.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
