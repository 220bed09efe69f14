package dev.idiom.events.sql;

import dev.idiom.events.AppendBatch;
import dev.idiom.events.DigitalEntity;
import dev.idiom.events.EventCodec;
import dev.idiom.events.EventStoreException;
import dev.idiom.events.MatchKeys;
import dev.idiom.events.RebuildReport;
import dev.idiom.events.RecordedEvent;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.function.Consumer;
import javax.sql.DataSource;

/**
 * The DE projection tables in SQL, shared by every event-store adapter: the projection row and
 * search keys written inside the append's transaction, search over them, and the rebuild check.
 */
public final class SqlProjection {
    private final EventCodec codec;

    public SqlProjection(EventCodec codec) {
        this.codec = codec;
    }

    /** The projection row upsert for {@code n} states (bound by {@link #bindRow}), one statement for a whole batch. */
    public static String rowUpsert(int n) {
        return "INSERT INTO entity (entity_id, version, state, created_at, updated_at) VALUES " + String.join(", ", java.util.Collections.nCopies(n,
                "(?, ?, ?, ?, ?)")) + " ON DUPLICATE KEY UPDATE version = VALUES(version), state = VALUES(state), updated_at = VALUES(updated_at)";
    }

    /** Binds one change's row of {@link #rowUpsert} from parameter {@code k}; returns the next parameter's index. */
    public static int bindRow(PreparedStatement ps, int k, AppendBatch.Change ch) throws SQLException {
        DigitalEntity state = ch.after();
        ps.setString(k++, state.id().toString());
        ps.setInt(k++, state.version());
        ps.setString(k++, ch.json());
        ps.setObject(k++, utc(state.createdAt()));
        ps.setObject(k++, utc(state.updatedAt()));
        return k;
    }

    /** The match keys the changes added or removed. */
    public void writeKeys(Connection c, List<AppendBatch.Change> changes) throws SQLException {
        for (KeyTable table : KeyTable.values()) {
            table.write(c, changes);
        }
    }

    /**
     * The match keys of a DE (DOI, URL, title+year+author, replicas). Only the keys a change added or removed
     * are written, so the cost of an append follows the change, not the size of the record.
     */
    private enum KeyTable {
        MATCH("entity_match", "kind", "match_key") {
            @Override
            Set<List<String>> keys(DigitalEntity de) {
                Set<List<String>> out = new LinkedHashSet<>();
                MatchKeys.of(de).forEach(k -> out.add(List.of(k.kind(), k.value())));
                return out;
            }
        };

        private final String table;
        private final List<String> columns;

        KeyTable(String table, String... columns) {
            this.table = table;
            this.columns = List.of(columns);
        }

        abstract Set<List<String>> keys(DigitalEntity de);

        void write(Connection c, List<AppendBatch.Change> changes) throws SQLException {
            String where = String.join(" = ? AND ", columns) + " = ?";
            try (PreparedStatement del = c.prepareStatement("DELETE FROM " + table + " WHERE entity_id = ? AND " + where);
                 PreparedStatement ins = c.prepareStatement("INSERT INTO " + table + " (entity_id, " + String.join(", ", columns)
                         + ") VALUES (?" + ", ?".repeat(columns.size()) + ")")) {
                int deletes = 0;
                int inserts = 0;
                for (AppendBatch.Change ch : changes) {
                    Set<List<String>> was = keys(ch.before());
                    Set<List<String>> is = keys(ch.after());
                    if (was.equals(is)) {
                        continue; // most minor events touch no key
                    }
                    String id = ch.after().id().toString();
                    for (List<String> k : was) {
                        if (!is.contains(k)) {
                            bind(del, id, k);
                            deletes++;
                        }
                    }
                    for (List<String> k : is) {
                        if (!was.contains(k)) {
                            bind(ins, id, k);
                            inserts++;
                        }
                    }
                }
                if (deletes > 0) {
                    del.executeBatch();
                }
                if (inserts > 0) {
                    ins.executeBatch();
                }
            }
        }

        private static void bind(PreparedStatement ps, String id, List<String> key) throws SQLException {
            ps.setString(1, id);
            for (int i = 0; i < key.size(); i++) {
                ps.setString(i + 2, key.get(i));
            }
            ps.addBatch();
        }
    }

    /** Every DE holding each of these keys, in entity-id order; one query per kind of key. */
    public Map<MatchKeys.Key, List<UUID>> findKeys(Connection c, Collection<MatchKeys.Key> keys) throws SQLException {
        Map<String, List<String>> byKind = new TreeMap<>();
        new LinkedHashSet<>(keys).forEach(k -> byKind.computeIfAbsent(k.kind(), x -> new ArrayList<>()).add(k.value()));
        Map<MatchKeys.Key, List<UUID>> found = new HashMap<>();
        for (Map.Entry<String, List<String>> kind : byKind.entrySet()) {
            List<String> values = kind.getValue();
            try (PreparedStatement ps = c.prepareStatement("SELECT match_key, entity_id FROM entity_match WHERE kind = ? AND match_key IN ("
                    + String.join(", ", Collections.nCopies(values.size(), "?")) + ") ORDER BY entity_id")) {
                ps.setString(1, kind.getKey());
                for (int i = 0; i < values.size(); i++) {
                    ps.setString(i + 2, values.get(i));
                }
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        found.computeIfAbsent(new MatchKeys.Key(kind.getKey(), rs.getString(1)), x -> new ArrayList<>())
                                .add(UUID.fromString(rs.getString(2)));
                    }
                }
            }
        }
        return found;
    }

    /** The projections of these entities, those that exist. */
    public Map<UUID, DigitalEntity> loadAll(Connection c, Collection<UUID> ids) throws SQLException {
        Map<UUID, DigitalEntity> found = new HashMap<>();
        if (ids.isEmpty()) {
            return found;
        }
        List<UUID> list = List.copyOf(new LinkedHashSet<>(ids));
        try (PreparedStatement ps = c.prepareStatement("SELECT state FROM entity WHERE entity_id IN ("
                + String.join(", ", Collections.nCopies(list.size(), "?")) + ")")) {
            for (int i = 0; i < list.size(); i++) {
                ps.setString(i + 1, list.get(i).toString());
            }
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    DigitalEntity de = codec.entity(rs.getString(1));
                    found.put(de.id(), de);
                }
            }
        }
        return found;
    }

    /** Supplies events in (entity, version) order; null at the end. */
    public interface EventCursor {
        RecordedEvent next() throws SQLException;
    }

    /**
     * Folds each entity's events (streamed, one entity in memory at a time) and hands each
     * result to {@code each}.
     */
    public static Folded foldEach(EventCursor events, Consumer<DigitalEntity> each) throws SQLException {
        long count = 0;
        long entities = 0;
        DigitalEntity state = null;
        for (RecordedEvent e = events.next(); ; e = events.next()) {
            if (state != null && (e == null || !e.entityId().equals(state.id()))) {
                entities++;
                each.accept(state);
            }
            if (e == null) {
                return new Folded(entities, count);
            }
            count++;
            if (state == null || !e.entityId().equals(state.id())) {
                state = DigitalEntity.empty(e.entityId());
            }
            state = state.apply(e.event(), e.recordedAt());
        }
    }

    /** How many entities a fold produced, from how many events. */
    public record Folded(long entities, long events) {}

    /**
     * Folds each entity's events and compares the result byte for byte with the stored
     * projection, read over a second connection.
     */
    public RebuildReport verify(DataSource db, EventCursor events) throws SQLException {
        List<UUID> differing = new ArrayList<>();
        Folded folded;
        try (Connection lookup = db.getConnection();
             PreparedStatement stored = lookup.prepareStatement("SELECT state FROM entity WHERE entity_id = ?")) {
            folded = foldEach(events, state -> {
                try {
                    if (!codec.entity(state).equals(storedState(stored, state.id()))) {
                        differing.add(state.id());
                    }
                } catch (SQLException e) {
                    throw new EventStoreException("reading the projection of " + state.id() + " failed: " + e.getMessage(), e);
                }
            });
            try (PreparedStatement ps = lookup.prepareStatement("SELECT entity_id FROM entity e WHERE NOT EXISTS "
                    + "(SELECT 1 FROM event v WHERE v.entity_id = e.entity_id)"); ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    differing.add(UUID.fromString(rs.getString(1))); // a projection without events
                }
            }
        }
        return new RebuildReport(Math.toIntExact(folded.entities()), folded.events(), differing);
    }

    private static String storedState(PreparedStatement stored, UUID id) throws SQLException {
        stored.setString(1, id.toString());
        try (ResultSet rs = stored.executeQuery()) {
            return rs.next() ? rs.getString(1) : null;
        }
    }

    /** DATETIME(6) columns hold UTC wall-clock time; LocalDateTime passes through unconverted. */
    public static LocalDateTime utc(Instant i) {
        return LocalDateTime.ofInstant(i, ZoneOffset.UTC);
    }
}
