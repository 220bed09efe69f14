package dev.idiom.services.web;

import dev.idiom.services.app.ErrorCode;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A bounded number of requests in service at once. Past it a request is refused at once, before
 * its body is read (503 + {@code Retry-After}, or a SOAP {@code Busy} fault), so the ones admitted
 * keep their latency and throughput holds flat past saturation instead of every request queueing
 * until it times out. Reads served from the cache are cheapest and keep a quarter more room. On
 * shutdown it stops admitting, then lets what is in service finish.
 */
public final class Admission extends HttpFilter {
    private final int limit;
    private final int cacheReadLimit;
    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicLong refused = new AtomicLong();
    private volatile boolean closing;

    /** @param limit requests in service at once ({@code 0}: no limit, only counted for the drain) */
    public Admission(int limit) {
        this.limit = limit;
        this.cacheReadLimit = limit + Math.max(1, limit / 4);
    }

    @Override
    protected void doFilter(HttpServletRequest req, HttpServletResponse res, FilterChain chain) throws IOException, ServletException {
        if (closing) {
            refuse(req, res, "Idiom is shutting down; retry on another node or in a moment");
            return;
        }
        int now = inFlight.incrementAndGet();
        try {
            if (limit > 0 && now > (cacheRead(req) ? cacheReadLimit : limit)) {
                refuse(req, res, "Idiom is serving " + limit + " requests, its limit (max-in-flight); retry in a second");
                return;
            }
            chain.doFilter(req, res);
        } finally {
            inFlight.decrementAndGet();
        }
    }

    private void refuse(HttpServletRequest req, HttpServletResponse res, String message) throws IOException {
        refused.incrementAndGet();
        res.setHeader("Retry-After", "1");
        Refusal.send(req, res, ErrorCode.BUSY, message);
    }

    /** MoreInfo that the cache may answer: a GET of one DE, not asked to bypass the cache. */
    private static boolean cacheRead(HttpServletRequest req) {
        String path = Refusal.path(req);
        return "GET".equals(req.getMethod()) && path.startsWith("/api/entities/") && path.indexOf('/', "/api/entities/".length()) < 0
                && (req.getQueryString() == null || !req.getQueryString().contains("source=db"));
    }

    public long refused() {
        return refused.get();
    }

    public int inFlight() {
        return inFlight.get();
    }

    /**
     * Stops admitting and waits for the requests in service to finish, at most {@code patience}.
     *
     * @return the requests still in service when it gave up (0: drained)
     */
    public int drain(Duration patience) {
        closing = true;
        long deadline = System.nanoTime() + patience.toNanos();
        while (inFlight.get() > 0 && System.nanoTime() < deadline) {
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        return inFlight.get();
    }
}
