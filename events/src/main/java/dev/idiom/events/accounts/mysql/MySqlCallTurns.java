package dev.idiom.events.accounts.mysql;

import dev.idiom.events.mysql.SqlWork;
import dev.idiom.events.sql.SqlProjection;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * Turns at the calls a tool limits on its own, per tool account, in {@code call_turn}: shared by
 * every node on the database. Taking a turn reads the row under lock and moves it a whole wait on
 * in one short transaction, so two nodes cannot both take it.
 */
public final class MySqlCallTurns implements dev.idiom.events.accounts.CallTurns {
    private final DataSource db;

    public MySqlCallTurns(DataSource db) {
        this.db = db;
    }

    /** Empty when the turn at {@code call} was due and is now taken; else when it will be due (nothing taken). */
    @Override
    public Optional<Instant> take(String kind, String account, String call, Instant now, Duration interval) {
        return SqlWork.transaction(db, "take a turn at " + kind + " " + call, c -> {
            Turn t = locked(c, kind, account, call, interval);
            if (now.isBefore(t.next())) {
                return Optional.of(t.next());
            }
            write(c, kind, account, call, now.plus(t.spacing()), t.spacing());
            return Optional.<Instant>empty();
        });
    }

    /** The call was answered at {@code at}: the next turn is {@code interval} later, the doubling forgotten. */
    @Override
    public void answered(String kind, String account, String call, Instant at, Duration interval) {
        SqlWork.transaction(db, "record an answer to " + kind + " " + call, c -> {
            locked(c, kind, account, call, interval);
            write(c, kind, account, call, at.plus(interval), interval);
            return null;
        });
    }

    /** The call was refused as too early at {@code at}: the next turn is twice the last wait later. */
    @Override
    public void refused(String kind, String account, String call, Instant at, Duration interval) {
        SqlWork.transaction(db, "record a refusal of " + kind + " " + call, c -> {
            Duration twice = locked(c, kind, account, call, interval).spacing().multipliedBy(2);
            write(c, kind, account, call, at.plus(twice), twice);
            return null;
        });
    }

    private record Turn(Instant next, Duration spacing) {}

    /** The turn's row, created (due at once, the base wait) the first time, locked until the transaction ends. */
    private static Turn locked(Connection c, String kind, String account, String call, Duration interval) throws SQLException {
        try (PreparedStatement ins = c.prepareStatement("INSERT IGNORE INTO call_turn (kind, account, call_name, next_at, wait_ms) VALUES (?, ?, ?, ?, ?)")) {
            ins.setString(1, kind);
            ins.setString(2, account);
            ins.setString(3, call);
            ins.setObject(4, SqlProjection.utc(Instant.EPOCH));
            ins.setLong(5, interval.toMillis());
            ins.executeUpdate();
        }
        try (PreparedStatement ps = c.prepareStatement("SELECT next_at, wait_ms FROM call_turn WHERE kind = ? AND account = ? AND call_name = ? FOR UPDATE")) {
            ps.setString(1, kind);
            ps.setString(2, account);
            ps.setString(3, call);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return new Turn(SqlWork.instant(rs, 1), Duration.ofMillis(rs.getLong(2)));
            }
        }
    }

    private static void write(Connection c, String kind, String account, String call, Instant next, Duration wait) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("UPDATE call_turn SET next_at = ?, wait_ms = ? WHERE kind = ? AND account = ? AND call_name = ?")) {
            ps.setObject(1, SqlProjection.utc(next));
            ps.setLong(2, wait.toMillis());
            ps.setString(3, kind);
            ps.setString(4, account);
            ps.setString(5, call);
            ps.executeUpdate();
        }
    }
}
