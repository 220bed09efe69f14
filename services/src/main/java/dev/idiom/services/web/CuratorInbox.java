package dev.idiom.services.web;

import dev.idiom.consistency.report.AccountConsistency;
import dev.idiom.consistency.report.ConflictEntry;
import dev.idiom.consistency.report.ParkedWrite;
import dev.idiom.db.TimeSource;
import dev.idiom.services.app.Application;
import dev.idiom.services.app.Caller;
import dev.idiom.services.app.EntityLifecycle;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

/**
 * What waits for a person, read from the application layer: every account's row, the writes tools
 * refused, open conflicts, likely duplicates and held deletions. The count every page's navigation
 * shows is taken at most once a second, however many pages ask (the live feed asks every tick).
 */
final class CuratorInbox {
    /** Rows of each list shown at most. */
    static final int SHOWN = 50;
    /** Curators and admins see the same inbox: private records included. */
    private static final Caller WORKSPACE = new Caller("curator workspace", dev.idiom.services.app.Operation.CURATOR_WORKSPACE.role());

    /** How long a reading serves the navigation's count (measured on the machine's clock: a test's fixed clock would keep it forever). */
    private static final long FRESH_NANOS = Duration.ofSeconds(1).toNanos();

    private final Application app;
    private final PageTemplates pages;
    private final AtomicReference<Counted> counted = new AtomicReference<>();
    private final java.util.concurrent.atomic.AtomicBoolean refreshing = new java.util.concurrent.atomic.AtomicBoolean();
    private static final java.util.logging.Logger LOG = java.util.logging.Logger.getLogger(CuratorInbox.class.getName());

    CuratorInbox(Application app, PageTemplates pages) {
        this.app = app;
        this.pages = pages;
    }

    /** The workspace's templates. */
    PageTemplates pages() {
        return pages;
    }

    /** Everything in the inbox, as of now. */
    record Contents(List<CuratorPage.Row> rows, List<CuratorPage.Parked> parked, List<ConflictEntry> conflicts,
                    List<EntityLifecycle.DuplicatePair> duplicates) {
        long waiting() {
            return parked.size() + conflicts.size() + duplicates.size() + rows.stream().filter(r -> r.account().held() != null).count();
        }
    }

    private record Counted(Contents contents, long atNanos) {}

    /** Everything in the inbox, as of now: its four readings side by side (each is a query of its own). */
    Contents read() {
        Instant now = app.clock().instant();
        try (var side = java.util.concurrent.Executors.newVirtualThreadPerTaskExecutor()) {
            var conflicts = side.submit(() -> app.sync().conflicts("open", Long.MAX_VALUE, SHOWN));
            var duplicates = side.submit(() -> app.lifecycle().duplicates(SHOWN, WORKSPACE));
            List<AccountConsistency> accounts = app.sync().report();
            List<CuratorPage.Parked> parked = new ArrayList<>();
            for (AccountConsistency a : accounts) {
                if (a.parked() > 0) {
                    for (ParkedWrite w : app.sync().parked(a.name(), SHOWN)) {
                        parked.add(new CuratorPage.Parked(a.name(), w));
                    }
                }
            }
            List<CuratorPage.Row> rows = accounts.stream().map(a -> new CuratorPage.Row(a, CuratorPage.ago(a.lastPullAt(), now),
                    CuratorPage.ago(a.lastPushAt(), now), a.lastPullAt(), a.lastPushAt(), app.sync().failure(a.name())
                            .map(f -> f.error() + " (" + CuratorPage.ago(f.at(), now) + (f.timesInARow() > 1 ? ", " + f.timesInARow() + " times in a row" : "")
                                    + ")")
                            .orElse(null))).toList();
            Contents c = new Contents(rows, parked, conflicts.get(), duplicates.get());
            counted.set(new Counted(c, TimeSource.nanoTime()));
            return c;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while reading the curator's inbox", e);
        } catch (java.util.concurrent.ExecutionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
        }
    }

    /**
     * The inbox as of at most about a second ago: a reading over a second old is served while one
     * thread reads it again (on 20,000 DEs a reading takes tens of milliseconds: the duplicates' join
     * and the open conflicts), so no page waits for it; with no reading yet (or after an action), read now.
     */
    Contents recent() {
        Counted c = counted.get();
        if (c == null) {
            return read();
        }
        if (TimeSource.nanoTime() - c.atNanos() >= FRESH_NANOS && refreshing.compareAndSet(false, true)) {
            Thread.ofVirtual().name("idiom-curator-inbox").start(() -> {
                try {
                    read();
                } catch (RuntimeException e) {
                    LOG.log(java.util.logging.Level.FINE, "the curator's inbox could not be read again: " + e.getMessage(), e);
                } finally {
                    refreshing.set(false);
                }
            });
        }
        return c.contents();
    }

    /** After an action: the next page reads the inbox again. */
    void changed() {
        counted.set(null);
    }

    /** The fragment the live feed sends: the count, and each account's state for its place on the page. */
    String live() {
        Contents c = recent();
        return pages.render("live.jte", Map.of("waiting", c.waiting(), "rows", c.rows())).strip();
    }
}
