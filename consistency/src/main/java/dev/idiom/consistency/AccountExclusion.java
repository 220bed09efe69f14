package dev.idiom.consistency;

import dev.idiom.db.TimeSource;
import dev.idiom.events.Outbox;
import dev.idiom.events.accounts.AccountLeases;
import dev.idiom.wrappers.AnnotationTool;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * One writer per tool account at a time: every sync, push batch, pull, check and upload of an
 * account runs holding it, so no two of them read and rewrite the same file or library at once —
 * a pull never lists a copy between Idiom's write of it and the record of that write, and two
 * batches never choose the same new key. Within a node a re-entrant lock per account (the work
 * of one account may nest: a push that meets a newer copy pulls it); across nodes on one store
 * the account's lease ({@link AccountLeases}), taken by the outermost holder and renewed while it works.
 * No work holds two accounts at once, so there is no order to keep between them.
 */
public final class AccountExclusion implements AutoCloseable {
    private static final Logger LOG = Logger.getLogger(AccountExclusion.class.getName());
    /** How long a lease lasts unrenewed: a node that died holding one delays its account by at most this. */
    static final Duration LEASE = Duration.ofSeconds(20);
    private static final long RETRY_MILLIS = 50;

    private final AccountLeases leases;
    private final String holder;
    private final Clock clock;
    private final Map<String, ReentrantLock> locks = new ConcurrentHashMap<>();
    /** The accounts whose lease this node holds now (renewed by {@link #renewals}). */
    private final Map<String, Boolean> held = new ConcurrentHashMap<>();
    private final ScheduledExecutorService renewals;

    /**
     * @param holder this node's name, the same across its restarts (a node that died holding a lease takes it back when it returns)
     */
    public AccountExclusion(AccountLeases leases, String holder, Clock clock) {
        this.leases = leases;
        this.holder = holder;
        this.clock = clock;
        if (leases == AccountLeases.ALONE) {
            renewals = null;
        } else {
            renewals = Executors.newSingleThreadScheduledExecutor(Thread.ofPlatform().daemon().name("idiom-account-leases").factory());
            long every = LEASE.toMillis() / 4;
            renewals.scheduleWithFixedDelay(this::renew, every, every, TimeUnit.MILLISECONDS);
        }
    }

    /** A node alone on its store: this process's locks only. */
    public static AccountExclusion alone(Clock clock) {
        return new AccountExclusion(AccountLeases.ALONE, "alone", clock);
    }

    /** Runs {@code work} as the account's one writer, waiting for any other to finish. */
    public <T> T holding(AnnotationTool tool, Supplier<T> work) {
        return holding(tool.kind(), tool.account(), work);
    }

    public void holding(AnnotationTool tool, Runnable work) {
        holding(tool.kind(), tool.account(), () -> {
            work.run();
            return null;
        });
    }

    public <T> T holding(String kind, String account, Supplier<T> work) {
        String key = Outbox.accountKey(kind, account == null ? "" : account);
        ReentrantLock lock = locks.computeIfAbsent(key, k -> new ReentrantLock(true));
        lock.lock();
        try {
            boolean outermost = lock.getHoldCount() == 1;
            if (outermost) {
                lease(key);
            }
            try {
                return work.get();
            } finally {
                if (outermost && held.remove(key) != null) {
                    giveBack(key);
                }
            }
        } finally {
            lock.unlock();
        }
    }

    /** True if the calling thread is the account's writer now (for checks of the rule itself). */
    boolean heldByCaller(String kind, String account) {
        ReentrantLock lock = locks.get(Outbox.accountKey(kind, account == null ? "" : account));
        return lock != null && lock.isHeldByCurrentThread();
    }

    private void lease(String key) {
        if (leases == AccountLeases.ALONE) {
            return;
        }
        boolean told = false;
        while (!leases.take(key, holder, clock.instant(), clock.instant().plus(LEASE))) {
            if (!told) {
                LOG.fine("tool account " + key + " is another node's now; waiting for its turn");
                told = true;
            }
            try {
                TimeSource.sleep(RETRY_MILLIS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for tool account " + key, e);
            }
        }
        held.put(key, Boolean.TRUE);
    }

    private void giveBack(String key) {
        try {
            leases.release(key, holder);
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "the lease of tool account " + key + " could not be given back; it runs out in " + LEASE.toSeconds() + " s", e);
        }
    }

    private void renew() {
        for (String key : held.keySet()) {
            try {
                if (!leases.take(key, holder, clock.instant(), clock.instant().plus(LEASE))) {
                    LOG.warning("the lease of tool account " + key + " ran out before it was renewed (the database was out of reach for "
                            + LEASE.toSeconds() + " s); another node may work on it beside this one's work in hand");
                }
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "the lease of tool account " + key + " could not be renewed; tried again shortly", e);
            }
        }
    }

    @Override
    public void close() {
        if (renewals != null) {
            renewals.shutdownNow();
        }
    }
}
