package dev.idiom.consistency;

import dev.idiom.db.TimeSource;
import dev.idiom.events.AppendResult;
import dev.idiom.events.EventStore;
import dev.idiom.events.NewEvent;
import dev.idiom.events.StaleVersionException;
import dev.idiom.events.UnknownEntityException;
import java.util.List;
import java.util.UUID;
import java.time.Duration;
import java.util.logging.Logger;

/**
 * The one policy for optimistic-concurrency retries: a write decided on a DE's state is decided
 * again from its new state when another writer moved it meanwhile, up to {@code attempts} times,
 * with a short growing pause between tries. Giving up is never silent: it is logged and ends in
 * {@link GaveUpException}, which each caller turns into what giving up means for it (a skipped
 * record in an import's report, a push due again from the outbox).
 */
public record OptimisticRetry(int attempts, Duration pause) {
    private static final Logger LOG = Logger.getLogger(OptimisticRetry.class.getName());

    /**
     * Enough for every replica of one DE to record its acknowledgement at once: the pushes to a DE's
     * copies run side by side, and of several appends at one version one commits per round, so the
     * last of n needs n tries (a DE copied to ten tools, ten). The pauses add up to 45 ms at most.
     */
    public static final OptimisticRetry DEFAULT = new OptimisticRetry(10, Duration.ofMillis(1));

    public OptimisticRetry {
        if (attempts < 1) {
            throw new IllegalArgumentException("at least one attempt, got " + attempts);
        }
    }

    /** One try: decides from the DE's current state and writes; throws {@link StaleVersionException} when the DE moved. */
    @FunctionalInterface
    public interface Attempt<T> {
        T run();
    }

    /** Runs {@code attempt} until it is not refused as stale, at most {@link #attempts} times; {@code what} names the write in the log. */
    public <T> T run(String what, Attempt<T> attempt) {
        StaleVersionException last = null;
        for (int i = 0; i < attempts; i++) {
            try {
                return attempt.run();
            } catch (StaleVersionException moved) {
                last = moved;
                pause(i);
            }
        }
        LOG.warning("gave up after " + attempts + " tries, the entity kept changing: " + what + " (" + last.getMessage() + ")");
        throw new GaveUpException(what, attempts, last);
    }

    /**
     * Appends events whose meaning does not depend on the DE's state (an acknowledgement, a new
     * link): at the version the caller knows, or on the DE's newest version if it moved meanwhile.
     */
    public AppendResult appendOnLatest(String what, EventStore store, UUID id, int knownVersion, List<NewEvent> events) {
        int[] at = {knownVersion};
        return run(what, () -> {
            try {
                return store.append(id, at[0], events);
            } catch (StaleVersionException moved) {
                at[0] = store.load(id).orElseThrow(() -> new UnknownEntityException(id)).version();
                throw moved;
            }
        });
    }

    private void pause(int tried) {
        if (pause.isZero()) {
            return;
        }
        try {
            TimeSource.sleep(pause.multipliedBy(tried + 1L));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The entity kept changing under every attempt. */
    public static final class GaveUpException extends RuntimeException {
        GaveUpException(String what, int attempts, StaleVersionException last) {
            super(what + ": the entity kept changing during " + attempts + " tries; run it again", last);
        }
    }
}
