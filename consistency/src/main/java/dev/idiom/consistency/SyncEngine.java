package dev.idiom.consistency;

import dev.idiom.db.TimeSource;
import dev.idiom.events.FeedFollower;
import dev.idiom.consistency.report.PushOutcome;
import dev.idiom.events.Outbox;
import dev.idiom.events.accounts.ToolAccountRepository;
import java.time.Clock;
import java.util.ArrayList;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.LongAdder;
import java.util.Set;
import java.time.Duration;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The consistency engine's loop: per tool account, batches that claim due outbox rows (under a
 * lease, so several nodes on one database share the work and each push is made once) and carry each
 * out with {@link ReplicaPush}; then the scheduled pulls and checks that are due ({@link Pulls}).
 * Accounts are pushed side by side, each in order, so one slow tool delays no other. Runs in the
 * background at a fixed interval; a round can also be run on demand (a curator's sync, tests).
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
    private volatile Runnable plans = () -> {};
    /** The replication rules' planning: it follows the change feed from each rule's saved position, on a thread of its own. */
    private volatile FeedFollower planner;
    private volatile FeedFollower worker;
    private final Set<String> running = ConcurrentHashMap.newKeySet();
    /** Every push this node made since start, by outcome (for metrics; the outbox holds what is owed). */
    private final Map<PushOutcome, LongAdder> outcomes = new EnumMap<>(PushOutcome.class);
    private volatile boolean stopping;
    private final java.util.concurrent.atomic.AtomicBoolean pulling = new java.util.concurrent.atomic.AtomicBoolean();
    private final AccountExclusion exclusion;

    /**
     * @param interval time between rounds of the background worker (zero: no background worker)
     * @param lease how long a claimed row is this node's; a node that dies holding rows delays them by at most this
     * @param exclusion one writer per tool account: a batch of pushes holds its account
     */
    SyncEngine(Outbox outbox, ReplicaPush push, Duration interval, Duration lease, ToolAccountRepository states, Clock clock, AccountExclusion exclusion) {
        this.exclusion = exclusion;
        for (PushOutcome o : PushOutcome.values()) {
            outcomes.put(o, new LongAdder());
        }
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

    /** What the loop runs before its pushes, on a thread of its own (a slow pull never delays it): the replication rules' planning. */
    public void plans(Runnable p) {
        this.plans = p;
    }

    /** Starts the background worker (if an interval is set). */
    public SyncEngine start() {
        if (!interval.isZero() && worker == null) {
            planner = FeedFollower.of("idiom-mirror-plan", interval, Integer.MAX_VALUE, clock, () -> {
                plans.run();
                return 0; // a plan reads the feed to its head itself
            }).start(Duration.ZERO);
            nextFull = TimeSource.nanoTime();
            worker = FeedFollower.of("idiom-sync", interval, Integer.MAX_VALUE, clock, this::backgroundRound).leastGap(WAKE_GAP).start(Duration.ZERO);
        }
        return this;
    }

    /** The least time between two push rounds a commit starts: a burst of writes is pushed in one round, not one round each. */
    static final Duration WAKE_GAP = Duration.ofMillis(50);
    /** When the next round also runs the pulls and checks that are due (the worker's thread alone reads and sets it). */
    private long nextFull;

    /**
     * A commit was made that may owe a replica a write (the store announces each one): the
     * worker's next push round starts now rather than at the end of its interval (but at least
     * {@link #WAKE_GAP} after the last one started), so a change reaches the tools within a fraction
     * of a second; the planning and the pulls keep their interval.
     */
    public void wake() {
        FeedFollower w = worker;
        if (w != null) {
            w.nudge();
        }
    }

    /** The background workers, for the node's registry of followers: the mirror planner and the push loop (null before {@link #start}). */
    public FeedFollower planner() {
        return planner;
    }

    public FeedFollower worker() {
        return worker;
    }

    /**
     * One round of the background worker (a {@link FeedFollower} of the outbox): each tool account
     * with pushes due gets a worker of its own (a virtual thread, unless one is still running) that
     * pushes that account's rows until none is due — so a slow or rate-limited tool never delays
     * another's pushes. Every interval, and after a commit woke it, it pushes; every interval it
     * also runs the due pulls, beside the pushes (a long check delays no push).
     */
    private int backgroundRound() {
        long roundStart = TimeSource.nanoTime();
        pushDue();
        if (roundStart - nextFull >= 0) {
            nextFull = roundStart + interval.toNanos();
            beside(pulling, "idiom-pull", pulls::runDue, "scheduled pulls failed; the next round retries");
        }
        return 0;
    }

    private void pushDue() {
        for (String[] a : outbox.dueAccounts()) {
            String key = a[0] + "\n" + a[1];
            if (running.add(key)) {
                Thread.ofVirtual().name("idiom-push-" + a[0]).start(() -> {
                    try {
                        while (!stopping && batch(a[0], a[1]).values().stream().mapToInt(Integer::intValue).sum() >= ROUND) {
                            // a full batch: more may be due at once
                        }
                    } catch (RuntimeException e) {
                        LOG.log(Level.WARNING, "pushes to " + a[0] + " " + a[1] + " failed; the next round retries: " + e.getMessage(), e);
                    } finally {
                        running.remove(key);
                    }
                });
            }
        }
    }

    /** Runs {@code job} on a virtual thread unless its last run is still going. */
    private static void beside(java.util.concurrent.atomic.AtomicBoolean running, String name, Runnable job, String failure) {
        if (running.compareAndSet(false, true)) {
            Thread.ofVirtual().name(name).start(() -> {
                try {
                    job.run();
                } catch (RuntimeException e) {
                    LOG.log(Level.WARNING, failure, e);
                } finally {
                    running.set(false);
                }
            });
        }
    }

    /**
     * One round, run at once (a curator's sync, tests): every tool account with rows due gets a
     * batch of up to {@value #ROUND}, the accounts side by side; returns how many came to what.
     */
    public Map<PushOutcome, Integer> round() {
        List<String[]> due = outbox.dueAccounts();
        Map<PushOutcome, Integer> out = new EnumMap<>(PushOutcome.class);
        if (due.size() == 1) {
            return batch(due.getFirst()[0], due.getFirst()[1]);
        }
        try (ExecutorService each = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<Map<PushOutcome, Integer>>> batches = new ArrayList<>();
            for (String[] a : due) {
                batches.add(each.submit(() -> batch(a[0], a[1])));
            }
            for (Future<Map<PushOutcome, Integer>> f : batches) {
                f.get().forEach((k, v) -> out.merge(k, v, Integer::sum));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException e) {
            throw new IllegalStateException("a batch of pushes failed: " + e.getCause().getMessage(), e.getCause());
        }
        return out;
    }

    /** Claims the due rows of one account (a round, or the tool's batch if larger) and carries them out. */
    private Map<PushOutcome, Integer> batch(String tool, String account) {
        // claimed and pushed as the account's one writer: no pull lists a copy between its write and the record of that write
        return exclusion.holding(tool, account, () -> pushed(tool, account));
    }

    private Map<PushOutcome, Integer> pushed(String tool, String account) {
        Map<PushOutcome, Integer> out = new EnumMap<>(PushOutcome.class);
        Set<UUID> tried = outbox.copiesTried(tool, account); // before this claim marks its rows: copies a node tried before it
        List<Outbox.Entry> claimed = outbox.claim(node, push.batchSize(tool, account), lease, tool, account);
        boolean reached = false;
        for (PushOutcome o : push.pushAll(claimed, tried)) {
            out.merge(o, 1, Integer::sum);
            outcomes.get(o).increment();
            reached |= o == PushOutcome.PUSHED || o == PushOutcome.ALREADY_IN_SYNC || o == PushOutcome.COPIED || o == PushOutcome.REMOVED;
        }
        if (reached) { // once per batch, not per push
            states.updateSyncState(tool, account, st -> st.pushed(clock.instant()), clock.instant());
        }
        return out;
    }

    /** Rounds until nothing is due (at most {@code maxRounds}); the sum of their outcomes. */
    public Map<PushOutcome, Integer> drain(int maxRounds) {
        Map<PushOutcome, Integer> total = new EnumMap<>(PushOutcome.class);
        for (int i = 0; i < maxRounds; i++) {
            Map<PushOutcome, Integer> r = round();
            r.forEach((k, v) -> total.merge(k, v, Integer::sum));
            if (r.isEmpty() && outbox.dueAccounts().isEmpty()) {
                break; // nothing due (a claim can come back empty while another node holds a row for a moment)
            }
        }
        return total;
    }

    /** How many pushes this node made since start, by outcome. */
    public Map<PushOutcome, Long> outcomes() {
        Map<PushOutcome, Long> out = new EnumMap<>(PushOutcome.class);
        outcomes.forEach((o, n) -> out.put(o, n.sum()));
        return out;
    }

    public Outbox outbox() {
        return outbox;
    }

    @Override
    public void close() {
        stopping = true;
        if (planner != null) {
            planner.close(); // the plan in hand finishes
        }
        FeedFollower w = worker;
        if (w != null) {
            w.close(); // the round in hand finishes
            try {
                // let the account workers finish the push in hand (a row left mid-push is re-pushed after its lease anyway)
                long until = TimeSource.nanoTime() + 10_000_000_000L;
                while ((!running.isEmpty() || pulling.get()) && TimeSource.nanoTime() < until) {
                    TimeSource.sleep(20);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
