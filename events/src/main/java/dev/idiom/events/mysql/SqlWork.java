package dev.idiom.events.mysql;

import dev.idiom.db.TimeSource;
import dev.idiom.db.DbTime;
import dev.idiom.events.EventStoreException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import javax.sql.DataSource;

/** Work on one pooled connection, its SQL failures reported as the store's; shared by the relational repositories. */
@FunctionalInterface
public interface SqlWork<T> {
    T run(Connection c) throws SQLException;

    static <T> T on(DataSource db, String what, SqlWork<T> work) {
        return timed(what, () -> {
            try (Connection c = db.getConnection()) {
                return work.run(c);
            }
        });
    }

    /**
     * Work in one transaction: committed if it returns, rolled back if it throws. A deadlock or lock
     * wait (two first updates of one sync state both inserting its row) is tried again from the start,
     * on a new connection, by the event store's policy ({@link TransientFailures}); the work must be a
     * function of what it reads.
     */
    static <T> T transaction(DataSource db, String what, SqlWork<T> work) {
        return timed(what, () -> TransientFailures.DEFAULT.retrying(() -> {
            try (Connection c = db.getConnection()) {
                c.setAutoCommit(false);
                try {
                    T result = work.run(c);
                    c.commit();
                    return result;
                } catch (SQLException | RuntimeException e) {
                    c.rollback();
                    throw e;
                } finally {
                    c.setAutoCommit(true);
                }
            }
        }, () -> { }));
    }

    /** The work's SQL failures reported as the store's, its time counted as database time. */
    private static <T> T timed(String what, TransientFailures.Attempt<T> call) {
        long start = TimeSource.nanoTime();
        try {
            return call.run();
        } catch (SQLException e) {
            throw new EventStoreException(what + ": " + e.getMessage(), e);
        } finally {
            DbTime.since(start);
        }
    }

    /** A DATETIME(6) column written as UTC, or null. */
    static Instant instant(ResultSet rs, int column) throws SQLException {
        LocalDateTime t = rs.getObject(column, LocalDateTime.class);
        return t == null ? null : t.toInstant(ZoneOffset.UTC);
    }
}
