package dev.idiom.perf;

import dev.idiom.db.Database;
import dev.idiom.db.DatabaseSettings;
import dev.idiom.db.EmbeddedMariaDb;
import dev.idiom.events.Changes;
import dev.idiom.events.DigitalEntity;
import dev.idiom.events.EventCodec;
import dev.idiom.events.EventStore;
import dev.idiom.events.Field;
import dev.idiom.events.FieldChanged;
import dev.idiom.events.Metadata;
import dev.idiom.events.NewEvent;
import dev.idiom.events.RecordImported;
import dev.idiom.events.hibernate.HibernateEventStore;
import dev.idiom.events.mysql.MySqlEventStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;
import java.util.function.Function;
import javax.sql.DataSource;
import org.HdrHistogram.Histogram;

/**
 * The event store's own cost, JDBC adapter against Hibernate adapter, on one embedded MariaDB:
 * single-threaded append of one minor event (the UpdateDE write) and projection load (MoreInfo
 * from the database), p50/p99 over many calls after a warm-up. Decides which adapter the
 * service runs.
 *
 * <pre>perf/store-bench.sh [--calls 3000] [--warmup 2000]</pre>
 */
public final class StoreBench {
    private StoreBench() {}

    public static void main(String[] args) throws Exception {
        int calls = 3000;
        int warmup = 2000;
        for (int i = 0; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--calls" -> calls = Integer.parseInt(args[i + 1]);
                case "--warmup" -> warmup = Integer.parseInt(args[i + 1]);
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        Path root = Files.createTempDirectory("idiom-store-bench");
        try (EmbeddedMariaDb server = EmbeddedMariaDb.start(root.resolve("mariadb"), 0)) {
            System.out.printf("event store, single thread, %d calls after %d warm-up calls (embedded MariaDB 11.4, Connector/J)%n", calls, warmup);
            System.out.printf("%-30s %9s %9s %9s%n", "adapter / operation", "p50 ms", "p99 ms", "mean ms");
            bench("jdbc", server, ds -> new MySqlEventStore(ds, new EventCodec(), Clock.systemUTC()), calls, warmup);
            bench("hibernate", server, ds -> new HibernateEventStore(ds, new EventCodec(), Clock.systemUTC()), calls, warmup);
        } finally {
            try (var paths = Files.walk(root)) {
                paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    private static void bench(String name, EmbeddedMariaDb server, Function<DataSource, EventStore> adapter, int calls, int warmup)
            throws Exception {
        try (Database db = Database.open(DatabaseSettings.of(server.jdbcUrl("bench_" + name)))) {
            long built = System.nanoTime();
            EventStore store = adapter.apply(db.dataSource());
            // what the adapter costs a starting service (Hibernate builds its SessionFactory here)
            System.out.printf("%-30s %9.1f ms%n", name + " adapter start-up", (System.nanoTime() - built) / 1e6);
            List<UUID> ids = new ArrayList<>();
            for (int i = 0; i < 50; i++) {
                UUID id = UUID.randomUUID();
                store.append(id, 0, List.of(new NewEvent(UUID.randomUUID(), "bench",
                        new RecordImported(Changes.forNewRecord(Metadata.EMPTY.with(Field.TITLE, "Bench " + i)), "idiom", id.toString()))));
                ids.add(id);
            }
            int[] versions = new int[ids.size()];
            Arrays.fill(versions, 1);
            Histogram append = new Histogram(60_000_000_000L, 3);
            Histogram load = new Histogram(60_000_000_000L, 3);
            for (int i = 0; i < warmup + calls; i++) {
                int k = i % ids.size();
                long t0 = System.nanoTime();
                store.append(ids.get(k), versions[k], List.of(new NewEvent(UUID.randomUUID(), "bench", new FieldChanged(Field.NOTES, "n" + i))));
                long t1 = System.nanoTime();
                DigitalEntity de = store.load(ids.get(k)).orElseThrow();
                long t2 = System.nanoTime();
                versions[k] = de.version();
                if (i >= warmup) {
                    append.recordValue(t1 - t0);
                    load.recordValue(t2 - t1);
                }
            }
            print(name + " append (1 event)", append);
            print(name + " load projection", load);
            if (store instanceof AutoCloseable c) {
                c.close();
            }
        }
    }

    private static void print(String what, Histogram h) {
        System.out.printf("%-30s %9.3f %9.3f %9.3f%n", what, h.getValueAtPercentile(50) / 1e6, h.getValueAtPercentile(99) / 1e6, h.getMean() / 1e6);
    }
}
