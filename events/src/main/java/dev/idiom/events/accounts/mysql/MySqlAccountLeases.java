package dev.idiom.events.accounts.mysql;

import dev.idiom.events.mysql.SqlWork;
import dev.idiom.events.sql.SqlProjection;
import java.sql.PreparedStatement;
import java.time.Instant;
import javax.sql.DataSource;

/**
 * The accounts' leases in {@code account_lease}, shared by every node on the database: taking one
 * is one short transaction that creates the row or moves it to this holder when it is this
 * holder's or has run out, so two nodes never both hold it. Plain rows, not {@code GET_LOCK}: a
 * Galera cluster certifies rows, while named locks stay on the node that took them.
 */
public final class MySqlAccountLeases implements dev.idiom.events.accounts.AccountLeases {
    private final DataSource db;

    public MySqlAccountLeases(DataSource db) {
        this.db = db;
    }

    @Override
    public boolean take(String account, String holder, Instant now, Instant until) {
        return SqlWork.transaction(db, "take the lease of tool account " + account, c -> {
            try (PreparedStatement ins = c.prepareStatement("INSERT IGNORE INTO account_lease (lease_key, holder, until) VALUES (?, ?, ?)")) {
                ins.setString(1, account);
                ins.setString(2, holder);
                ins.setObject(3, SqlProjection.utc(until));
                if (ins.executeUpdate() == 1) {
                    return true;
                }
            }
            try (PreparedStatement up = c.prepareStatement("UPDATE account_lease SET holder = ?, until = ? WHERE lease_key = ? AND (holder = ? OR until < ?)")) {
                up.setString(1, holder);
                up.setObject(2, SqlProjection.utc(until));
                up.setString(3, account);
                up.setString(4, holder);
                up.setObject(5, SqlProjection.utc(now));
                return up.executeUpdate() == 1; // Connector/J counts matched rows: a renewal to the same time is still taken
            }
        });
    }

    @Override
    public void release(String account, String holder) {
        SqlWork.transaction(db, "give back the lease of tool account " + account, c -> {
            try (PreparedStatement del = c.prepareStatement("DELETE FROM account_lease WHERE lease_key = ? AND holder = ?")) {
                del.setString(1, account);
                del.setString(2, holder);
                del.executeUpdate();
            }
            return null;
        });
    }
}
