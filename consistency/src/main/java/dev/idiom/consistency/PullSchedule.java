package dev.idiom.consistency;

import dev.idiom.consistency.report.Progress;
import dev.idiom.events.accounts.SyncState;
import dev.idiom.events.accounts.ToolAccountRepository;
import dev.idiom.wrappers.AnnotationTool;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The scheduled side of the engine, run by its loop: each account that is not paused gets its
 * pull when the pull interval (at least the tool's least interval) has passed since its last one,
 * and its anti-entropy check when the check interval has. The due time is claimed under the
 * account's row lock, so two nodes do not both pull. Zero intervals: only on demand. An account
 * whose scheduled work failed waits twice as long after each failure in a row (up to
 * {@link #LONGEST_BACKOFF}) before this node tries it again: a file that cannot be read, or a
 * service that is down, is not retried every minute, filling the log.
 */
final class PullSchedule implements SyncEngine.Pulls {
    private static final Logger LOG = Logger.getLogger(PullSchedule.class.getName());

    private final ToolDirectory tools;
    private final ToolAccountRepository states;
    private final AccountPull pull;
    private final AntiEntropy check;
    private final Duration pullInterval;
    private final Duration checkInterval;
    private final Clock clock;
    private final Instant started;

    PullSchedule(ToolDirectory tools, ToolAccountRepository states, AccountPull pull, AntiEntropy check, Duration pullInterval, Duration checkInterval,
            Clock clock) {
        this.tools = tools;
        this.states = states;
        this.pull = pull;
        this.check = check;
        this.pullInterval = pullInterval;
        this.checkInterval = checkInterval;
        this.clock = clock;
        this.started = clock.instant();
    }

    /** The longest wait after failures in a row. */
    static final Duration LONGEST_BACKOFF = Duration.ofHours(1);

    /** An account whose scheduled work failed {@code times} in a row, last at {@code at} with {@code error}: not tried again before {@code until}. */
    private record Failing(int times, Instant until, String error, Instant at) {}

    private final java.util.Map<String, Failing> failing = new java.util.concurrent.ConcurrentHashMap<>();

    /** The accounts whose scheduled work is under way on this node. */
    private final java.util.Set<String> running = java.util.concurrent.ConcurrentHashMap.newKeySet();

    /**
     * Each account's due work on a virtual thread of its own (unless its last is still going): a
     * pull that waits for its tool's turn (Pinboard's snapshot, once per five minutes) delays no
     * other account's pull.
     */
    @Override
    public void runDue() {
        start();
    }

    /** Runs the due work and waits for it (on demand: tests on a fake clock). */
    void runDueNow() {
        for (Thread t : start()) {
            try {
                t.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private java.util.List<Thread> start() {
        java.util.List<Thread> started = new java.util.ArrayList<>();
        if (pullInterval.isZero() && checkInterval.isZero()) {
            return started;
        }
        for (String name : tools.names()) {
            Failing f = failing.get(name);
            if (f != null && clock.instant().isBefore(f.until())) {
                continue; // backing off
            }
            if (running.add(name)) {
                started.add(Thread.ofVirtual().name("idiom-pull-" + name).start(() -> {
                    try {
                        runDue(tools.open(name));
                        failing.remove(name);
                    } catch (RuntimeException e) {
                        Failing next = failed(name, e);
                        LOG.log(Level.WARNING, "scheduled sync of tool account " + name + " failed (" + next.times() + " in a row); tried again at "
                                + next.until() + ": " + e.getMessage(), next.times() == 1 ? e : null);
                    } finally {
                        running.remove(name);
                    }
                }));
            }
        }
        return started;
    }

    /** Records a failure of {@code name}'s scheduled work: the wait before the next try doubles with each one in a row. */
    private Failing failed(String name, RuntimeException e) {
        Duration base = pullInterval.isZero() ? checkInterval : pullInterval;
        Instant now = clock.instant();
        String error = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        return failing.merge(name, new Failing(1, now.plus(base), error, now), (was, one) -> {
            int times = was.times() + 1;
            Duration wait = base.multipliedBy(1L << Math.min(times - 1, 20));
            return new Failing(times, now.plus(wait.compareTo(LONGEST_BACKOFF) > 0 ? LONGEST_BACKOFF : wait), error, now);
        });
    }

    /** Why {@code name}'s scheduled work last failed, if its last run did (in the tool's words as the adapter reported them). */
    java.util.Optional<dev.idiom.consistency.report.AccountFailure> failure(String name) {
        Failing f = failing.get(name);
        return f == null ? java.util.Optional.empty()
                : java.util.Optional.of(new dev.idiom.consistency.report.AccountFailure(f.error(), f.at(), f.times(), f.until()));
    }

    private void runDue(AnnotationTool tool) {
        Instant now = clock.instant();
        Duration every = pullInterval.compareTo(tool.limits().minInterval()) < 0 ? tool.limits().minInterval() : pullInterval;
        if (!pullInterval.isZero() && claim(tool, now, every, SyncState::lastPullAt, s -> s.pulled(now))) {
            try {
                // a pull holds its account: it never waits there for a tool's turn (Pinboard's posts/all, five minutes), which would
                // hold the account's pushes too; a turn not due yet is taken by a later scheduled pull
                pull.run(tool.answeringAtOnce(), false, Progress.SILENT);
            } catch (dev.idiom.wrappers.ToolTurnException notYet) {
                LOG.fine("scheduled pull of " + tool.kind() + " " + tool.account() + " waits for the tool's turn: " + notYet.getMessage());
            }
        }
        if (!checkInterval.isZero() && claim(tool, now, checkInterval, SyncState::lastCheckAt, s -> s.checked(now, s.divergent()))) {
            check.check(tool);
        }
    }

    /** True if this node took the due work: the account is not paused and its last run was {@code every} ago. */
    private boolean claim(AnnotationTool tool, Instant now, Duration every, Function<SyncState, Instant> last, UnaryOperator<SyncState> mark) {
        boolean[] mine = {false};
        states.updateSyncState(tool.kind(), tool.account(), s -> {
            Instant at = last.apply(s);
            // never run: the first scheduled run is one interval after this node started (a new account gets its import by hand)
            Instant since = at == null ? started : at;
            if (s.paused() || since.plus(every).isAfter(now)) {
                return s;
            }
            mine[0] = true;
            return mark.apply(s);
        }, now);
        return mine[0];
    }
}
