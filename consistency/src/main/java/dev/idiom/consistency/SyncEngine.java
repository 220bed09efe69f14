package dev.idiom.consistency;

import dev.idiom.events.Outbox;
import dev.idiom.events.accounts.ToolAccountRepository;
import java.time.Clock;
import java.util.HashSet;
import java.util.Set;
import java.time.Duration;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The consistency engine's loop: rounds that claim due outbox rows (under a lease, so several nodes
 * on one database share the work and each push is made once) and carry each out with
 * {@link ReplicaPush}, then the scheduled pulls and checks that are due ({@link Pulls}). Runs on one
 * background thread at a fixed interval; a round can also be run on demand (a curator's sync, tests).
 */
public final class SyncEngine implements AutoCloseable {
    private static final Logger LOG = Logger.getLogger(SyncEngine.class.getName());
    static final int ROUND = 32;

    /** The pull side, run by the loop after each push round: pulls and anti-entropy checks that are due. */
    public interface Pulls {
        void runDue();
    }

    private final Outbox outbox;
    private final ReplicaPush push;
    private final String node = UUID.randomUUID().toString();
    private final Duration interval;
    private final Duration lease;
    private final ToolAccountRepository states;
    private final Clock clock;
    private volatile Pulls pulls = () -> {};
    private volatile Thread worker;

    /**
     * @param interval time between rounds of the background worker (zero: no background worker)
     * @param lease how long a claimed row is this node's; a node that dies holding rows delays them by at most this
     */
    public SyncEngine(Outbox outbox, ReplicaPush push, Duration interval, Duration lease, ToolAccountRepository states, Clock clock) {
        this.outbox = outbox;
        this.push = push;
        this.interval = interval;
        this.lease = lease;
        this.states = states;
        this.clock = clock;
    }

    /** What the loop runs after its push rounds (set once the pull side is wired). */
    public void pulls(Pulls p) {
        this.pulls = p;
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
                pulls.runDue();
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
        List<Outbox.Entry> claimed = outbox.claim(node, ROUND, lease);
        Set<String> pushedTo = new HashSet<>();
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
            if (o == PushOutcome.PUSHED || o == PushOutcome.ALREADY_IN_SYNC) {
                pushedTo.add(e.tool() + "\n" + e.account());
            }
        }
        for (String a : pushedTo) { // once per account and round, not per push
            String[] ka = a.split("\n", -1);
            states.updateSyncState(ka[0], ka[1], st -> st.pushed(clock.instant()), clock.instant());
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
