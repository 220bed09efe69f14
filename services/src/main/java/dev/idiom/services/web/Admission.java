package dev.idiom.services.web;

import dev.idiom.db.TimeSource;
import dev.idiom.services.app.ErrorCode;
import dev.idiom.services.app.ServiceTime;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A bounded number of requests in service at once. Past it a request waits a short, bounded time
 * for a place (a burst is absorbed, and a client refused at once would only come straight back,
 * spending the CPU the admitted requests need); when no place frees in time, or too many already
 * wait, it is refused before its body is read (503 + {@code Retry-After}, or a SOAP {@code Busy}
 * fault). So the ones admitted keep their latency and throughput holds flat past saturation
 * instead of every request queueing until it times out. Reads served from the cache are cheapest
 * and keep a quarter more room. On shutdown it stops admitting, then lets what is in service finish.
 */
public final class Admission extends HttpFilter {
    private final int limit;
    private final Semaphore places;
    private final Semaphore cacheReadPlaces;
    private final Duration wait;
    private final int maxWaiting;
    private final AtomicInteger waiting = new AtomicInteger();
    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicLong refused = new AtomicLong();
    private final ServiceTime serviceTime = new ServiceTime();
    private volatile boolean closing;
    /** When a request was last refused ({@link TimeSource#nanoTime}), or 0. */
    private volatile long lastRefused;

    /**
     * @param limit requests in service at once ({@code 0}: no limit, only counted for the drain)
     * @param wait how long a request past the limit may wait for a place
     */
    public Admission(int limit, Duration wait) {
        this.limit = limit;
        this.places = new Semaphore(Math.max(limit, 1));
        this.cacheReadPlaces = new Semaphore(Math.max(1, limit / 4));
        this.wait = wait;
        this.maxWaiting = 4 * limit;
    }

    @Override
    protected void doFilter(HttpServletRequest req, HttpServletResponse res, FilterChain chain) throws IOException, ServletException {
        if (closing) {
            refuse(req, res, "Idiom is shutting down; retry on another node or in a moment");
            return;
        }
        // the ping and the login form take no place (a flood of them cannot starve the API), but are served and timed as any
        boolean anonymous = KeyCheck.anonymous(req);
        Semaphore place = limit > 0 && !anonymous ? admit(cacheRead(req)) : null;
        if (limit > 0 && !anonymous && place == null) {
            refuse(req, res, "Idiom is serving " + limit + " requests, its limit (max-in-flight), and none finished within "
                    + wait.toMillis() + " ms; retry in a second");
            return;
        }
        inFlight.incrementAndGet();
        long start = serviceTime.started();
        try {
            chain.doFilter(req, res);
        } finally {
            serviceTime.finished(start);
            inFlight.decrementAndGet();
            if (place != null) {
                place.release();
            }
        }
    }

    /** The place taken (a cache read may take one of its own), or null when none came free in time. */
    private Semaphore admit(boolean cacheRead) {
        if (places.tryAcquire()) {
            return places;
        }
        if (cacheRead && cacheReadPlaces.tryAcquire()) {
            return cacheReadPlaces;
        }
        if (wait.isZero()) {
            return null;
        }
        try {
            if (waiting.incrementAndGet() > maxWaiting) {
                return null;
            }
            return places.tryAcquire(wait.toNanos(), TimeUnit.NANOSECONDS) ? places : null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        } finally {
            waiting.decrementAndGet();
        }
    }

    private void refuse(HttpServletRequest req, HttpServletResponse res, String message) throws IOException {
        refused.incrementAndGet();
        lastRefused = TimeSource.nanoTime();
        res.setHeader("Retry-After", "1");
        Refusal.send(req, res, ErrorCode.BUSY, message);
    }

    /** MoreInfo that the cache may answer: a GET of one DE, not asked to bypass the cache. */
    private static boolean cacheRead(HttpServletRequest req) {
        String path = Refusal.path(req);
        return "GET".equals(req.getMethod()) && path.startsWith("/api/entities/") && path.indexOf('/', "/api/entities/".length()) < 0
                && (req.getQueryString() == null || !req.getQueryString().contains("source=db"));
    }

    /**
     * How long clients that can should hold back their requests (the Zotero API's {@code Backoff}), in
     * seconds: 10 while requests were refused in the last 10 s, 5 while other requests take three quarters
     * of the places, else 0 (asked from inside a request in service). Clients that honour it (Zotero desktop, pyzotero) then make only the requests they must.
     */
    public int backoffSeconds() {
        long last = lastRefused;
        if (last != 0 && TimeSource.nanoTime() - last < java.util.concurrent.TimeUnit.SECONDS.toNanos(10)) {
            return 10;
        }
        return limit > 0 && (inFlight.get() - 1) * 4 >= limit * 3 ? 5 : 0; // the others in service: the asking request is one
    }

    public long refused() {
        return refused.get();
    }

    /** The requests admitted and served since start, and their time inside Idiom and on the database. */
    public ServiceTime.Figures serviceTime() {
        return serviceTime.figures();
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
        long deadline = TimeSource.nanoTime() + patience.toNanos();
        while (inFlight.get() > 0 && TimeSource.nanoTime() < deadline) {
            try {
                TimeSource.sleep(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        return inFlight.get();
    }
}
