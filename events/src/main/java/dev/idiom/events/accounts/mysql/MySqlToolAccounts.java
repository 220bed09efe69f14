package dev.idiom.events.accounts.mysql;

import dev.idiom.events.mysql.SqlWork;

import dev.idiom.events.accounts.MirrorPlan;
import dev.idiom.events.accounts.StoredToolAccount;
import dev.idiom.events.accounts.SyncState;
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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;
import javax.sql.DataSource;

/** Tool accounts and import cursors in MySQL/MariaDB ({@code tool_account}, {@code tool_cursor}), bound parameters only. */
public final class MySqlToolAccounts implements ToolAccountRepository {
    private static final String COLUMNS = "name, kind, base_url, account, secret, new_records, conflict_policy, updated_at, private_library, mirror, direction, deletions";

    private final DataSource db;

    public MySqlToolAccounts(DataSource db) {
        this.db = db;
    }

    @Override
    public void save(StoredToolAccount a) {
        run(c -> {
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO tool_account (" + COLUMNS + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
                    + "ON DUPLICATE KEY UPDATE kind = VALUES(kind), base_url = VALUES(base_url), account = VALUES(account), secret = VALUES(secret), new_records = VALUES(new_records), conflict_policy = VALUES(conflict_policy), private_library = VALUES(private_library), "
                    + "mirror = VALUES(mirror), direction = VALUES(direction), deletions = VALUES(deletions), "
                    + "updated_at = VALUES(updated_at)")) {
                ps.setString(1, a.name());
                ps.setString(2, a.kind());
                ps.setString(3, a.baseUrl());
                ps.setString(4, a.account());
                ps.setString(5, a.sealedSecret());
                ps.setString(6, a.newRecords());
                ps.setString(7, a.conflictPolicy());
                ps.setObject(8, SqlProjection.utc(a.updatedAt()));
                ps.setBoolean(9, a.privateLibrary());
                ps.setString(10, a.mirror());
                ps.setString(11, a.direction() == null ? "both" : a.direction());
                ps.setString(12, a.deletions() == null ? "keep" : a.deletions());
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
                rs.getObject(8, LocalDateTime.class).toInstant(ZoneOffset.UTC), rs.getBoolean(9), rs.getString(10), rs.getString(11), rs.getString(12));
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

    private static final String SYNC_COLUMNS = "kind, account, paused, held, last_pull_at, last_push_at, last_check_at, divergent";

    @Override
    public SyncState syncState(String kind, String account) {
        return run(c -> readSync(c, kind, account, false));
    }

    private static SyncState readSync(Connection c, String kind, String account, boolean lock) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT " + SYNC_COLUMNS + " FROM tool_sync WHERE kind = ? AND account = ?"
                + (lock ? " FOR UPDATE" : ""))) {
            ps.setString(1, kind);
            ps.setString(2, account == null ? "" : account);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? sync(rs) : SyncState.initial(kind, account);
            }
        }
    }

    @Override
    public List<SyncState> syncStates() {
        return run(c -> {
            List<SyncState> out = new ArrayList<>();
            try (PreparedStatement ps = c.prepareStatement("SELECT " + SYNC_COLUMNS + " FROM tool_sync ORDER BY kind, account");
                 ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(sync(rs));
                }
            }
            return out;
        });
    }

    @Override
    public void saveSyncState(SyncState s, Instant at) {
        run(c -> {
            writeSync(c, s, at);
            return null;
        });
    }

    @Override
    public SyncState updateSyncState(String kind, String account, UnaryOperator<SyncState> change, Instant at) {
        return SqlWork.transaction(db, "tool accounts", c -> {
            // the row must exist to be locked: insert the initial state if none (a no-op otherwise)
            try (PreparedStatement ps = c.prepareStatement("INSERT IGNORE INTO tool_sync (kind, account, updated_at) VALUES (?, ?, ?)")) {
                ps.setString(1, kind);
                ps.setString(2, account == null ? "" : account);
                ps.setObject(3, SqlProjection.utc(at));
                ps.executeUpdate();
            }
            SyncState next = change.apply(readSync(c, kind, account, true));
            writeSync(c, next, at);
            return next;
        });
    }

    @Override
    public int resealSecrets(java.util.function.Function<StoredToolAccount, String> reseal, Instant at) {
        return SqlWork.transaction(db, "tool accounts", c -> {
            List<StoredToolAccount> sealed = new ArrayList<>();
            try (PreparedStatement ps = c.prepareStatement("SELECT " + COLUMNS + " FROM tool_account WHERE secret IS NOT NULL FOR UPDATE");
                    ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    sealed.add(account(rs));
                }
            }
            try (PreparedStatement ps = c.prepareStatement("UPDATE tool_account SET secret = ?, updated_at = ? WHERE name = ?")) {
                for (StoredToolAccount a : sealed) {
                    ps.setString(1, reseal.apply(a)); // a secret that does not open throws: nothing is written
                    ps.setObject(2, SqlProjection.utc(at));
                    ps.setString(3, a.name());
                    ps.addBatch();
                }
                ps.executeBatch();
            }
            return sealed.size();
        });
    }

    @Override
    public boolean remove(String name, String kind, String account) {
        return SqlWork.transaction(db, "tool accounts", c -> {
            for (String table : List.of("tool_cursor", "tool_sync", "mirror_plan", "call_turn")) {
                try (PreparedStatement ps = c.prepareStatement("DELETE FROM " + table + " WHERE kind = ? AND account = ?")) {
                    ps.setString(1, kind);
                    ps.setString(2, account == null ? "" : account);
                    ps.executeUpdate();
                }
            }
            try (PreparedStatement ps = c.prepareStatement("DELETE FROM tool_account WHERE name = ?")) {
                ps.setString(1, name);
                return ps.executeUpdate() == 1;
            }
        });
    }

    @Override
    public boolean forget(String name) {
        return run(c -> {
            try (PreparedStatement ps = c.prepareStatement("DELETE FROM tool_account WHERE name = ?")) {
                ps.setString(1, name);
                return ps.executeUpdate() == 1;
            }
        });
    }

    @Override
    public java.util.Optional<MirrorPlan> mirrorPlan(String kind, String account) {
        return run(c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT rule, position, head, removals_allowed_to FROM mirror_plan WHERE kind = ? AND account = ?")) {
                ps.setString(1, kind);
                ps.setString(2, account == null ? "" : account);
                try (ResultSet rs = ps.executeQuery()) {
                    return rs.next() ? Optional.of(new MirrorPlan(rs.getString(1), rs.getLong(2), rs.getLong(3), rs.getLong(4))) : Optional.<MirrorPlan>empty();
                }
            }
        });
    }

    @Override
    public void saveMirrorPlan(String kind, String account, MirrorPlan plan, Instant at) {
        run(c -> {
            // another node planning the same rule may be ahead: a position never goes back under one rule; a new rule replaces all
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO mirror_plan (kind, account, rule, position, head, removals_allowed_to, updated_at) "
                    + "VALUES (?, ?, ?, ?, ?, ?, ?) "
                    + "ON DUPLICATE KEY UPDATE position = IF(rule = VALUES(rule), GREATEST(position, VALUES(position)), VALUES(position)), "
                    + "head = IF(rule = VALUES(rule), head, VALUES(head)), "
                    + "removals_allowed_to = IF(rule = VALUES(rule), GREATEST(removals_allowed_to, VALUES(removals_allowed_to)), VALUES(removals_allowed_to)), "
                    + "rule = VALUES(rule), updated_at = VALUES(updated_at)")) {
                ps.setString(1, kind);
                ps.setString(2, account == null ? "" : account);
                ps.setString(3, plan.rule());
                ps.setLong(4, plan.position());
                ps.setLong(5, plan.head());
                ps.setLong(6, plan.removalsAllowedTo());
                ps.setObject(7, SqlProjection.utc(at));
                ps.executeUpdate();
            }
            return null;
        });
    }

    private static void writeSync(Connection c, SyncState s, Instant at) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO tool_sync (" + SYNC_COLUMNS + ", updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) "
                + "ON DUPLICATE KEY UPDATE paused = VALUES(paused), held = VALUES(held), last_pull_at = VALUES(last_pull_at), "
                + "last_push_at = VALUES(last_push_at), last_check_at = VALUES(last_check_at), divergent = VALUES(divergent), updated_at = VALUES(updated_at)")) {
            ps.setString(1, s.kind());
            ps.setString(2, s.account() == null ? "" : s.account());
            ps.setBoolean(3, s.paused());
            ps.setString(4, s.held());
            ps.setObject(5, s.lastPullAt() == null ? null : SqlProjection.utc(s.lastPullAt()));
            ps.setObject(6, s.lastPushAt() == null ? null : SqlProjection.utc(s.lastPushAt()));
            ps.setObject(7, s.lastCheckAt() == null ? null : SqlProjection.utc(s.lastCheckAt()));
            ps.setInt(8, s.divergent());
            ps.setObject(9, SqlProjection.utc(at));
            ps.executeUpdate();
        }
    }

    private static SyncState sync(ResultSet rs) throws SQLException {
        return new SyncState(rs.getString(1), rs.getString(2), rs.getBoolean(3), rs.getString(4), instant(rs, 5), instant(rs, 6), instant(rs, 7),
                rs.getInt(8));
    }

    private static Instant instant(ResultSet rs, int column) throws SQLException {
        return SqlWork.instant(rs, column);
    }

    private <T> T run(SqlWork<T> work) {
        return SqlWork.on(db, "tool accounts", work);
    }
}
