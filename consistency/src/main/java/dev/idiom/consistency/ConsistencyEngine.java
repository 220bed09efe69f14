package dev.idiom.consistency;

import dev.idiom.consistency.report.Progress;
import dev.idiom.events.EntityIds;
import dev.idiom.wrappers.AnnotationTool;
import dev.idiom.events.EventStore;
import dev.idiom.events.Outbox;
import dev.idiom.events.accounts.ToolAccountRepository;
import java.time.Clock;
import java.time.Duration;
import java.util.random.RandomGenerator;

/**
 * The consistency engine, assembled: its jobs wired to the ports it needs from below (the store,
 * the one write door, the outbox, the tool directory, the accounts' sync state). The application
 * calls the jobs; nothing here calls back up.
 */
public final class ConsistencyEngine implements AutoCloseable {
    /**
     * When the engine works by itself; zero intervals: only on demand.
     *
     * @param pushInterval between rounds of the background push worker
     * @param lease how long a claimed outbox row is this node's
     * @param pullInterval between scheduled pulls of an account (at least the tool's least interval)
     * @param checkInterval between scheduled anti-entropy checks of an account
     */
    public record Settings(Duration pushInterval, Duration lease, Duration pullInterval, Duration checkInterval, DeletionHold hold,
                           OptimisticRetry retry) {
        /** On demand only, with the default hold and retries (tests, commands). */
        public static final Settings ON_DEMAND = new Settings(Duration.ZERO, Duration.ofMinutes(1), Duration.ZERO, Duration.ZERO, DeletionHold.DEFAULT,
                OptimisticRetry.DEFAULT);
    }

    private final Pull pull;
    private final Upload upload;
    private final SyncEngine pushes;
    private final AccountSync sync;
    private final AccountHold holds;
    private final AntiEntropy antiEntropy;
    private final ConsistencyReport report;
    private final ToolDirectory tools;
    private final PullSchedule schedule;
    private final Mirrors mirrors;
    private final Fidelity fidelity;
    private final DryRun dryRun;
    private final DeLifecycle lifecycle;
    private final Conflicts conflicts;
    private final AccountPull accountPull;

    private final AccountExclusion exclusion;

    /** A node alone on its store (tests, commands): the accounts' exclusion is this process's. */
    public ConsistencyEngine(EventStore store, Outbox outbox, ToolDirectory tools, ToolAccountRepository states, EntityIds ids,
            Clock clock, RandomGenerator random, Settings settings) {
        this(store, outbox, tools, states, ids, clock, random, settings, AccountExclusion.alone(clock));
    }

    /** @param exclusion one writer per tool account at a time, across the nodes sharing the store */
    public ConsistencyEngine(EventStore store, Outbox outbox, ToolDirectory tools, ToolAccountRepository states, EntityIds ids,
            Clock clock, RandomGenerator random, Settings settings, AccountExclusion exclusion) {
        this.exclusion = exclusion;
        this.tools = tools;
        AccountReplicas replicas = new AccountReplicas(store);
        PropagationLag lag = new PropagationLag(clock);
        this.pull = new Pull(store, replicas, tools, states, ids, settings.retry(), clock, exclusion, outbox);
        ReplicaWrite write = new ReplicaWrite(store, pull, clock, random);
        PushLedger ledger = new PushLedger(store, settings.retry(), outbox, lag);
        this.upload = new Upload(store, tools, exclusion, write, ledger);
        Deletions deletions = new Deletions(store, replicas, states, settings.hold(), settings.retry(), clock, tools);
        this.mirrors = new Mirrors(store, outbox, tools, states, replicas, settings.hold(), clock);
        this.pushes = new SyncEngine(outbox, new ReplicaPush(store, pull, tools, mirrors, write, ledger),
                settings.pushInterval(), settings.lease(), states, clock, exclusion);
        this.antiEntropy = new AntiEntropy(pull, deletions, replicas, outbox, states, tools, clock, exclusion);
        this.accountPull = new AccountPull(pull, deletions, states, tools, clock, exclusion);
        this.holds = new AccountHold(tools, states, deletions, upload, outbox, replicas, mirrors, clock);
        this.sync = new AccountSync(tools, states, accountPull, holds, pushes, replicas, mirrors);
        this.dryRun = new DryRun(tools, store, outbox, states, mirrors, pull, replicas, settings.hold(), clock);
        this.fidelity = new Fidelity(tools, replicas);
        this.lifecycle = new DeLifecycle(store, outbox, ids, clock, settings.retry(), tools);
        this.conflicts = new Conflicts(store, settings.retry());
        this.report = new ConsistencyReport(store, tools, states, outbox, replicas, lag, pushes);
        this.schedule = new PullSchedule(tools, states, accountPull, antiEntropy, settings.pullInterval(), settings.checkInterval(), clock);
        pushes.pulls(schedule);
        pushes.plans(mirrors::planAll); // beside the pulls: a pull waiting on a tool's turn delays no plan
    }

    /**
     * Told of each commit on this node (the composition root registers it with the store): the
     * background pushes start their next round now, so a change owed to a replica waits no interval.
     */
    public void committed(dev.idiom.events.AppendResult result) {
        pushes.wake();
    }

    /** A curator's sync planned, not run. */
    public DryRun dryRun() {
        return dryRun;
    }

    /** What of one account's records a copy in another would hold. */
    public Fidelity fidelity() {
        return fidelity;
    }

    /** The conflicts a curator can settle. */
    public Conflicts conflicts() {
        return conflicts;
    }

    /** A DE's life beyond its fields: trash, restore, purge, merge, split, revert, unlink. */
    public DeLifecycle lifecycle() {
        return lifecycle;
    }

    /** The replication rules' planner: what each account's rule owes it. */
    public Mirrors mirrors() {
        return mirrors;
    }

    /** The scheduled pulls and checks that are due, now (the background loop runs them after each push round). */
    public void runDue() {
        schedule.runDueNow();
    }

    /** Starts the background work (pushes, scheduled pulls and checks), if the settings give it an interval. */
    public ConsistencyEngine start() {
        pushes.start();
        return this;
    }

    /** Records coming in: imports, pulls, downloads. */
    public Pull pull() {
        return pull;
    }

    /**
     * An import of a configured tool account: the same pull as a sync's (send-only accounts left
     * alone, the deletions it reports through the deletion rules and the mass-delete hold, a tool that
     * answers for another user holding the account), without its push.
     *
     * @param fromStart the whole account rather than what changed since the account's cursor
     */
    public dev.idiom.consistency.report.ImportSummary importAccount(AnnotationTool tool, boolean fromStart, Progress progress) {
        return accountPull.run(tool, false, fromStart, progress).summary();
    }

    /** New copies of DEs in tools. */
    public Upload upload() {
        return upload;
    }

    /** The pushes owed in the outbox, in rounds. */
    public SyncEngine pushes() {
        return pushes;
    }

    /** A curator's sync of one account. */
    public AccountSync sync() {
        return sync;
    }

    /** Pausing, resuming and restoring an account; parked pushes. */
    public AccountHold holds() {
        return holds;
    }

    /** An anti-entropy check of the account called {@code name}, now. */
    public dev.idiom.consistency.report.CheckReport check(String name) {
        return antiEntropy.check(tools.open(name));
    }

    /** What admins read. */
    public ConsistencyReport report() {
        return report;
    }

    /** Why the account's scheduled work last failed on this node, if its last run did. */
    public java.util.Optional<dev.idiom.consistency.report.AccountFailure> failure(String account) {
        return schedule.failure(account);
    }

    @Override
    public void close() {
        pushes.close();
        exclusion.close();
    }
}
