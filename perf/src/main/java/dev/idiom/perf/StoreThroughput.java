package dev.idiom.perf;

import dev.idiom.db.Database;
import dev.idiom.db.DatabaseSettings;
import dev.idiom.db.EmbeddedMariaDb;
import dev.idiom.events.Changes;
import dev.idiom.events.EventCodec;
import dev.idiom.events.EventStore;
import dev.idiom.events.Field;
import dev.idiom.events.FieldChanged;
import dev.idiom.events.GroupCommit;
import dev.idiom.events.Metadata;
import dev.idiom.events.NewEvent;
import dev.idiom.events.RebuildReport;
import dev.idiom.events.RecordImported;
import dev.idiom.events.RecordedEvent;
import dev.idiom.events.mysql.MySqlEventStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * The event store under concurrency: N closed-loop writers, each appending to its own DEs, for a
 * fixed time, with group commit (what the service runs) and without (one commit per append), on
 * one embedded MariaDB with durable commits. Then the change-feed catch-up and rebuild rates over
 * everything written.
 *
 * <pre>perf/store-bench.sh --threads 1,4,16,64 [--seconds 10] [--events-per-append 1] [--no-baseline]</pre>
 */
public final class StoreThroughput {
    private StoreThroughput() {}

    public static void main(String[] args) throws Exception {
        int[] threads = {1, 4, 16, 64};
        int seconds = 10;
        int eventsPerAppend = 1;
        boolean baseline = true;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--threads" -> threads = Arrays.stream(args[++i].split(",")).mapToInt(Integer::parseInt).toArray();
                case "--seconds" -> seconds = Integer.parseInt(args[++i]);
                case "--events-per-append" -> eventsPerAppend = Integer.parseInt(args[++i]);
                case "--no-baseline" -> baseline = false;
                default -> throw new IllegalArgumentException("unknown option " + args[i]
                        + "; options: --threads 1,4,16,64 --seconds 10 --events-per-append 1 --no-baseline");
            }
        }
        Path root = Files.createTempDirectory("idiom-store-throughput");
        try (EmbeddedMariaDb server = EmbeddedMariaDb.start(root.resolve("mariadb"), 0)) {
            System.out.printf("event store, closed loop, %d s per run, %d event(s) per append, durable commits (embedded MariaDB 11.4)%n",
                    seconds, eventsPerAppend);
            System.out.printf("%-14s %7s %11s %11s %9s %9s %10s%n", "store", "threads", "appends/s", "events/s", "p50 ms", "p99 ms", "mean batch");
            int run = 0;
            for (int n : threads) {
                if (baseline) {
                    try (Database db = Database.open(DatabaseSettings.of(server.jdbcUrl("tp_" + run++)).withPoolSize(Math.max(16, n + 2)))) {
                        bench("one commit", new MySqlEventStore(db.dataSource(), new EventCodec(), Clock.systemUTC()), n, seconds, eventsPerAppend);
                    }
                }
                try (Database db = Database.open(DatabaseSettings.of(server.jdbcUrl("tp_" + run++)).withPoolSize(Math.max(16, n + 2)));
                     GroupCommit store = new GroupCommit(new MySqlEventStore(db.dataSource(), new EventCodec(), Clock.systemUTC()), 256)) {
                    bench("group commit", store, n, seconds, eventsPerAppend);
                    if (n == threads[threads.length - 1]) {
                        catchUp(store);
                    }
                }
            }
        } finally {
            try (var paths = Files.walk(root)) {
                paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    private static void bench(String name, EventStore store, int threads, int seconds, int eventsPerAppend) throws Exception {
        List<UUID> ids = new ArrayList<>();
        for (int i = 0; i < threads * 4; i++) {
            UUID id = UUID.randomUUID();
            store.append(id, 0, List.of(new NewEvent(UUID.randomUUID(), "bench",
                    new RecordImported(Changes.forNewRecord(Metadata.EMPTY.with(Field.TITLE, "Bench " + i)), "idiom", id.toString()))));
            ids.add(id);
        }
        Recorder latency = new Recorder(3);
        AtomicBoolean measuring = new AtomicBoolean();
        AtomicBoolean stop = new AtomicBoolean();
        long[] counts = new long[threads];
        CountDownLatch done = new CountDownLatch(threads);
        for (int t = 0; t < threads; t++) {
            int me = t;
            Thread.ofPlatform().start(() -> {
                int[] versions = {1, 1, 1, 1};
                try {
                    for (long i = 0; !stop.get(); i++) {
                        int k = (int) (i % 4);
                        List<NewEvent> events = new ArrayList<>(eventsPerAppend);
                        for (int e = 0; e < eventsPerAppend; e++) {
                            events.add(new NewEvent(UUID.randomUUID(), "bench", new FieldChanged(Field.NOTES, "t" + me + " n" + i + " e" + e)));
                        }
                        long t0 = System.nanoTime();
                        store.append(ids.get(me * 4 + k), versions[k], events);
                        long t1 = System.nanoTime();
                        versions[k] += eventsPerAppend;
                        if (measuring.get()) {
                            latency.recordValue(t1 - t0);
                            counts[me]++;
                        }
                    }
                } finally {
                    done.countDown();
                }
            });
        }
        Thread.sleep(Math.min(3000, seconds * 300L)); // warm-up
        latency.reset();
        measuring.set(true);
        long batches0 = store instanceof GroupCommit g ? g.stats().batches() : 0;
        long appends0 = store instanceof GroupCommit g ? g.stats().appends() : 0;
        long t0 = System.nanoTime();
        Thread.sleep(seconds * 1000L);
        measuring.set(false);
        double elapsed = (System.nanoTime() - t0) / 1e9;
        long batches1 = store instanceof GroupCommit g ? g.stats().batches() : 0;
        long appends1 = store instanceof GroupCommit g ? g.stats().appends() : 0;
        stop.set(true);
        done.await();
        Histogram h = latency.getIntervalHistogram();
        long total = Arrays.stream(counts).sum();
        String batch = store instanceof GroupCommit ? String.format("%.1f", (double) (appends1 - appends0) / Math.max(1, batches1 - batches0)) : "1";
        System.out.printf("%-14s %7d %11.0f %11.0f %9.3f %9.3f %10s%n", name, threads, total / elapsed, total * eventsPerAppend / elapsed,
                h.getValueAtPercentile(50) / 1e6, h.getValueAtPercentile(99) / 1e6, batch);
    }

    /** How fast a new reader of the change feed catches up, and how fast every DE is refolded and checked. */
    private static void catchUp(EventStore store) {
        long t0 = System.nanoTime();
        long read = 0;
        long after = 0;
        for (List<RecordedEvent> page = store.after(0, 5000); !page.isEmpty(); page = store.after(after, 5000)) {
            read += page.size();
            after = page.getLast().position();
        }
        double feed = (System.nanoTime() - t0) / 1e9;
        long t1 = System.nanoTime();
        RebuildReport report = store.verifyProjections();
        double rebuild = (System.nanoTime() - t1) / 1e9;
        System.out.printf("change-feed catch-up: %d events in %.2f s = %.0f events/s; rebuild check: %d events of %d DEs in %.2f s = %.0f events/s (%s)%n",
                read, feed, read / feed, report.events(), report.entities(), rebuild, report.events() / rebuild,
                report.clean() ? "clean" : "DIFFERS: " + report.differing().size());
    }
}
