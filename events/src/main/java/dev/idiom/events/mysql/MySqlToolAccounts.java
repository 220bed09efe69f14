package dev.idiom.events.mysql;

import dev.idiom.events.EventStoreException;
import dev.idiom.events.accounts.StoredToolAccount;
import dev.idiom.events.accounts.ToolAccountRepository;
import dev.idiom.events.sql.SqlProjection;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import javax.sql.DataSource;

/** Tool accounts and import cursors in MySQL/MariaDB ({@code tool_account}, {@code tool_cursor}), bound parameters only. */
public final class MySqlToolAccounts implements ToolAccountRepository {
    private static final String COLUMNS = "name, kind, base_url, account, secret, new_records, conflict_policy, updated_at";

    private final DataSource db;

    public MySqlToolAccounts(DataSource db) {
        this.db = db;
    }

    @Override
    public void save(StoredToolAccount a) {
        run(c -> {
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO tool_account (" + COLUMNS + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?) "
                    + "ON DUPLICATE KEY UPDATE kind = VALUES(kind), base_url = VALUES(base_url), account = VALUES(account), secret = VALUES(secret), new_records = VALUES(new_records), conflict_policy = VALUES(conflict_policy), "
                    + "updated_at = VALUES(updated_at)")) {
                ps.setString(1, a.name());
                ps.setString(2, a.kind());
                ps.setString(3, a.baseUrl());
                ps.setString(4, a.account());
                ps.setString(5, a.sealedSecret());
                ps.setString(6, a.newRecords());
                ps.setString(7, a.conflictPolicy());
                ps.setObject(8, SqlProjection.utc(a.updatedAt()));
                ps.executeUpdate();
            }
            return null;
        });
    }

    @Override
    public List<StoredToolAccount> list() {
        return run(c -> {
            List<StoredToolAccount> out = new ArrayList<>();
            try (PreparedStatement ps = c.prepareStatement("SELECT " + COLUMNS + " FROM tool_account ORDER BY name"); ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(account(rs));
                }
            }
            return out;
        });
    }

    @Override
    public Optional<StoredToolAccount> find(String name) {
        return run(c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT " + COLUMNS + " FROM tool_account WHERE name = ?")) {
                ps.setString(1, name);
                try (ResultSet rs = ps.executeQuery()) {
                    return rs.next() ? Optional.of(account(rs)) : Optional.<StoredToolAccount>empty();
                }
            }
        });
    }

    private static StoredToolAccount account(ResultSet rs) throws SQLException {
        return new StoredToolAccount(rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4), rs.getString(5), rs.getString(6), rs.getString(7),
                rs.getObject(8, LocalDateTime.class).toInstant(ZoneOffset.UTC));
    }

    @Override
    public Optional<String> cursor(String kind, String account) {
        return run(c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT cursor_value FROM tool_cursor WHERE kind = ? AND account = ?")) {
                ps.setString(1, kind);
                ps.setString(2, account);
                try (ResultSet rs = ps.executeQuery()) {
                    return rs.next() ? Optional.ofNullable(rs.getString(1)) : Optional.<String>empty();
                }
            }
        });
    }

    @Override
    public void saveCursor(String kind, String account, String cursor, Instant at) {
        run(c -> {
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO tool_cursor (kind, account, cursor_value, updated_at) VALUES (?, ?, ?, ?) "
                    + "ON DUPLICATE KEY UPDATE cursor_value = VALUES(cursor_value), updated_at = VALUES(updated_at)")) {
                ps.setString(1, kind);
                ps.setString(2, account);
                ps.setString(3, cursor);
                ps.setObject(4, SqlProjection.utc(at));
                ps.executeUpdate();
            }
            return null;
        });
    }

    private interface Work<T> {
        T run(Connection c) throws SQLException;
    }

    private <T> T run(Work<T> work) {
        try (Connection c = db.getConnection()) {
            return work.run(c);
        } catch (SQLException e) {
            throw new EventStoreException("tool accounts: " + e.getMessage(), e);
        }
    }
}
