package dev.idiom.consistency;

import dev.idiom.events.Outbox;
import java.time.Duration;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The push side of the consistency engine: rounds that claim due outbox rows (under a lease, so
 * several nodes on one database share the work and each push is made once) and carry each out
 * with {@link ReplicaPush}. Runs on one background thread at a fixed interval; a round can also be
 * run on demand (a curator's sync, tests).
 */
public final class SyncEngine implements AutoCloseable {
    private static final Logger LOG = Logger.getLogger(SyncEngine.class.getName());
    static final int ROUND = 32;
    static final Duration LEASE = Duration.ofMinutes(2);

    private final Outbox outbox;
    private final ReplicaPush push;
    private final String node = UUID.randomUUID().toString();
    private final Duration interval;
    private volatile Thread worker;

    /** @param interval time between rounds of the background worker (zero: no background worker) */
    public SyncEngine(Outbox outbox, ReplicaPush push, Duration interval) {
        this.outbox = outbox;
        this.push = push;
        this.interval = interval;
    }

    /** Starts the background worker (if an interval is set). */
    public SyncEngine start() {
        if (!interval.isZero() && worker == null) {
            worker = Thread.ofPlatform().daemon().name("idiom-sync").start(this::loop);
        }
        return this;
    }

    private void loop() {
        while (!Thread.currentThread().isInterrupted()) {
            try {
                while (round().values().stream().mapToInt(Integer::intValue).sum() == ROUND) {
                    // a full round: more may be due at once
                }
                Thread.sleep(interval);
            } catch (InterruptedException stop) {
                Thread.currentThread().interrupt();
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "a sync round failed; the next one retries: " + e.getMessage(), e);
                try {
                    Thread.sleep(interval);
                } catch (InterruptedException stop) {
                    Thread.currentThread().interrupt();
                }
            }
        }
    }

    /** One round: claims up to {@value #ROUND} due rows and pushes each; returns how many came to what. */
    public synchronized Map<PushOutcome, Integer> round() {
        Map<PushOutcome, Integer> out = new EnumMap<>(PushOutcome.class);
        List<Outbox.Entry> claimed = outbox.claim(node, ROUND, LEASE);
        for (Outbox.Entry e : claimed) {
            PushOutcome o;
            try {
                o = push.push(e);
            } catch (RuntimeException unexpected) {
                // the lease runs out and another round retries; one bad row never stops the others
                LOG.log(Level.WARNING, "push to " + e.tool() + " " + e.account() + " " + e.remoteId() + " failed: " + unexpected.getMessage(), unexpected);
                o = PushOutcome.RETRY_LATER;
            }
            out.merge(o, 1, Integer::sum);
        }
        return out;
    }

    /** Rounds until nothing is due (at most {@code maxRounds}); the sum of their outcomes. */
    public Map<PushOutcome, Integer> drain(int maxRounds) {
        Map<PushOutcome, Integer> total = new EnumMap<>(PushOutcome.class);
        for (int i = 0; i < maxRounds; i++) {
            Map<PushOutcome, Integer> r = round();
            r.forEach((k, v) -> total.merge(k, v, Integer::sum));
            if (r.isEmpty()) {
                break;
            }
        }
        return total;
    }

    public Outbox outbox() {
        return outbox;
    }

    @Override
    public void close() {
        Thread w = worker;
        if (w != null) {
            w.interrupt();
            try {
                w.join(5_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
