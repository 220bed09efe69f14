package dev.idiom.events.accounts.mysql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idiom.db.Database;
import dev.idiom.db.TestDatabase;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** A tool account's lease kept in the database: one node at a time works on an account, and a dead node's lease runs out. */
class AccountLeasesTest {
    private static final Instant T0 = Instant.parse("2026-12-02T10:00:00Z");
    private static final Duration LEASE = Duration.ofSeconds(20);
    private Database db;

    @BeforeEach
    void open() {
        db = TestDatabase.fresh();
    }

    @AfterEach
    void close() {
        db.close();
    }

    @Test
    void aLeaseHeldByOneNodeIsRefusedToTheOtherUntilGivenBackOrRunOut() {
        MySqlAccountLeases one = new MySqlAccountLeases(db.dataSource());
        MySqlAccountLeases other = new MySqlAccountLeases(db.dataSource());
        assertTrue(one.take("bibtex:library.bib", "node-1", T0, T0.plus(LEASE)));
        assertFalse(other.take("bibtex:library.bib", "node-2", T0.plusSeconds(5), T0.plusSeconds(5).plus(LEASE)));
        assertTrue(other.take("zotero:users/1", "node-2", T0.plusSeconds(5), T0.plusSeconds(5).plus(LEASE)), "another account has a lease of its own");
        assertTrue(one.take("bibtex:library.bib", "node-1", T0.plusSeconds(5), T0.plusSeconds(5).plus(LEASE)), "renewed by its holder");
        one.release("bibtex:library.bib", "node-2"); // not node-2's to give back
        assertFalse(other.take("bibtex:library.bib", "node-2", T0.plusSeconds(6), T0.plusSeconds(6).plus(LEASE)));
        one.release("bibtex:library.bib", "node-1");
        assertTrue(other.take("bibtex:library.bib", "node-2", T0.plusSeconds(7), T0.plusSeconds(7).plus(LEASE)), "given back: free");
        // node-2 dies holding it: free once it ran out, and node-2 back under its name takes it at once before that
        assertTrue(other.take("bibtex:library.bib", "node-2", T0.plusSeconds(8), T0.plusSeconds(8).plus(LEASE)), "its own lease, after a restart");
        assertFalse(one.take("bibtex:library.bib", "node-1", T0.plusSeconds(27), T0.plusSeconds(27).plus(LEASE)));
        assertTrue(one.take("bibtex:library.bib", "node-1", T0.plusSeconds(29), T0.plusSeconds(29).plus(LEASE)), "run out: free");
    }

    @Test
    void nodesRacingForOneLeaseAllTakeItOneAtATime() throws Exception {
        ExecutorService nodes = Executors.newFixedThreadPool(8);
        try {
            List<Callable<Boolean>> racers = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                String holder = "node-" + i;
                racers.add(() -> new MySqlAccountLeases(db.dataSource()).take("zotero:users/1", holder, T0, T0.plus(LEASE)));
            }
            int taken = 0;
            for (Future<Boolean> f : nodes.invokeAll(racers)) {
                taken += f.get() ? 1 : 0;
            }
            assertEquals(1, taken, "exactly one of eight nodes holds the account");
        } finally {
            nodes.shutdownNow();
        }
    }
}
