package dev.idiom.events;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The followers' one mechanism: catching up in full batches, nudges, a backoff on failures, a round never interrupted, lag on the injected clock. */
class FeedFollowerTest {
    private final TestClock clock = new TestClock(Instant.parse("2026-03-01T10:00:00Z"));

    @Test
    void aFollowerBehindRunsAgainAtOnceWhileItsStepTakesFullBatches() throws Exception {
        AtomicInteger rounds = new AtomicInteger();
        CountDownLatch caughtUp = new CountDownLatch(1);
        try (FeedFollower f = FeedFollower.of("test-follower", Duration.ofHours(1), 10, clock, () -> {
            int n = rounds.incrementAndGet();
            if (n == 4) {
                caughtUp.countDown();
            }
            return n < 4 ? 10 : 3; // three full batches, then the rest
        }).start(Duration.ZERO)) {
            assertTrue(caughtUp.await(5, TimeUnit.SECONDS), "caught up without waiting an interval between full batches");
            Thread.sleep(100);
            assertEquals(4, rounds.get(), "then it waits for the interval");
        }
    }

    @Test
    void aNudgeRunsARoundNowRatherThanAtTheEndOfTheInterval() throws Exception {
        AtomicInteger rounds = new AtomicInteger();
        try (FeedFollower f = FeedFollower.of("test-follower", Duration.ofHours(1), 10, clock, () -> {
            rounds.incrementAndGet();
            return 0;
        }).start(Duration.ZERO)) {
            waitFor(() -> rounds.get() == 1);
            f.nudge();
            waitFor(() -> rounds.get() == 2);
        }
    }

    @Test
    void failuresBackOffDoublingAndTheFollowerResumesOnceTheStepWorks() throws Exception {
        AtomicInteger rounds = new AtomicInteger();
        long[] at = new long[6];
        try (FeedFollower f = FeedFollower.of("test-follower", Duration.ofMillis(40), 10, clock, () -> {
            int n = rounds.getAndIncrement();
            if (n < at.length) {
                at[n] = System.nanoTime();
            }
            if (n < 4) {
                throw new EventStoreException("the database is down", null);
            }
            return 0;
        }).start(Duration.ZERO)) {
            waitFor(() -> rounds.get() >= 5);
            assertEquals(0, f.failures(), "resumed: no failure in a row any more");
            long first = at[1] - at[0];
            long third = at[3] - at[2];
            assertTrue(first >= 35_000_000L, "one interval after the first failure: " + first / 1_000_000 + " ms");
            assertTrue(third >= 150_000_000L, "four intervals after the third: " + third / 1_000_000 + " ms");
        }
    }

    @Test
    void closingLetsTheRoundInHandFinishUninterruptedAndTheLagIsOnTheInjectedClock() throws Exception {
        CountDownLatch inRound = new CountDownLatch(1);
        boolean[] interrupted = {false};
        boolean[] finished = {false};
        FeedFollower f = FeedFollower.of("test-follower", Duration.ofHours(1), 10, clock, () -> {
            inRound.countDown();
            try {
                Thread.sleep(200); // an index's IO that must not be interrupted
            } catch (InterruptedException e) {
                interrupted[0] = true;
            }
            finished[0] = true;
            return 0;
        }).start(Duration.ZERO);
        assertTrue(inRound.await(5, TimeUnit.SECONDS));
        f.close();
        assertTrue(finished[0]);
        assertFalse(interrupted[0], "the round was not interrupted");

        f.followed(clock.instant().minusMillis(1500));
        assertEquals(1500, f.lagMillis());
        assertEquals(1, f.eventsFollowed());
    }

    private static void waitFor(java.util.function.BooleanSupplier done) throws InterruptedException {
        for (long until = System.nanoTime() + 5_000_000_000L; !done.getAsBoolean(); Thread.sleep(5)) {
            assertTrue(System.nanoTime() < until, "did not happen within 5 s");
        }
    }
}
