package dev.idiom.services;

import dev.idiom.consistency.MirrorRule;
import dev.idiom.consistency.report.AccountConsistency;
import dev.idiom.consistency.report.PushOutcome;
import dev.idiom.events.Author;
import dev.idiom.events.Field;
import dev.idiom.events.Metadata;
import dev.idiom.services.app.Application;
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
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Replication rules' figures against the local stubs (a benchmark, run by {@code perf/mirror-bench.sh};
 * not a test): a first mirror of a Zotero library into a BibTeX file; a no-change round over two
 * mirrored accounts of a large library; propagation lag to Zotero while a first mirror runs into
 * another account. The service runs as configured by default (embedded MariaDB, durable commits).
 *
 * <p>Arguments: {@code --first 5000 --large 50000 --entities 200 --rate 20 --seconds 30}.
 */
public final class MirrorBench {
    private MirrorBench() {}

    public static void main(String[] args) throws Exception {
        Map<String, String> a = new java.util.HashMap<>(Map.of("first", "5000", "large", "50000", "entities", "200", "rate", "20", "seconds", "30"));
        for (int i = 0; i + 1 < args.length; i += 2) {
            a.put(args[i].replaceFirst("^--", ""), args[i + 1]);
        }
        firstMirror(Integer.parseInt(a.get("first")));
        noChangeRound(Integer.parseInt(a.get("large")));
        lagDuringFirstMirror(Integer.parseInt(a.get("entities")), Integer.parseInt(a.get("rate")), Integer.parseInt(a.get("seconds")),
                Integer.parseInt(a.get("first")));
    }

    private static void zoteroItems(ZoteroStub zotero, int n) {
        for (int i = 0; i < n; i++) {
            zotero.addRemotely("{\"itemType\": \"journalArticle\", \"title\": \"Paper number " + i + "\", \"creators\": [{\"creatorType\": "
                    + "\"author\", \"lastName\": \"Author" + i + "\", \"firstName\": \"A.\"}], \"date\": \"" + (1950 + i % 70) + "\", "
                    + "\"tags\": [{\"tag\": \"t" + (i % 13) + "\"}]}");
        }
    }

    private static MirrorRule rule(String json) {
        try {
            return MirrorRule.of(new com.fasterxml.jackson.databind.ObjectMapper().readTree(json), null);
        } catch (java.io.IOException e) {
            throw new IllegalArgumentException(e);
        }
    }

    /** A Zotero library brought in, then a BibTeX file given the rule "from zot": the time until the file holds every item. */
    private static void firstMirror(int items) throws Exception {
        Path data = Files.createTempDirectory("idiom-mirror-bench");
        try (SyncBench.Removed removed = new SyncBench.Removed(data); ZoteroStub zotero = new ZoteroStub(); Idiom idiom = SyncBench.idiom(data, "0")) {
            Application app = idiom.application();
            app.tools().accounts().put("zot", "zotero", zotero.uri().toString(), ZoteroStub.LIBRARY, ZoteroStub.KEY, null, null, false,
                    MirrorRule.of(null, "receive-only"));
            zoteroItems(zotero, items);
            System.out.printf("first: bringing in %d Zotero items…%n", items);
            app.sync().sync("zot", false, (s, d, n, l) -> { });
            Path bib = data.resolve("files").resolve("library.bib");
            app.tools().accounts().put("library", "bibtex", "library.bib", "", null, null, null, false, rule("{\"from\": [\"zot\"]}"));
            long t = System.nanoTime();
            dev.idiom.consistency.Mirrors.Planned planned = app.sync().planMirrors();
            double planMs = (System.nanoTime() - t) / 1e6;
            Map<PushOutcome, Integer> pushed = app.sync().pushOwed();
            double s = (System.nanoTime() - t) / 1e9;
            long entries = Files.readString(bib).lines().filter(l -> l.startsWith("@")).count();
            System.out.printf(Locale.ROOT, "first: mirror of %d Zotero items into a BibTeX file: %.2f s (planning %.0f ms, %d copies owed), "
                    + "%d copied, the file holds %d entries, %.0f records/s%n", items, s, planMs, planned.copies(),
                    pushed.getOrDefault(PushOutcome.COPIED, 0), entries, items / s);
        }
    }

    /** Two accounts mirroring everything, {@code items} each; then rounds with nothing new: their time and what they did. */
    private static void noChangeRound(int items) throws Exception {
        Path data = Files.createTempDirectory("idiom-mirror-bench");
        try (SyncBench.Removed removed = new SyncBench.Removed(data); ZoteroStub zotero = new ZoteroStub(); Idiom idiom = SyncBench.idiom(data, "0")) {
            Application app = idiom.application();
            zoteroItems(zotero, items);
            app.tools().accounts().put("zot", "zotero", zotero.uri().toString(), ZoteroStub.LIBRARY, ZoteroStub.KEY, null, null, false,
                    rule("\"all\""));
            app.tools().accounts().put("library", "bibtex", "library.bib", "", null, null, null, false, rule("\"all\""));
            System.out.printf("round: bringing in %d Zotero items and mirroring them into a BibTeX file…%n", items);
            long t0 = System.nanoTime();
            dev.idiom.consistency.report.SyncReport first = app.sync().sync("zot", false, (s, d, n, l) -> { });
            while (!app.sync().owed(1).isEmpty()) {
                app.sync().pushOwed();
            }
            System.out.printf(Locale.ROOT, "round: set up in %.1f s (%d pulled, %s)%n", (System.nanoTime() - t0) / 1e9, first.pulled().records(),
                    first.pushedByOutcome());
            com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
            for (int round = 1; round <= 5; round++) {
                int requests = zotero.requests();
                long allocated = threads.getCurrentThreadAllocatedBytes();
                long t = System.nanoTime();
                dev.idiom.consistency.Mirrors.Planned planned = app.sync().planMirrors();
                Map<PushOutcome, Integer> pushed = app.sync().pushOwed();
                double ms = (System.nanoTime() - t) / 1e6;
                System.out.printf(Locale.ROOT, "round: no-change round %d over two mirrored accounts of %d items each: %.1f ms, %d owed, %d pushed, "
                        + "%d requests to Zotero, %.1f KB allocated by the round's thread%n", round, items, ms, planned.copies() + planned.removals(),
                        pushed.values().stream().mapToInt(Integer::intValue).sum(), zotero.requests() - requests,
                        (threads.getCurrentThreadAllocatedBytes() - allocated) / 1024.0);
            }
        }
    }

    /** Steady updates of DEs with Zotero copies while a BibTeX file's first mirror of {@code mirrored} DEs runs; the engine in the background. */
    private static void lagDuringFirstMirror(int entities, int rate, int seconds, int mirrored) throws Exception {
        Path data = Files.createTempDirectory("idiom-mirror-bench");
        try (SyncBench.Removed removed = new SyncBench.Removed(data); ZoteroStub zotero = new ZoteroStub(); Idiom idiom = SyncBench.idiom(data, "200")) {
            Application app = idiom.application();
            app.tools().accounts().put("zot", "zotero", zotero.uri().toString(), ZoteroStub.LIBRARY, ZoteroStub.KEY);
            List<UUID> ids = new ArrayList<>();
            System.out.printf("lag: %d DEs uploaded to Zotero, %d more for the mirror…%n", entities, mirrored);
            for (int i = 0; i < entities + mirrored; i++) {
                Metadata m = Metadata.EMPTY.with(Field.TYPE, "article-journal").with(Field.TITLE, "Replicated paper " + i)
                        .with(Field.AUTHORS, List.of(new Author("Author" + i, "A."))).with(Field.YEAR, 1990 + i % 30)
                        .with(Field.TAGS, new TreeSet<>(Set.of(i < entities ? "edited" : "mirrored")));
                UUID id = app.writes().create(m, "bench").entity().id();
                if (i < entities) {
                    app.replicas().upload(id, "zot");
                    ids.add(id);
                }
            }
            Path bib = data.resolve("files").resolve("library.bib");
            AtomicBoolean mirroring = new AtomicBoolean(true);
            long m0 = System.nanoTime();
            app.tools().accounts().put("library", "bibtex", "library.bib", "", null, null, null, false, rule("{\"tags\": [\"mirrored\"]}"));
            Thread watch = Thread.ofVirtual().start(() -> {
                try {
                    while (Files.notExists(bib) || Files.readString(bib).lines().filter(l -> l.startsWith("@")).count() < mirrored) {
                        Thread.sleep(100);
                    }
                    System.out.printf(Locale.ROOT, "lag: the file's first mirror of %d DEs finished in %.1f s%n", mirrored, (System.nanoTime() - m0) / 1e9);
                } catch (Exception e) {
                    System.out.println("lag: watching the file failed: " + e);
                } finally {
                    mirroring.set(false);
                }
            });
            System.out.printf("lag: %d updates/s for %d s to DEs with Zotero copies, while the file's first mirror runs…%n", rate, seconds);
            SyncBench.Updates u = SyncBench.steadyUpdates(app, ids, rate, seconds, mirroring::get);
            int updates = u.made();
            int duringMirror = u.during();
            watch.join(120_000);
            long deadline = System.nanoTime() + 120_000_000_000L;
            while (!app.sync().owed(1).isEmpty() && System.nanoTime() < deadline) {
                Thread.sleep(100);
            }
            System.out.printf("lag: %d updates, %d of them while the mirror ran%n", updates, duringMirror);
            for (AccountConsistency c : app.sync().report()) {
                System.out.printf(Locale.ROOT, "lag: %-8s %-7s pushes %5d  p50 %5d ms  p99 %5d ms  max %5d ms  (in sync %d/%d, pending %d)%n", c.name(),
                        c.kind(), c.lag().samples(), c.lag().p50(), c.lag().p99(), c.lag().max(), c.inSync(), c.replicas(), c.pending());
            }
        }
    }
}
