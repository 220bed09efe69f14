package dev.idiom.services;

import dev.idiom.db.TimeSource;
import dev.idiom.events.Append;
import dev.idiom.events.AppendOutcome;
import dev.idiom.events.EntityIds;
import dev.idiom.events.InvalidValueException;
import dev.idiom.services.app.SeedRecords;
import java.io.PrintStream;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code ./idiom seed --entities N [--events-per-entity K]}: fills the store with realistic DEs
 * through the real append path (group commit, batches of appends), with a progress bar, so growth
 * runs can be reproduced on any data directory or database.
 */
final class SeedCommand {
    private static final int CHUNK = 512;
    private static final int PRODUCERS = 2;

    private final PrintStream out;
    private final PrintStream err;

    SeedCommand(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
    }

    int run(IdiomConfig config, Map<String, String> flags) throws Exception {
        long entities = positive(flags, "entities", null);
        int events = (int) positive(flags, "events-per-entity", "1");
        try (Idiom idiom = Idiom.start(config)) {
            long before = idiom.application().administration().headPosition();
            out.printf("idiom: seeding %,d entities with %d event(s) each (store holds %,d events)…%n", entities, events, before);
            AtomicLong next = new AtomicLong();
            AtomicLong done = new AtomicLong();
            long started = TimeSource.nanoTime();
            try (ExecutorService producers = Executors.newFixedThreadPool(PRODUCERS)) {
                List<Future<?>> running = new ArrayList<>();
                for (int p = 0; p < PRODUCERS; p++) {
                    SeedRecords records = new SeedRecords(new EntityIds(TimeSource.SYSTEM), TimeSource.nanoTime() + p);
                    running.add(producers.submit(() -> {
                        for (long from; (from = next.getAndAdd(CHUNK)) < entities; ) {
                            List<Append> chunk = new ArrayList<>(CHUNK);
                            for (long i = from; i < Math.min(entities, from + CHUNK); i++) {
                                chunk.add(records.next(events));
                            }
                            for (AppendOutcome o : idiom.application().writes().appendAll(chunk)) {
                                o.get();
                            }
                            draw(done.addAndGet(chunk.size()), entities, started);
                        }
                        return null;
                    }));
                }
                for (Future<?> f : running) {
                    f.get();
                }
            }
            double seconds = (TimeSource.nanoTime() - started) / 1e9;
            err.print("\r" + " ".repeat(100) + "\r");
            out.printf("idiom: seeded %,d entities, %,d events in %.1f s (%,.0f entities/s, %,.0f events/s)%n", entities, entities * events, seconds,
                    entities / seconds, entities * events / seconds);
            return 0;
        }
    }

    private long lastDraw;

    private synchronized void draw(long done, long total, long started) {
        long now = TimeSource.nanoTime();
        if (done < total && now - lastDraw < 200_000_000L) {
            return;
        }
        lastDraw = now;
        int filled = (int) (30 * done / total);
        double rate = done / ((now - started) / 1e9);
        err.printf("\r[%s%s] %,d/%,d  %,.0f/s  ETA %.0f s   ", "#".repeat(filled), " ".repeat(30 - filled), done, total, rate, (total - done) / rate);
        err.flush();
    }

    private static long positive(Map<String, String> flags, String key, String otherwise) {
        String v = flags.getOrDefault(key, otherwise);
        if (v == null) {
            throw new InvalidValueException("say how many: --" + key + " N");
        }
        try {
            long n = Long.parseLong(v.replace("_", "").replace(",", ""));
            if (n < 1) {
                throw new NumberFormatException();
            }
            return n;
        } catch (NumberFormatException e) {
            throw new InvalidValueException("--" + key + " must be a whole number of at least 1, got '" + v + "'");
        }
    }
}
