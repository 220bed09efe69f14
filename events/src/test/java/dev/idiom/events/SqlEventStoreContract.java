package dev.idiom.events;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.Statement;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;

/** The contract, and what only a store over a SQL server's transactions must show besides: the feed's order under a late commit. */
public abstract class SqlEventStoreContract extends EventStoreContract {
    @Test
    void changeFeedNeverSkipsAnEventWhoseTransactionCommitsLate() throws Exception {
        UUID a = create("A");
        UUID b = create("B");
        long seen = store.after(0, 100).getLast().position();

        long p1;
        long p2;
        // T1 takes its position and then stalls before commit (in the server, on a user lock this test holds); T2 starts after it.
        try (Connection holder = db.dataSource().getConnection(); Statement hold = holder.createStatement()) {
            hold.execute("DO GET_LOCK('idiom-stall-commit', 10)");
            EventStore stalling = open(Commits.stalledOn(db.dataSource(), "idiom-stall-commit"));
            CompletableFuture<AppendResult> t1 = CompletableFuture.supplyAsync(() -> stalling.append(a, 1, List.of(set(Field.NOTES, "t1"))));
            for (long until = System.nanoTime() + 10_000_000_000L; Commits.waitingOn(holder) == 0; Thread.sleep(5)) {
                assertTrue(System.nanoTime() < until, "T1 never reached its commit");
            }
            CompletableFuture<AppendResult> t2 = CompletableFuture.supplyAsync(() -> store.append(b, 1, List.of(set(Field.NOTES, "t2"))));

            // While T1 is open, a reader sees neither: T2 cannot commit a higher position first.
            assertThrows(TimeoutException.class, () -> t2.get(500, TimeUnit.MILLISECONDS));
            assertTrue(store.after(seen, 100).isEmpty());

            hold.execute("DO RELEASE_LOCK('idiom-stall-commit')");
            p1 = t1.get(10, TimeUnit.SECONDS).lastPosition();
            p2 = t2.get(10, TimeUnit.SECONDS).lastPosition();
            assertTrue(p1 < p2, "the late committer got the lower position");
        }
        List<RecordedEvent> feed = store.after(seen, 100);
        assertEquals(List.of(p1, p2), feed.stream().map(RecordedEvent::position).toList());
        assertEquals(feed.stream().map(FeedEntry::of).toList(), store.feedAfter(seen, 100), "the feed without payloads: the same entries");
    }
}
