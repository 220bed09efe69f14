package dev.idiom.services;

import dev.idiom.events.Author;
import dev.idiom.events.Field;
import dev.idiom.events.Metadata;
import dev.idiom.services.app.Application;
import dev.idiom.consistency.report.ImportSummary;
import dev.idiom.services.app.ReplicaSync;
import dev.idiom.wrappers.bibsonomy.BibSonomyStub;
import dev.idiom.wrappers.zotero.ZoteroStub;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The consistency engine's figures against the local stubs (a benchmark, run by
 * {@code perf/sync-bench.sh}; not a test): propagation lag at a steady update rate, and the cost
 * of a no-change sync of a large library. The service runs as configured by default (embedded
 * MariaDB, durable commits), with the background engine on.
 *
 * <p>Arguments: {@code --items 50000 --entities 200 --rate 20 --seconds 60 --interval-ms 2000}.
 */
public final class SyncBench {
    private SyncBench() {}

    public static void main(String[] args) throws Exception {
        Map<String, String> a = new java.util.HashMap<>(Map.of("items", "50000", "entities", "200", "rate", "20", "seconds", "60",
                "interval-ms", "2000"));
        for (int i = 0; i + 1 < args.length; i += 2) {
            a.put(args[i].replaceFirst("^--", ""), args[i + 1]);
        }
        lag(Integer.parseInt(a.get("entities")), Integer.parseInt(a.get("rate")), Integer.parseInt(a.get("seconds")), a.get("interval-ms"));
        largeLibrary(Integer.parseInt(a.get("items")));
    }

    /** A bench's data directory, removed when the bench part ends (each held a MariaDB of hundreds of MB that stayed in /tmp). */
    record Removed(Path dir) implements AutoCloseable {
        @Override
        public void close() throws java.io.IOException {
            try (var paths = Files.walk(dir)) {
                paths.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    static Idiom idiom(Path data, String intervalMs) {
        return Idiom.start(IdiomConfig.from(Map.of("data", data.toString(), "sync-interval-ms", intervalMs, "pull-interval-ms", "0",
                "check-interval-ms", "0", "local-tool-hosts", "true"), Map.of("IDIOM_SECRET_KEY", RunningIdiom.SECRET_KEY), k -> null));
    }

    /** Steady updates of random DEs, each with a Zotero and a BibSonomy replica; the engine pushes in the background. */
    private static void lag(int entities, int rate, int seconds, String intervalMs) throws Exception {
        Path data = Files.createTempDirectory("idiom-sync-bench");
        try (SyncBench.Removed removed = new SyncBench.Removed(data); ZoteroStub zotero = new ZoteroStub(); BibSonomyStub bibsonomy = new BibSonomyStub(); Idiom idiom = idiom(data, intervalMs)) {
            Application app = idiom.application();
            app.tools().accounts().put("zot", "zotero", zotero.uri().toString(), ZoteroStub.LIBRARY, ZoteroStub.KEY);
            app.tools().accounts().put("bib", "bibsonomy", bibsonomy.uri().toString(), BibSonomyStub.USER, BibSonomyStub.KEY);
            List<UUID> ids = new ArrayList<>();
            System.out.printf("lag: uploading %d DEs to Zotero and BibSonomy stubs…%n", entities);
            for (int i = 0; i < entities; i++) {
                Metadata m = Metadata.EMPTY.with(Field.TYPE, "article-journal").with(Field.TITLE, "Replicated paper " + i)
                        .with(Field.AUTHORS, List.of(new Author("Author" + i, "A."))).with(Field.YEAR, 1990 + i % 30)
                        .with(Field.TAGS, new TreeSet<>(Set.of("bench")));
                UUID id = app.writes().create(m, "bench").entity().id();
                app.replicas().upload(id, "zot");
                app.replicas().upload(id, "bib");
                ids.add(id);
            }
            System.out.printf("lag: %d updates/s for %d s, engine every %s ms…%n", rate, seconds, intervalMs);
            long start = System.nanoTime();
            Updates u = steadyUpdates(app, ids, rate, seconds, () -> false);
            int updates = u.made();
            int stale = u.stale();
            long deadline = System.nanoTime() + 120_000_000_000L;
            while (!app.sync().owed(1).isEmpty() && System.nanoTime() < deadline) {
                Thread.sleep(100);
            }
            System.out.printf("lag: %d updates (%d refused as stale and not retried), everything acknowledged %.1f s after the last%n", updates, stale,
                    (System.nanoTime() - start) / 1e9 - seconds);
            for (dev.idiom.consistency.report.AccountConsistency c : app.sync().report()) {
                System.out.printf(Locale.ROOT, "lag: %-4s %-9s pushes %5d  p50 %5d ms  p99 %5d ms  max %5d ms  (in sync %d/%d, pending %d)%n", c.name(),
                        c.kind(), c.lag().samples(), c.lag().p50(), c.lag().p99(), c.lag().max(), c.inSync(), c.replicas(), c.pending());
            }
        }
    }

    /** What a run of steady updates made: updates, those refused as stale (not retried), and those made while {@code during} held. */
    record Updates(int made, int stale, int during) {}

    /** {@code rate} updates a second of random DEs among {@code ids} (a new volume each) for {@code seconds}, paced from one thread. */
    static Updates steadyUpdates(Application app, List<UUID> ids, int rate, int seconds, java.util.function.BooleanSupplier during)
            throws InterruptedException {
        long period = 1_000_000_000L / rate;
        long start = System.nanoTime();
        int updates = 0;
        int stale = 0;
        int duringCount = 0;
        for (long next = start; next < start + seconds * 1_000_000_000L; next += period) {
            long wait = next - System.nanoTime();
            if (wait > 0) {
                Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
            }
            UUID id = ids.get(ThreadLocalRandom.current().nextInt(ids.size()));
            try {
                int version = app.reads().describe(id, dev.idiom.services.app.ReadPath.DB).entity().version();
                app.writes().patch(id, Map.of(Field.VOLUME, Integer.toString(updates)), version, "bench");
                updates++;
                if (during.getAsBoolean()) {
                    duringCount++;
                }
            } catch (dev.idiom.events.StaleVersionException raced) {
                stale++; // the engine's acknowledgement landed between the read and the write
            }
        }
        return new Updates(updates, stale, duringCount);
    }

    /** A library of {@code items} Zotero items imported, then synced with no change: time and memory of that sync. */
    private static void largeLibrary(int items) throws Exception {
        Path data = Files.createTempDirectory("idiom-sync-bench");
        try (SyncBench.Removed removed = new SyncBench.Removed(data); ZoteroStub zotero = new ZoteroStub(); Idiom idiom = idiom(data, "0")) {
            Application app = idiom.application();
            app.tools().accounts().put("zot", "zotero", zotero.uri().toString(), ZoteroStub.LIBRARY, ZoteroStub.KEY);
            for (int i = 0; i < items; i++) {
                zotero.addRemotely("{\"itemType\": \"journalArticle\", \"title\": \"Paper number " + i + "\", \"creators\": [{\"creatorType\": "
                        + "\"author\", \"lastName\": \"Author" + i + "\", \"firstName\": \"A.\"}], \"date\": \"" + (1950 + i % 70) + "\"}");
            }
            System.out.printf("library: importing %d Zotero items…%n", items);
            long t0 = System.nanoTime();
            ImportSummary first = app.sync().sync("zot", false, (s, d, n, l) -> { }).pulled();
            System.out.printf(Locale.ROOT, "library: first sync %s (%.1f s)%n", first, (System.nanoTime() - t0) / 1e9);
            for (int round = 1; round <= 3; round++) {
                System.gc();
                long heapBefore = usedHeap();
                com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
                long allocated = threads.getCurrentThreadAllocatedBytes();
                int requests = zotero.requests();
                long t = System.nanoTime();
                dev.idiom.consistency.report.SyncReport r = app.sync().sync("zot", false, (s, d, n, l) -> { });
                double ms = (System.nanoTime() - t) / 1e6;
                long alloc = threads.getCurrentThreadAllocatedBytes() - allocated;
                System.gc();
                System.out.printf(Locale.ROOT, "library: no-change sync %d of %d items: %.1f ms, %d requests to Zotero, %d records pulled, %d pushed, "
                        + "%.1f KB allocated by the syncing thread, heap after GC %+.1f MB%n", round, items, ms, zotero.requests() - requests,
                        r.pulled().records(), r.pushedCount(), alloc / 1024.0, (usedHeap() - heapBefore) / 1048576.0);
            }
            System.out.printf(Locale.ROOT, "library: heap used after GC with %d DEs in the store: %.0f MB%n", items, usedHeap() / 1048576.0);
            long t1 = System.nanoTime();
            dev.idiom.consistency.report.CheckReport c = app.sync().check("zot");
            System.out.printf(Locale.ROOT, "library: anti-entropy check of all %d: %.1f s, %d divergent, %d repaired%n", c.listed(),
                    (System.nanoTime() - t1) / 1e9, c.divergent(), c.repaired());
        }
    }

    private static long usedHeap() {
        Runtime rt = Runtime.getRuntime();
        return rt.totalMemory() - rt.freeMemory();
    }
}
