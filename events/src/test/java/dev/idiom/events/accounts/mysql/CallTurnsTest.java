package dev.idiom.events.accounts.mysql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idiom.db.Database;
import dev.idiom.db.TestDatabase;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Turns at a limited call (Pinboard's posts/all) kept in the database: two nodes never both take one. */
class CallTurnsTest {
    private static final Duration FIVE_MINUTES = Duration.ofMinutes(5);
    private static final Instant T0 = Instant.parse("2026-11-25T10:00:00Z");
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
    void aTurnTakenByOneNodeIsTakenForTheOtherUntilTheWaitIsOver() {
        MySqlCallTurns one = new MySqlCallTurns(db.dataSource());
        MySqlCallTurns other = new MySqlCallTurns(db.dataSource());
        assertEquals(Optional.empty(), one.take("pinboard", "curator", "posts/all", T0, FIVE_MINUTES));
        assertEquals(Optional.of(T0.plus(FIVE_MINUTES)), other.take("pinboard", "curator", "posts/all", T0.plusSeconds(10), FIVE_MINUTES));
        // the answer came a minute later: the wait runs from it
        one.answered("pinboard", "curator", "posts/all", T0.plusSeconds(60), FIVE_MINUTES);
        assertEquals(Optional.of(T0.plusSeconds(360)), other.take("pinboard", "curator", "posts/all", T0.plusSeconds(300), FIVE_MINUTES));
        assertEquals(Optional.empty(), other.take("pinboard", "curator", "posts/all", T0.plusSeconds(360), FIVE_MINUTES));
        // another account, or another call, has turns of its own
        assertEquals(Optional.empty(), one.take("pinboard", "someone", "posts/all", T0.plusSeconds(361), FIVE_MINUTES));
        assertEquals(Optional.empty(), one.take("pinboard", "curator", "posts/recent", T0.plusSeconds(361), FIVE_MINUTES));
    }

    @Test
    void eachRefusalDoublesTheWaitForEveryNodeAndAnAnswerResetsIt() {
        MySqlCallTurns one = new MySqlCallTurns(db.dataSource());
        MySqlCallTurns other = new MySqlCallTurns(db.dataSource());
        one.take("pinboard", "curator", "posts/all", T0, FIVE_MINUTES);
        one.refused("pinboard", "curator", "posts/all", T0, FIVE_MINUTES);
        assertEquals(Optional.of(T0.plus(Duration.ofMinutes(10))), other.take("pinboard", "curator", "posts/all", T0.plusSeconds(300), FIVE_MINUTES));
        other.take("pinboard", "curator", "posts/all", T0.plus(Duration.ofMinutes(10)), FIVE_MINUTES);
        other.refused("pinboard", "curator", "posts/all", T0.plus(Duration.ofMinutes(10)), FIVE_MINUTES);
        assertEquals(Optional.of(T0.plus(Duration.ofMinutes(30))), one.take("pinboard", "curator", "posts/all", T0.plus(Duration.ofMinutes(29)),
                FIVE_MINUTES));
        one.take("pinboard", "curator", "posts/all", T0.plus(Duration.ofMinutes(30)), FIVE_MINUTES);
        one.answered("pinboard", "curator", "posts/all", T0.plus(Duration.ofMinutes(30)), FIVE_MINUTES);
        assertEquals(Optional.of(T0.plus(Duration.ofMinutes(35))), other.take("pinboard", "curator", "posts/all", T0.plus(Duration.ofMinutes(31)),
                FIVE_MINUTES));
    }

    @Test
    void ofManyNodesAskingAtOnceExactlyOneTakesTheTurn() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Callable<Optional<Instant>>> asks = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                MySqlCallTurns node = new MySqlCallTurns(db.dataSource());
                asks.add(() -> node.take("pinboard", "curator", "posts/all", T0, FIVE_MINUTES));
            }
            int taken = 0;
            for (Future<Optional<Instant>> f : pool.invokeAll(asks)) {
                taken += f.get().isEmpty() ? 1 : 0;
            }
            assertEquals(1, taken);
            assertTrue(new MySqlCallTurns(db.dataSource()).take("pinboard", "curator", "posts/all", T0, FIVE_MINUTES).isPresent());
        } finally {
            pool.shutdownNow();
        }
    }
}
