package dev.idiom.services.web;

import dev.idiom.db.TimeSource;
import dev.idiom.events.FeedFollower;
import jakarta.servlet.AsyncContext;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The console's live figures as Server-Sent Events. One snapshot is taken per tick, however many
 * pages watch (several figures query the database), and offered to each page; each page has a
 * writer of its own that sends only the latest snapshot when it gets to write — a slow page skips
 * snapshots instead of queueing them, and never holds up another. So the cost stays bounded while
 * Idiom runs at saturation: one snapshot per tick, one slot per page.
 */
final class LiveFeed implements AutoCloseable {
    private static final Logger LOG = Logger.getLogger(LiveFeed.class.getName());
    private static final int MOST_PAGES = 64;

    private final String event;
    private final Supplier<String> snapshot;
    private final Duration tick;
    private final boolean changesOnly;
    private final Set<Page> pages = ConcurrentHashMap.newKeySet();
    /** Ticks by the followers' one mechanism (a snapshot that fails is skipped, logged; the next tick tries again). */
    private final FeedFollower ticker;

    /**
     * @param event the name each snapshot is sent under
     * @param changesOnly send a page a snapshot only when it differs from the last it got (a page
     *     whose script swaps the snapshot into place need not redo it every tick)
     */
    LiveFeed(String event, Supplier<String> snapshot, Duration tick, boolean changesOnly) {
        this.event = event;
        this.snapshot = snapshot;
        this.tick = tick;
        this.changesOnly = changesOnly;
        this.ticker = FeedFollower.of("idiom-live-feed-" + event, tick, Integer.MAX_VALUE, TimeSource.SYSTEM, () -> {
            publish();
            return 0;
        }).start(tick);
    }

    private void publish() {
        if (pages.isEmpty()) {
            return;
        }
        String s;
        try {
            s = snapshot.get();
        } catch (RuntimeException e) {
            LOG.log(Level.FINE, "no live snapshot this tick: " + e.getMessage(), e);
            return;
        }
        pages.forEach(p -> {
            if (p.allowed.getAsBoolean()) {
                p.offer(s);
            } else {
                p.end(); // its key was revoked: the stream ends within a tick
            }
        });
    }

    /**
     * Starts streaming to this request; returns at once (the response stays open).
     *
     * @param allowed asked every tick: false ends the stream (the key it was opened with was revoked)
     */
    void subscribe(HttpServletRequest req, HttpServletResponse res, java.util.function.BooleanSupplier allowed) throws IOException {
        if (pages.size() >= MOST_PAGES) {
            res.setStatus(503);
            res.setHeader("Retry-After", "10");
            res.setContentType("text/plain;charset=UTF-8");
            res.getWriter().write("too many live pages open (" + MOST_PAGES + "); close one and reload\n");
            return;
        }
        res.setContentType("text/event-stream;charset=UTF-8");
        res.setHeader("Cache-Control", "no-store");
        res.setHeader("X-Accel-Buffering", "no"); // a proxy in front must not hold the stream back
        AsyncContext async = req.startAsync();
        async.setTimeout(0);
        Page page = new Page(async, res.getWriter(), allowed);
        async.addListener(new AsyncListener() { // the connection closed or failed: stop writing to it
            @Override
            public void onComplete(AsyncEvent e) {
                page.end();
            }

            @Override
            public void onTimeout(AsyncEvent e) {
                page.end();
            }

            @Override
            public void onError(AsyncEvent e) {
                page.end();
            }

            @Override
            public void onStartAsync(AsyncEvent e) {
                // not restarted
            }
        });
        pages.add(page);
        page.writer = Thread.ofVirtual().name("idiom-live-page").start(page::run);
        page.offer(snapshot.get()); // the first figures at once, not a tick later
    }

    int pages() {
        return pages.size();
    }

    @Override
    public void close() {
        ticker.close();
        pages.forEach(Page::end);
    }

    private final class Page {
        private final AsyncContext async;
        private final PrintWriter out;
        private final AtomicReference<String> latest = new AtomicReference<>();
        private volatile Thread writer;
        private volatile boolean ended;
        private final java.util.function.BooleanSupplier allowed;

        Page(AsyncContext async, PrintWriter out, java.util.function.BooleanSupplier allowed) {
            this.async = async;
            this.out = out;
            this.allowed = allowed;
        }

        void offer(String s) {
            latest.set(s); // drop to latest: an unsent older snapshot is replaced
            Thread w = writer;
            if (w != null) {
                LockSupport.unpark(w);
            }
        }

        void run() {
            try {
                out.write("retry: 2000\n\n");
                String sent = null;
                while (!ended) {
                    String s = latest.getAndSet(null);
                    if (s == null || changesOnly && s.equals(sent)) {
                        LockSupport.parkNanos(tick.toNanos());
                        continue;
                    }
                    if (ended) {
                        break;
                    }
                    try {
                        // a line break inside the snapshot starts another data line: the page gets it back whole
                        out.write("event: " + event + "\ndata: " + s.replace("\r", "").replace("\n", "\ndata: ") + "\n\n");
                        out.flush();
                        sent = s;
                    } catch (RuntimeException recycled) {
                        break; // the container ended this response meanwhile (the page went away)
                    }
                    if (out.checkError()) { // the page went away
                        break;
                    }
                }
            } finally {
                end();
            }
        }

        void end() {
            if (pages.remove(this)) {
                ended = true;
                try {
                    async.complete();
                } catch (IllegalStateException alreadyDone) {
                    // the container completed it (the connection closed)
                }
                Thread w = writer;
                if (w != null) {
                    LockSupport.unpark(w);
                }
            }
        }
    }
}
