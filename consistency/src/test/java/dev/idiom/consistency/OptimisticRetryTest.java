package dev.idiom.consistency;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idiom.events.StaleVersionException;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class OptimisticRetryTest {
    private final OptimisticRetry retry = new OptimisticRetry(3, Duration.ZERO);

    @Test
    void aWriteRefusedAsStaleIsDecidedAgainUntilItGoesIn() {
        AtomicInteger tries = new AtomicInteger();
        String done = retry.run("a write", () -> {
            if (tries.incrementAndGet() < 3) {
                throw new StaleVersionException(UUID.randomUUID(), 1, 2);
            }
            return "written";
        });
        assertEquals("written", done);
        assertEquals(3, tries.get());
    }

    @Test
    void givingUpSaysWhatAndHowOftenInsteadOfReturningQuietly() {
        AtomicInteger tries = new AtomicInteger();
        OptimisticRetry.GaveUpException e = assertThrows(OptimisticRetry.GaveUpException.class, () -> retry.run("linking copy K1", () -> {
            tries.incrementAndGet();
            throw new StaleVersionException(UUID.randomUUID(), 1, 2);
        }));
        assertEquals(3, tries.get());
        assertTrue(e.getMessage().contains("linking copy K1") && e.getMessage().contains("3 tries"), e.getMessage());
    }

    @Test
    void anyOtherFailureIsNotRetried() {
        AtomicInteger tries = new AtomicInteger();
        assertThrows(IllegalStateException.class, () -> retry.run("a write", () -> {
            tries.incrementAndGet();
            throw new IllegalStateException("not a race");
        }));
        assertEquals(1, tries.get());
    }
}
