package dev.idiom.services.web;

import dev.idiom.consistency.report.ImportSummary;
import dev.idiom.consistency.report.SyncReport;
import dev.idiom.db.TimeSource;
import dev.idiom.services.app.Application;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A curator's "Sync now", run on a thread of its own: the page waits a few seconds for it, and a
 * sync that takes longer (a first import of a large library) goes on while the account's page shows
 * how many records it has read and how fast. One sync per account at a time from the workspace.
 */
final class CuratorSyncs {
    /** How long the page that asked waits before it answers "under way". */
    static final Duration WAIT = Duration.ofSeconds(5);

    private final Application app;
    private final Map<String, Running> running = new ConcurrentHashMap<>();

    CuratorSyncs(Application app) {
        this.app = app;
    }

    /** A sync under way: what it has read so far and since when. */
    record Running(Instant started, AtomicReference<String> soFar, CompletableFuture<SyncReport> done) {
        /** "1,234 records read (410 records/s)". */
        String said() {
            return soFar.get();
        }
    }

    /** What a finished sync did, as the page says it. */
    static String said(String account, SyncReport r) {
        return "Synced " + account + ": " + r.pulled().records() + " records read, " + r.pushedCount() + " copies written"
                + (r.unlinked() == 0 ? "" : ", " + r.unlinked() + " copies unlinked") + (r.queued() == null ? "" : "; " + r.queued())
                + (r.held() == null ? "" : "; held: " + r.held());
    }

    /**
     * How the last sync the workspace started on {@code account} ended, once it has: what it did, or
     * why it failed (a sync that outlived the page's wait has no page left to say so).
     */
    Optional<String> ended(String account) {
        Running r = running.get(account);
        if (r == null || !r.done().isDone()) {
            return Optional.empty();
        }
        try {
            return Optional.of(said(account, r.done().getNow(null)));
        } catch (java.util.concurrent.CompletionException | java.util.concurrent.CancellationException e) {
            Throwable why = e.getCause() == null ? e : e.getCause();
            return Optional.of("The sync of " + account + " failed: " + (why.getMessage() == null ? why.getClass().getSimpleName() : why.getMessage()));
        }
    }

    /** The sync under way on {@code account}, if the workspace started one that has not ended. */
    Optional<Running> of(String account) {
        return Optional.ofNullable(running.get(account)).filter(r -> !r.done().isDone());
    }

    /**
     * Starts a sync of {@code account} (or joins the one under way) and waits up to {@link #WAIT} for it:
     * its report, or empty if it goes on.
     *
     * @throws RuntimeException what the sync failed with, if it failed within the wait
     */
    Optional<SyncReport> syncNow(String account) {
        Running r = running.compute(account, (name, was) -> was != null && !was.done().isDone() ? was : start(name));
        try {
            return Optional.of(r.done().get(WAIT.toMillis(), TimeUnit.MILLISECONDS));
        } catch (TimeoutException goesOn) {
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException failed ? failed : new IllegalStateException(e.getCause());
        }
    }

    private Running start(String account) {
        AtomicReference<String> soFar = new AtomicReference<>("starting");
        CompletableFuture<SyncReport> done = new CompletableFuture<>();
        long t0 = TimeSource.nanoTime();
        Running r = new Running(app.clock().instant(), soFar, done);
        Thread.ofVirtual().name("idiom-curator-sync-" + account).start(() -> {
            try {
                done.complete(app.sync().sync(account, false, (ImportSummary s, int inPage, int pageSize, boolean last) -> {
                    double seconds = (TimeSource.nanoTime() - t0) / 1e9;
                    int read = s.records();
                    soFar.set(String.format(java.util.Locale.ROOT, "%,d records read (%,.0f records/s)%s", read, seconds > 0 ? read / seconds : 0,
                            last ? "; the last page: writing what the rules owe" : ""));
                }));
            } catch (RuntimeException e) {
                done.completeExceptionally(e);
            }
        });
        return r;
    }
}
