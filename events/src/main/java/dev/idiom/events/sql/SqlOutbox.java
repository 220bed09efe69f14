package dev.idiom.events.sql;

import dev.idiom.events.AppendBatch;
import dev.idiom.events.EventStoreException;
import dev.idiom.events.Fingerprint;
import dev.idiom.events.Outbox;
import dev.idiom.events.OutboxRule;
import dev.idiom.events.Replica;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import javax.sql.DataSource;

/**
 * The outbox in SQL, for every store adapter: rows are enqueued on the append's own connection and
 * transaction ({@link #enqueue}); workers claim them in short transactions with
 * {@code FOR UPDATE SKIP LOCKED} and a lease, so no lock is held while a tool is being called.
 */
public final class SqlOutbox implements Outbox {
    private static final String COLUMNS = "entity_id, replica_key, tool, account, remote_id, entity_version, enqueued_at, attempts, parked, last_error";

    private final DataSource db;
    private final Clock clock;

    public SqlOutbox(DataSource db, Clock clock) {
        this.db = db;
        this.clock = clock;
    }

    static String replicaKey(String tool, String account, String remoteId) {
        return Fingerprint.of(tool + "\n" + account + "\n" + remoteId);
    }

    /**
     * Enqueues, in the append's transaction, a push to every replica {@link OutboxRule} names: one
     * row per replica however many changes come (the push sends the latest state); a parked row is
     * due again, since the new change may be what the tool wanted.
     */
    public static void enqueue(Connection c, List<AppendBatch.Change> changes, Instant now) throws SQLException {
        SqlScript script = new SqlScript();
        enqueue(script, changes, now);
        script.run(c);
    }

    /** Adds the statement of {@link #enqueue(Connection, List, Instant)} to a batch's script: one multi-row upsert, or nothing. */
    public static void enqueue(SqlScript script, List<AppendBatch.Change> changes, Instant now) {
        List<Object[]> owed = new ArrayList<>();
        LocalDateTime at = SqlProjection.utc(now);
        for (AppendBatch.Change ch : changes) {
            for (Replica r : OutboxRule.replicasToPush(ch.before(), ch.after())) {
                String account = r.account() == null ? "" : r.account();
                owed.add(new Object[] {ch.after().id().toString(), replicaKey(r.tool(), account, r.remoteId()), r.tool(), account, r.remoteId(),
                        ch.after().version(), at, at});
            }
        }
        // in the key order a plan's owe uses, so an append and a plan owing the same rows lock them in one order (a stable sort:
        // a DE changed twice in the batch keeps its later version last)
        owed.sort(java.util.Comparator.comparing((Object[] o) -> (String) o[0]).thenComparing(o -> (String) o[1]));
        List<Object> rows = new ArrayList<>();
        owed.forEach(o -> Collections.addAll(rows, o));
        if (rows.isEmpty()) {
            return; // the common append (a DE without replicas, or an acknowledgement): no statement at all
        }
        script.add("INSERT INTO outbox (entity_id, replica_key, tool, account, remote_id, entity_version, enqueued_at, due_at) VALUES "
                + SqlScript.rows(rows.size() / 8, "(?, ?, ?, ?, ?, ?, ?, ?)") + " ON DUPLICATE KEY UPDATE "
                // assignments run left to right: read parked before clearing it
                + "due_at = IF(parked, VALUES(due_at), due_at), attempts = IF(parked, 0, attempts), last_error = IF(parked, NULL, last_error), "
                + "parked = FALSE, entity_version = VALUES(entity_version)", rows.toArray());
    }

    @Override
    public List<Entry> claim(String owner, int max, Duration lease, String tool, String account) {
        return tx(c -> {
            Instant now = clock.instant();
            List<String[]> paused = paused(c);
            StringBuilder notPaused = new StringBuilder(tool == null ? "" : " AND tool = ? AND account = ?");
            if (!paused.isEmpty()) {
                notPaused.append(" AND (tool, account) NOT IN (").append(String.join(", ", java.util.Collections.nCopies(paused.size(), "(?, ?)")))
                        .append(")");
            }
            List<Entry> out = new ArrayList<>();
            List<String[]> keys = new ArrayList<>();
            try (PreparedStatement ps = c.prepareStatement("SELECT " + COLUMNS + " FROM outbox WHERE parked = FALSE AND due_at <= ? "
                    + "AND (lease_until IS NULL OR lease_until < ?)" + notPaused + " ORDER BY due_at LIMIT ? FOR UPDATE SKIP LOCKED")) {
                int i = 1;
                ps.setObject(i++, SqlProjection.utc(now));
                ps.setObject(i++, SqlProjection.utc(now));
                if (tool != null) {
                    ps.setString(i++, tool);
                    ps.setString(i++, account == null ? "" : account);
                }
                for (String[] p : paused) {
                    ps.setString(i++, p[0]);
                    ps.setString(i++, p[1]);
                }
                ps.setInt(i, max);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        out.add(entry(rs));
                        keys.add(new String[] {rs.getString(1), rs.getString(2)});
                    }
                }
            }
            try (PreparedStatement ps = c.prepareStatement("UPDATE outbox SET lease_owner = ?, lease_until = ? WHERE entity_id = ? AND replica_key = ?")) {
                for (String[] k : keys) {
                    ps.setString(1, owner);
                    ps.setObject(2, SqlProjection.utc(now.plus(lease)));
                    ps.setString(3, k[0]);
                    ps.setString(4, k[1]);
                    ps.addBatch();
                }
                if (!keys.isEmpty()) {
                    ps.executeBatch();
                }
            }
            return out;
        });
    }

    @Override
    public List<String[]> dueAccounts() {
        return tx(c -> {
            Instant now = clock.instant();
            List<String[]> paused = paused(c);
            List<String[]> out = new ArrayList<>();
            try (PreparedStatement ps = c.prepareStatement("SELECT DISTINCT tool, account FROM outbox WHERE parked = FALSE AND due_at <= ? "
                    + "AND (lease_until IS NULL OR lease_until < ?)")) {
                ps.setObject(1, SqlProjection.utc(now));
                ps.setObject(2, SqlProjection.utc(now));
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        String[] a = {rs.getString(1), rs.getString(2)};
                        if (paused.stream().noneMatch(p -> p[0].equals(a[0]) && p[1].equals(a[1]))) {
                            out.add(a);
                        }
                    }
                }
            }
            return out;
        });
    }

    /** The accounts paused or held (read without a lock: a pause takes effect from the next claim). */
    private static List<String[]> paused(Connection c) throws SQLException {
        List<String[]> out = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT kind, account FROM tool_sync WHERE paused = TRUE"); ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                out.add(new String[] {rs.getString(1), rs.getString(2)});
            }
        }
        return out;
    }

    @Override
    public void owe(List<Owed> owed) {
        if (owed.isEmpty()) {
            return;
        }
        LocalDateTime now = SqlProjection.utc(clock.instant());
        List<Object> rows = new ArrayList<>();
        // in key order, each row once: two plans owing overlapping rows lock them in one order, never each waiting on the other
        java.util.TreeMap<String, Owed> ordered = new java.util.TreeMap<>();
        for (Owed o : owed) {
            ordered.merge(o.entityId() + "\n" + replicaKey(o.tool(), o.account() == null ? "" : o.account(), o.remoteId()), o,
                    (a, b) -> a.entityVersion() >= b.entityVersion() ? a : b);
        }
        owed = List.copyOf(ordered.values());
        for (Owed o : owed) {
            String account = o.account() == null ? "" : o.account();
            Collections.addAll(rows, o.entityId().toString(), replicaKey(o.tool(), account, o.remoteId()), o.tool(), account, o.remoteId(),
                    o.entityVersion(), now, now);
        }
        SqlScript script = new SqlScript();
        script.add("INSERT INTO outbox (entity_id, replica_key, tool, account, remote_id, entity_version, enqueued_at, due_at) VALUES "
                + SqlScript.rows(owed.size(), "(?, ?, ?, ?, ?, ?, ?, ?)") + " ON DUPLICATE KEY UPDATE "
                // a parked row owed again for a newer version of its DE (the DE changed since the tool refused it) is due again;
                // assignments run left to right: read parked and the old version before they change
                + "due_at = IF(parked AND VALUES(entity_version) > entity_version, VALUES(due_at), due_at), "
                + "attempts = IF(parked AND VALUES(entity_version) > entity_version, 0, attempts), "
                + "last_error = IF(parked AND VALUES(entity_version) > entity_version, NULL, last_error), "
                + "parked = IF(VALUES(entity_version) > entity_version, FALSE, parked), "
                + "entity_version = GREATEST(entity_version, VALUES(entity_version))", rows.toArray());
        tx(c -> {
            script.run(c);
            return null;
        });
    }

    @Override
    public Map<String, Depth> depth() {
        return tx(c -> {
            Map<String, Depth> out = new java.util.TreeMap<>();
            try (PreparedStatement ps = c.prepareStatement("SELECT tool, account, SUM(parked = FALSE), SUM(parked = TRUE), MIN(enqueued_at) "
                    + "FROM outbox GROUP BY tool, account"); ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.put(Outbox.accountKey(rs.getString(1), rs.getString(2)), new Depth(rs.getInt(3), rs.getInt(4),
                            rs.getObject(5, LocalDateTime.class).toInstant(ZoneOffset.UTC)));
                }
            }
            return out;
        });
    }

    private static Entry entry(ResultSet rs) throws SQLException {
        return new Entry(UUID.fromString(rs.getString(1)), rs.getString(3), rs.getString(4), rs.getString(5), rs.getInt(6),
                rs.getObject(7, LocalDateTime.class).toInstant(ZoneOffset.UTC), rs.getInt(8), rs.getBoolean(9), rs.getString(10));
    }

    @Override
    public void acknowledged(Entry e, int pushedVersion) {
        tx(c -> {
            try (PreparedStatement del = c.prepareStatement("DELETE FROM outbox WHERE entity_id = ? AND replica_key = ? AND entity_version <= ?");
                 PreparedStatement release = c.prepareStatement("UPDATE outbox SET lease_owner = NULL, lease_until = NULL, attempts = 0, "
                         + "last_error = NULL WHERE entity_id = ? AND replica_key = ?")) {
                del.setString(1, e.entityId().toString());
                del.setString(2, key(e));
                del.setInt(3, pushedVersion);
                if (del.executeUpdate() == 0) {
                    release.setString(1, e.entityId().toString());
                    release.setString(2, key(e));
                    release.executeUpdate(); // a newer change came meanwhile: due again at once
                }
            }
            return null;
        });
    }

    @Override
    public int forget(String tool, String account) {
        return tx(c -> {
            try (PreparedStatement ps = c.prepareStatement("DELETE FROM outbox WHERE tool = ? AND account = ?")) {
                ps.setString(1, tool);
                ps.setString(2, account == null ? "" : account);
                return ps.executeUpdate();
            }
        });
    }

    /** One statement for the lot. */
    @Override
    public void doneAll(List<Entry> entries) {
        if (entries.isEmpty()) {
            return;
        }
        List<Object> keys = new ArrayList<>();
        entries.forEach(e -> Collections.addAll(keys, e.entityId().toString(), key(e)));
        SqlScript script = new SqlScript().add("DELETE FROM outbox WHERE (entity_id, replica_key) IN (" + SqlScript.rows(entries.size(), "(?, ?)") + ")",
                keys.toArray());
        tx(c -> {
            script.run(c);
            return null;
        });
    }

    @Override
    public void retryAt(Entry e, Instant due, String error) {
        update(e, "UPDATE outbox SET due_at = ?, attempts = attempts + 1, last_error = ?, lease_owner = NULL, lease_until = NULL "
                + "WHERE entity_id = ? AND replica_key = ?", SqlProjection.utc(due), clip(error));
    }

    @Override
    public void park(Entry e, String reason) {
        update(e, "UPDATE outbox SET parked = TRUE, attempts = attempts + 1, last_error = ?, lease_owner = NULL, lease_until = NULL "
                + "WHERE entity_id = ? AND replica_key = ?", clip(reason));
    }

    @Override
    public int unpark(String tool, String account) {
        return tx(c -> {
            try (PreparedStatement ps = c.prepareStatement("UPDATE outbox SET parked = FALSE, attempts = 0, due_at = ? WHERE tool = ? AND account = ? "
                    + "AND parked = TRUE")) {
                ps.setObject(1, SqlProjection.utc(clock.instant()));
                ps.setString(2, tool);
                ps.setString(3, account == null ? "" : account);
                return ps.executeUpdate();
            }
        });
    }

    @Override
    public java.util.Set<UUID> copiesTried(String tool, String account) {
        return tx(c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT entity_id FROM outbox WHERE tool = ? AND account = ? AND remote_id = ? "
                    + "AND (attempts > 0 OR lease_owner IS NOT NULL)")) {
                ps.setString(1, tool);
                ps.setString(2, account == null ? "" : account);
                ps.setString(3, NEW_COPY);
                java.util.Set<UUID> out = new java.util.HashSet<>();
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        out.add(UUID.fromString(rs.getString(1)));
                    }
                }
                return out;
            }
        });
    }

    @Override
    public List<Entry> list(String tool, String account, int max) {
        return tx(c -> {
            String where = tool == null ? "" : " WHERE tool = ? AND account = ?";
            try (PreparedStatement ps = c.prepareStatement("SELECT " + COLUMNS + " FROM outbox" + where + " ORDER BY parked DESC, enqueued_at LIMIT ?")) {
                int i = 1;
                if (tool != null) {
                    ps.setString(i++, tool);
                    ps.setString(i++, account == null ? "" : account);
                }
                ps.setInt(i, max);
                List<Entry> out = new ArrayList<>();
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        out.add(entry(rs));
                    }
                }
                return out;
            }
        });
    }

    private void update(Entry e, String sql, Object... leading) {
        tx(c -> {
            try (PreparedStatement ps = c.prepareStatement(sql)) {
                int i = 1;
                for (Object o : leading) {
                    ps.setObject(i++, o);
                }
                ps.setString(i++, e.entityId().toString());
                ps.setString(i, key(e));
                ps.executeUpdate();
            }
            return null;
        });
    }

    private static String key(Entry e) {
        return replicaKey(e.tool(), e.account(), e.remoteId());
    }

    private static String clip(String s) {
        return s == null ? null : s.length() > 1000 ? s.substring(0, 999) + "…" : s;
    }

    private interface Work<T> {
        T run(Connection c) throws SQLException;
    }

    private <T> T tx(Work<T> work) {
        try (Connection c = db.getConnection()) {
            c.setAutoCommit(false);
            try {
                T t = work.run(c);
                c.commit();
                return t;
            } catch (SQLException | RuntimeException e) {
                c.rollback();
                throw e;
            }
        } catch (SQLException e) {
            throw new EventStoreException("the outbox could not be read or written: " + e.getMessage(), e);
        }
    }
}
