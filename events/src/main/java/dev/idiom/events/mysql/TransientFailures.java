package dev.idiom.events.mysql;

import dev.idiom.db.TimeSource;
import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Which database failures are worth a retry, and how long to wait between tries. Deadlocks and
 * Galera's certification conflicts (1213, SQL state 40001), lock-wait timeouts (1205), a Galera node
 * not ready (1047) and a lost connection (SQL state class 08, also when it is lost during the
 * commit, whose outcome is then unknown) are transient: the whole transaction was rolled back, or
 * it committed and the retry finds its events by id. Appends are idempotent, so a retry is safe.
 *
 * @param attempts tries in all, the first included
 * @param base the first pause's upper bound; each later one doubles, up to {@code cap} (full jitter)
 */
public record TransientFailures(int attempts, Duration base, Duration cap) {
    /** Six tries within about half a second: enough for a conflict or a node failover, short enough for a request. */
    public static final TransientFailures DEFAULT = new TransientFailures(6, Duration.ofMillis(5), Duration.ofMillis(200));

    public TransientFailures {
        if (attempts < 1) {
            throw new IllegalArgumentException("at least one attempt");
        }
    }

    /** Whether {@code e} (or a cause) is a failure another try may not meet. */
    public static boolean retryable(SQLException e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SQLException s) {
                int code = s.getErrorCode();
                String state = s.getSQLState() == null ? "" : s.getSQLState();
                if (code == 1213 || code == 1205 || code == 1047 || state.equals("40001") || state.startsWith("08")) {
                    return true;
                }
            }
        }
        return false;
    }

    /** One try of work that may meet a transient failure. */
    @FunctionalInterface
    public interface Attempt<T> {
        T run() throws SQLException;
    }

    /**
     * Runs {@code work}, again after each transient failure ({@link #retryable}), at most {@link #attempts} times, with
     * {@link #pause} between; {@code beforeRetry} is told of each retry. A failure that is not transient, or the last
     * one, is thrown. The work must be safe to run again (a transaction rolled back, or committed with its answer lost
     * and recognised by its ids).
     */
    public <T> T retrying(Attempt<T> work, Runnable beforeRetry) throws SQLException {
        for (int attempt = 1; ; attempt++) {
            try {
                return work.run();
            } catch (SQLException e) {
                if (!retryable(e) || attempt >= attempts) {
                    throw e;
                }
                beforeRetry.run();
                pause(attempt);
            }
        }
    }

    /** Waits before try {@code attempt + 1}: a random time up to base × 2^(attempt−1), at most the cap. */
    public void pause(int attempt) {
        long bound = Math.min(cap.toNanos(), base.toNanos() << Math.min(20, attempt - 1));
        try {
            TimeSource.sleep(Duration.ofNanos(ThreadLocalRandom.current().nextLong(bound + 1)));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
