package dev.idiom.events.mysql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idiom.db.Database;
import dev.idiom.db.TestDatabase;
import dev.idiom.events.AppendResult;
import dev.idiom.events.Changes;
import dev.idiom.events.Commits;
import dev.idiom.events.EventCodec;
import dev.idiom.events.EventStoreException;
import dev.idiom.events.Field;
import dev.idiom.events.FieldChanged;
import dev.idiom.events.Metadata;
import dev.idiom.events.NewEvent;
import dev.idiom.events.RecordImported;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Transient failures are retried inside the store and never reach the caller while retries last:
 * a deadlock or certification conflict at commit, and a connection lost after the commit went
 * through (the outcome unknown to the client), where the retry must return the first result and
 * write nothing twice.
 */
class TransientFailureRetryTest {
    private static final TransientFailures FAST = new TransientFailures(4, Duration.ofMillis(1), Duration.ofMillis(5));
    private Database db;

    @BeforeEach
    void open() {
        db = TestDatabase.fresh();
    }

    @AfterEach
    void close() {
        db.close();
    }

    /** What a commit does in these tests, given how many commits came before. */
    private interface AtCommit {
        void run(int commitsBefore) throws SQLException;
    }

    private DataSource failingCommits(AtCommit atCommit) {
        return Commits.around(db.dataSource(), (c, before) -> atCommit.run(before), null); // may refuse the commit before it reaches the server
    }

    private static NewEvent created(UUID id) {
        return new NewEvent(UUID.randomUUID(), "test", new RecordImported(Changes.forNewRecord(Metadata.EMPTY.with(Field.TITLE, "Retry")), "idiom",
                id.toString()));
    }

    private long events() throws Exception {
        try (Connection c = db.connection(); Statement s = c.createStatement(); var rs = s.executeQuery("SELECT COUNT(*) FROM event")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    @Test
    void aDeadlockAtCommitIsRetriedAndTheCallerSeesOneSuccess() throws Exception {
        AtomicInteger failures = new AtomicInteger();
        MySqlEventStore store = new MySqlEventStore(failingCommits(before -> {
            if (before == 0) {
                failures.incrementAndGet();
                throw new SQLException("Deadlock found when trying to get lock; try restarting transaction", "40001", 1213);
            }
        }), new EventCodec(), Clock.systemUTC(), FAST);
        UUID id = UUID.randomUUID();
        AppendResult r = store.append(id, 0, List.of(created(id)));
        assertFalse(r.replayed());
        assertEquals(1, failures.get());
        assertEquals(1, store.retried());
        assertEquals(1, events());
        assertEquals(1, store.load(id).orElseThrow().version());
    }

    @Test
    void aConnectionLostAfterTheCommitIsRetriedAndReturnsTheFirstResultWritingNothingTwice() throws Exception {
        // the commit reaches the server, then the answer is lost: the client cannot know it committed
        DataSource ds = Commits.around(db.dataSource(), (c, before) -> { }, (c, before) -> {
            if (before == 1) {
                throw new SQLException("Communications link failure: the last packet was not received", "08S01");
            }
        });
        MySqlEventStore store = new MySqlEventStore(ds, new EventCodec(), Clock.systemUTC(), FAST);
        UUID id = UUID.randomUUID();
        store.append(id, 0, List.of(created(id))); // commit 0 goes through untouched
        List<NewEvent> change = List.of(new NewEvent(UUID.randomUUID(), "test", new FieldChanged(Field.VENUE, "CSUR")),
                new NewEvent(UUID.randomUUID(), "test", new FieldChanged(Field.YEAR, 2005)));

        AppendResult r = store.append(id, 1, change); // commit 1 commits, then "loses" its answer

        assertTrue(r.replayed(), "the retry found the committed events by their ids");
        assertEquals(3, r.entity().version());
        assertEquals("CSUR", r.entity().metadata().venue());
        assertEquals(3, events(), "nothing written twice");
        assertEquals(1, store.retried());
        assertTrue(store.verifyProjections().clean());
    }

    @Test
    void retriesAreBoundedAndThenTheCallerSeesTheFailureWithNothingWritten() throws Exception {
        MySqlEventStore store = new MySqlEventStore(failingCommits(before -> {
            throw new SQLException("Deadlock found when trying to get lock; try restarting transaction", "40001", 1213);
        }), new EventCodec(), Clock.systemUTC(), FAST);
        UUID id = UUID.randomUUID();
        EventStoreException e = assertThrows(EventStoreException.class, () -> store.append(id, 0, List.of(created(id))));
        assertTrue(e.getMessage().contains("after 4 attempts"), e.getMessage());
        assertEquals(3, store.retried());
        assertEquals(0, events());
    }

    @Test
    void aFailureThatIsNotTransientIsNotRetried() {
        MySqlEventStore store = new MySqlEventStore(failingCommits(before -> {
            throw new SQLException("Table 'event' doesn't exist", "42S02", 1146);
        }), new EventCodec(), Clock.systemUTC(), FAST);
        UUID id = UUID.randomUUID();
        assertThrows(EventStoreException.class, () -> store.append(id, 0, List.of(created(id))));
        assertEquals(0, store.retried());
    }
}
