package dev.idiom.wrappers.http;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Turns at a call a tool limits on its own (Pinboard's {@code posts/all}: once per five minutes,
 * and after a 429 a wait twice the last), shared by everyone who calls the account: in one
 * process by the account's {@link ToolHttp}, across nodes by the database (the service's gate).
 * A turn is taken before the call is sent, so a node that finds it taken waits, and a call that
 * fails without an answer still spends its turn.
 */
public interface CallGate {
    /**
     * Takes the turn at {@code call} if it is due at {@code now}: empty when taken (the next turn is
     * then a whole wait away), else when it will be due (nothing taken).
     *
     * @param interval the wait between two calls the tool asks for
     */
    Optional<Instant> take(String call, Instant now, Duration interval);

    /** The call was answered at {@code at}: the next turn is {@code interval} after that, the doubling forgotten. */
    void answered(String call, Instant at, Duration interval);

    /** The call was refused as too early (429) at {@code at}: the next turn is twice the last wait after that. */
    void refused(String call, Instant at, Duration interval);

    /** A gate kept in memory: for one process, and for tests. */
    static CallGate inMemory() {
        return new CallGate() {
            private final Map<String, Instant> next = new HashMap<>();
            private final Map<String, Duration> waits = new HashMap<>();

            @Override
            public synchronized Optional<Instant> take(String call, Instant now, Duration interval) {
                Instant due = next.getOrDefault(call, Instant.EPOCH);
                if (now.isBefore(due)) {
                    return Optional.of(due);
                }
                next.put(call, now.plus(waits.getOrDefault(call, interval)));
                return Optional.empty();
            }

            @Override
            public synchronized void answered(String call, Instant at, Duration interval) {
                waits.put(call, interval);
                next.put(call, at.plus(interval));
            }

            @Override
            public synchronized void refused(String call, Instant at, Duration interval) {
                Duration twice = waits.getOrDefault(call, interval).multipliedBy(2);
                waits.put(call, twice);
                next.put(call, at.plus(twice));
            }
        };
    }
}
