package dev.idiom.services.web;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Failed key checks per client address: past {@link #limit} in a minute, the address is refused
 * (429 with {@code Retry-After}) until the oldest failure leaves the minute, before its key is even
 * looked up. Guessing a 256-bit key is hopeless anyway; this keeps a guesser from costing a
 * database lookup per try and from filling the log. The clock is injected: tests move time.
 */
final class AuthFailures {
    private static final Duration WINDOW = Duration.ofMinutes(1);
    /** Addresses remembered at most; past it the quietest are forgotten (a flood of addresses must not grow this without bound). */
    private static final int MOST_ADDRESSES = 10_000;

    private final int limit;
    private final Clock clock;
    private final Map<String, Deque<Instant>> failures = new ConcurrentHashMap<>();

    /** @param limit failures an address may have in a minute; 0 for no limit */
    AuthFailures(int limit, Clock clock) {
        this.limit = limit;
        this.clock = clock;
    }

    /** How long {@code address} must wait before its next key is looked at, if it must. */
    Optional<Duration> wait(String address) {
        Deque<Instant> seen = failures.get(address);
        if (limit == 0 || seen == null) {
            return Optional.empty();
        }
        synchronized (seen) {
            Instant now = clock.instant();
            while (!seen.isEmpty() && !seen.peekFirst().plus(WINDOW).isAfter(now)) {
                seen.pollFirst();
            }
            if (seen.size() < limit) {
                return Optional.empty();
            }
            return Optional.of(Duration.between(now, seen.peekFirst().plus(WINDOW)));
        }
    }

    void failed(String address) {
        if (limit == 0) {
            return;
        }
        if (failures.size() >= MOST_ADDRESSES && !failures.containsKey(address)) {
            failures.clear(); // crude, but bounded: the next minute rebuilds what matters
        }
        Deque<Instant> seen = failures.computeIfAbsent(address, a -> new ArrayDeque<>());
        synchronized (seen) {
            seen.addLast(clock.instant());
            while (seen.size() > limit) {
                seen.pollFirst();
            }
        }
    }
}
