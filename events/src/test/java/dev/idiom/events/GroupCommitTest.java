package dev.idiom.events;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idiom.db.Database;
import dev.idiom.db.TestDatabase;
import dev.idiom.events.mysql.MySqlEventStore;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Group commit over the JDBC store (what the service runs), on the real embedded MariaDB. */
class GroupCommitTest {
    private Database db;
    private GroupCommit store;

    @BeforeEach
    void open() {
        db = TestDatabase.fresh();
        store = new GroupCommit(new MySqlEventStore(db.dataSource(), new EventCodec(), Clock.systemUTC()), 256);
    }

    @AfterEach
    void close() {
        store.close();
        db.close();
    }

    private static NewEvent set(Field f, Object v) {
        return new NewEvent(UUID.randomUUID(), "user:test", new FieldChanged(f, v));
    }

    @Test
    void aCommitIsAnnouncedOnTheWritersOwnThreadBeforeItsAppendReturns() {
        List<String> heardOn = new java.util.concurrent.CopyOnWriteArrayList<>();
        store.onCommit(r -> heardOn.add(Thread.currentThread().getName()));
        UUID id = UUID.randomUUID();
        store.append(id, 0, List.of(new NewEvent(UUID.randomUUID(), "test",
                new RecordImported(Changes.forNewRecord(Metadata.EMPTY.with(Field.TITLE, "Announced")), "idiom", id.toString()))));
        // the one group-commit thread does no listener's work: a slow listener delays its own writer, not every writer
        org.junit.jupiter.api.Assertions.assertEquals(List.of(Thread.currentThread().getName()), heardOn);
    }

    @Test
    void thirtyTwoWritersOverSixtyFourEntitiesLeaveAGapFreeFeedInCommitOrderAndProjectionsEqualARebuild() throws Exception {
        List<UUID> ids = new ArrayList<>();
        for (int i = 0; i < 64; i++) {
            UUID id = UUID.randomUUID();
            store.append(id, 0, List.of(new NewEvent(UUID.randomUUID(), "test",
                    new RecordImported(Changes.forNewRecord(Metadata.EMPTY.with(Field.TITLE, "Paper " + i)), "idiom", id.toString()))));
            ids.add(id);
        }
        AtomicInteger acknowledged = new AtomicInteger();
        AtomicInteger stale = new AtomicInteger();
        try (ExecutorService writers = Executors.newFixedThreadPool(32)) {
            List<Future<?>> done = new ArrayList<>();
            for (int w = 0; w < 32; w++) {
                int writer = w;
                done.add(writers.submit(() -> {
                    for (int n = 0; n < 200; n++) {
                        UUID id = ids.get(ThreadLocalRandom.current().nextInt(ids.size()));
                        while (true) {
                            int version = store.load(id).orElseThrow().version();
                            try {
                                store.append(id, version, List.of(set(Field.NOTES, "w" + writer + " n" + n),
                                        new NewEvent(UUID.randomUUID(), "user:test", new TagAdded("w" + writer))));
                                acknowledged.incrementAndGet();
                                break;
                            } catch (StaleVersionException raced) {
                                stale.incrementAndGet();
                            }
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get();
            }
        }
        assertEquals(32 * 200, acknowledged.get());

        List<RecordedEvent> feed = new ArrayList<>();
        for (List<RecordedEvent> page = store.after(0, 5000); !page.isEmpty(); page = store.after(feed.getLast().position(), 5000)) {
            feed.addAll(page);
        }
        int expected = 64 + 2 * 32 * 200;
        assertEquals(expected, feed.size(), "every acknowledged event once");
        Set<UUID> eventIds = new HashSet<>();
        Map<UUID, Integer> versions = new HashMap<>();
        for (int i = 0; i < feed.size(); i++) {
            RecordedEvent e = feed.get(i);
            assertEquals(i + 1, e.position(), "positions gap-free and in order");
            assertTrue(eventIds.add(e.eventId()), "no event twice");
            int v = versions.merge(e.entityId(), 1, Integer::sum);
            assertEquals(v, e.version(), "stream versions follow positions");
        }
        assertEquals(expected, store.headPosition());
        RebuildReport report = store.verifyProjections();
        assertTrue(report.clean(), () -> "differing: " + report.differing());
        GroupCommit.Stats stats = store.stats();
        assertTrue(stats.largestBatch() > 1, "concurrent appends shared a commit: " + stats);
        System.out.printf("group commit: %d appends in %d batches (mean %.1f, largest %d), %d stale retries%n",
                stats.appends(), stats.batches(), stats.meanBatch(), stats.largestBatch(), stale.get());
    }

    @Test
    void aClosedStoreRefusesAppendsAndWritesNothing() {
        UUID id = UUID.randomUUID();
        store.close();
        assertThrows(EventStoreException.class, () -> store.append(id, 0, List.of(set(Field.TITLE, "late"))));
        assertEquals(0, store.headPosition());
    }
}
