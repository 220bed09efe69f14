package dev.idiom.consistency;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idiom.consistency.report.ImportOutcome;
import dev.idiom.consistency.report.Progress;
import dev.idiom.events.Author;
import dev.idiom.events.Field;
import dev.idiom.events.Metadata;
import dev.idiom.events.Replica;
import dev.idiom.wrappers.RemoteRecord;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Idiom's own work on one account, side by side and with no fault at all: uploads, pushes and pulls
 * of one BibTeX file opened anew at each use (as the application opens a file account), on
 * threads of their own. Each is the account's one writer while it runs, so no entry is lost, no
 * two records share a key, no copy Idiom wrote is read back as a new record and no pull takes the
 * file from before Idiom's own write for a change made there.
 */
final class OneWriterPerAccountTest {
    private static final int RECORDS = 36; // past 'z': more records of one author and year than letters
    private EngineFixture f;

    @BeforeEach
    void start() {
        f = new EngineFixture();
        f.tools.fileOpenedEachTime = true;
    }

    @AfterEach
    void stop() {
        f.close();
    }

    private static Metadata report(int i) {
        return Metadata.EMPTY.with(Field.TYPE, "report").with(Field.TITLE, "Epidemic algorithms, part " + i)
                .with(Field.AUTHORS, List.of(new Author("Demers", "Alan"))).with(Field.YEAR, 1987);
    }

    @Test
    void uploadsPushesAndPullsOfOneFileBesideEachOtherLoseNothingShareNoKeyAndUndoNoEdit() throws Exception {
        List<UUID> ids = new ArrayList<>();
        for (int i = 0; i < RECORDS; i++) {
            ids.add(f.entered(report(i)));
        }
        AtomicBoolean uploading = new AtomicBoolean(true);
        AtomicInteger createdByPulls = new AtomicInteger();
        Map<UUID, String> edited = new ConcurrentHashMap<>();
        CountDownLatch go = new CountDownLatch(1);
        ExecutorService threads = Executors.newFixedThreadPool(6);
        try {
            List<Future<?>> uploads = new ArrayList<>();
            for (int t = 0; t < 3; t++) {
                int first = t;
                uploads.add(threads.submit(() -> {
                    go.await();
                    for (int i = first; i < RECORDS; i += 3) {
                        f.engine.upload().upload(ids.get(i), f.tools.open("file"));
                        // a curator edits the record as soon as its copy exists: the edit is owed to the copy
                        String title = "Epidemic algorithms for replicated database maintenance, part " + i;
                        f.editedInIdiom(ids.get(i), Field.TITLE, title);
                        edited.put(ids.get(i), title);
                    }
                    return null;
                }));
            }
            Future<?> pulls = threads.submit(() -> {
                go.await();
                while (uploading.get()) {
                    createdByPulls.addAndGet(f.engine.importAccount(f.tools.open("file"), false, Progress.SILENT).count(ImportOutcome.Kind.CREATED));
                }
                return null;
            });
            Future<?> pushes = threads.submit(() -> {
                go.await();
                while (uploading.get()) {
                    f.engine.pushes().round();
                }
                return null;
            });
            go.countDown();
            for (Future<?> u : uploads) {
                u.get(120, TimeUnit.SECONDS);
            }
            uploading.set(false);
            pulls.get(60, TimeUnit.SECONDS);
            pushes.get(60, TimeUnit.SECONDS);
        } finally {
            threads.shutdownNow();
        }
        f.engine.pushes().drain(100);
        createdByPulls.addAndGet(f.engine.importAccount(f.tools.open("file"), false, Progress.SILENT).count(ImportOutcome.Kind.CREATED));

        List<RemoteRecord> entries = f.tools.open("file").changedSince(null).records();
        Set<String> keys = new HashSet<>();
        entries.forEach(e -> keys.add(e.remoteId()));
        assertEquals(RECORDS, entries.size(), "every upload's entry is in the file, once: " + keys);
        assertEquals(RECORDS, keys.size(), "no two entries share a key");
        assertTrue(keys.stream().allMatch(k -> k.matches("demers1987[a-z]*")), "every key is a readable BibTeX key: " + keys);
        assertEquals(0, createdByPulls.get(), "no copy Idiom wrote was read back as a new record");
        Set<String> linked = new HashSet<>();
        for (UUID id : ids) {
            List<Replica> copies = f.replicas(id, "bibtex");
            assertEquals(1, copies.size(), "one copy of " + id + " in the file");
            assertTrue(linked.add(copies.getFirst().remoteId()), "no two DEs share the copy " + copies.getFirst().remoteId());
            assertEquals(edited.get(id), f.load(id).metadata().title(), "the curator's edit stays the DE's: no pull undid it");
        }
        for (RemoteRecord e : entries) {
            assertTrue(edited.containsValue(e.metadata().title()), "the file's entry " + e.remoteId() + " got the edit: " + e.metadata().title());
        }
        assertFalse(f.outbox.dueAccounts().stream().anyMatch(a -> a[0].equals("bibtex")), "nothing is still owed to the file");
    }
}
