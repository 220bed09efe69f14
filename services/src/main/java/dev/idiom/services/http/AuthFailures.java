package dev.idiom.services.http;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Failed key checks per client and key prefix: past {@link #limit} in a minute for one prefix
 * from one client (a client retrying a stale or mistyped key), or ten times that for one client
 * whatever the keys (a guesser), that client's keys of that kind are refused (429 with
 * {@code Retry-After}) until the oldest failure leaves the minute, before they are even looked up.
 * Another key from the same address (a valid client behind the same NAT or proxy) is still checked:
 * it is refused only once the whole address is past the larger bound, and a key known without a
 * lookup never. One count for every face: API keys, console logins, WebDAV passwords, Zotero keys and sign-ins. Guessing a 256-bit key is hopeless anyway; this keeps a guesser from costing a
 * database lookup per try and from filling the log. The clock is injected: tests move time.
 */
public final class AuthFailures {
    private static final Duration WINDOW = Duration.ofMinutes(1);
    /** Addresses remembered at most; past it the quietest are forgotten (a flood of addresses must not grow this without bound). */
    private static final int MOST_ADDRESSES = 10_000;

    private final int limit;
    private final Clock clock;
    private final Map<String, Deque<Instant>> failures = new ConcurrentHashMap<>();

    /** @param limit failures an address may have in a minute; 0 for no limit */
    public AuthFailures(int limit, Clock clock) {
        this.limit = limit;
        this.clock = clock;
    }

    /** A client's whole budget, as a multiple of one key prefix's. */
    static final int ADDRESS_FACTOR = 10;
    /** How much of a presented key names its bucket: enough to tell two clients' keys apart, too little to matter if logged. */
    static final int PREFIX = 12;

    /** How long {@code address} must wait before {@code key} (as presented, or null) is looked at, if it must. */
    public Optional<Duration> wait(String address, String key) {
        Optional<Duration> whole = wait(address, limit * ADDRESS_FACTOR);
        return whole.isPresent() ? whole : wait(bucket(address, key), limit);
    }

    /** Records a wrong key from {@code address}. */
    public void failed(String address, String key) {
        failed(address, limit * ADDRESS_FACTOR);
        failed(bucket(address, key), limit);
    }

    private static String bucket(String address, String key) {
        String k = key == null ? "" : key.strip();
        if (k.regionMatches(true, 0, "Bearer ", 0, 7)) {
            k = k.substring(7).strip();
        }
        return address + " " + k.substring(0, Math.min(PREFIX, k.length()));
    }

    private Optional<Duration> wait(String bucket, int most) {
        Deque<Instant> seen = failures.get(bucket);
        if (limit == 0 || seen == null) {
            return Optional.empty();
        }
        synchronized (seen) {
            Instant now = clock.instant();
            while (!seen.isEmpty() && !seen.peekFirst().plus(WINDOW).isAfter(now)) {
                seen.pollFirst();
            }
            if (seen.size() < most) {
                return Optional.empty();
            }
            return Optional.of(Duration.between(now, seen.peekFirst().plus(WINDOW)));
        }
    }

    private void failed(String bucket, int most) {
        if (limit == 0) {
            return;
        }
        if (failures.size() >= MOST_ADDRESSES && !failures.containsKey(bucket)) {
            failures.clear(); // crude, but bounded: the next minute rebuilds what matters
        }
        Deque<Instant> seen = failures.computeIfAbsent(bucket, a -> new ArrayDeque<>());
        synchronized (seen) {
            seen.addLast(clock.instant());
            while (seen.size() > most) {
                seen.pollFirst();
            }
        }
    }
}
