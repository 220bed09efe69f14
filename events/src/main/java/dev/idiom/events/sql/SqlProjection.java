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

    /** Adds the upsert of the changed entities' projection rows: one statement for a whole batch. */
    public static void upsertRows(SqlScript script, List<AppendBatch.Change> changes) {
        script.add("INSERT INTO entity (entity_id, version, state, created_at, updated_at) VALUES " + SqlScript.rows(changes.size(), "(?, ?, ?, ?, ?)")
                + " ON DUPLICATE KEY UPDATE version = VALUES(version), state = VALUES(state), updated_at = VALUES(updated_at)");
        for (AppendBatch.Change ch : changes) {
            DigitalEntity state = ch.after();
            script.bind(state.id().toString(), state.version(), ch.json(), utc(state.createdAt()), utc(state.updatedAt()));
        }
    }

    /** The match keys the changes added or removed, written on {@code c}. */
    public void writeKeys(Connection c, List<AppendBatch.Change> changes) throws SQLException {
        SqlScript script = new SqlScript();
        addKeys(script, changes);
        script.run(c);
    }

    /**
     * Adds the statements that write the match keys the changes added or removed (none for most
     * minor events). Only those keys are written, so the cost of an append follows the change, not
     * the size of the record.
     */
    public static void addKeys(SqlScript script, List<AppendBatch.Change> changes) {
        List<String> gone = new ArrayList<>();
        List<String> added = new ArrayList<>();
        for (AppendBatch.Change ch : changes) {
            Set<MatchKeys.Key> was = MatchKeys.of(ch.before());
            Set<MatchKeys.Key> is = MatchKeys.of(ch.after());
            if (was.equals(is)) {
                continue; // most minor events touch no key
            }
            String id = ch.after().id().toString();
            for (MatchKeys.Key k : was) {
                if (!is.contains(k)) {
                    Collections.addAll(gone, id, k.kind(), k.value());
                }
            }
            for (MatchKeys.Key k : is) {
                if (!was.contains(k)) {
                    Collections.addAll(added, id, k.kind(), k.value());
                }
            }
        }
        for (int i = 0; i < gone.size(); i += 3) {
            script.add("DELETE FROM entity_match WHERE entity_id = ? AND kind = ? AND match_key = ?", gone.get(i), gone.get(i + 1), gone.get(i + 2));
        }
        if (!added.isEmpty()) {
            script.add("INSERT INTO entity_match (entity_id, kind, match_key) VALUES " + SqlScript.rows(added.size() / 3, "(?, ?, ?)"),
                    added.toArray());
        }
    }

    /**
     * Values in one key query: fewer than MySQL's and MariaDB's {@code eq_range_index_dive_limit} (200), so the optimizer
     * counts each value's rows in the index instead of estimating them from the table's statistics. With 250 values (an
     * import's batch), statistics that InnoDB recomputed in the middle of an import made every query read every key of
     * its kind: 7 of 26 imports of 200,000 entries ran at 2,400–4,800 records/s, MariaDB at a full core in these
     * queries (perf/RESULTS.md, 2026-11-25).
     */
    private static final int KEYS_PER_QUERY = 100;

    /**
     * Every DE holding each of these keys, in entity-id order; one query per kind of key (per 100 keys). The key
     * index is named and the order made here: with reads beside an import's commits, the query with
     * an ORDER BY entity_id and no index named made a 200,000-entry import run at 566 records/s
     * instead of 2,655 (perf/RESULTS.md, 2026-11-25) — past 200 values the optimizer estimates from
     * statistics rather than the index, and may read the table in primary-key order for the ORDER BY.
     */
    public Map<MatchKeys.Key, List<UUID>> findKeys(Connection c, Collection<MatchKeys.Key> keys) throws SQLException {
        Map<String, List<String>> byKind = new TreeMap<>();
        new LinkedHashSet<>(keys).forEach(k -> byKind.computeIfAbsent(k.kind(), x -> new ArrayList<>()).add(k.value()));
        Map<MatchKeys.Key, List<String>> found = new HashMap<>();
        for (Map.Entry<String, List<String>> kind : byKind.entrySet()) {
            List<String> all = kind.getValue();
            for (int from = 0; from < all.size(); from += KEYS_PER_QUERY) {
                List<String> values = all.subList(from, Math.min(all.size(), from + KEYS_PER_QUERY));
                try (PreparedStatement ps = c.prepareStatement("SELECT match_key, entity_id FROM entity_match FORCE INDEX (match_idx) WHERE kind = ? AND match_key IN ("
                        + String.join(", ", Collections.nCopies(values.size(), "?")) + ")")) {
                    ps.setString(1, kind.getKey());
                    for (int i = 0; i < values.size(); i++) {
                        ps.setString(i + 2, values.get(i));
                    }
                    try (ResultSet rs = ps.executeQuery()) {
                        while (rs.next()) {
                            found.computeIfAbsent(new MatchKeys.Key(kind.getKey(), rs.getString(1)), x -> new ArrayList<>()).add(rs.getString(2));
                        }
                    }
                }
            }
        }
        Map<MatchKeys.Key, List<UUID>> ordered = new HashMap<>();
        found.forEach((k, ids) -> ordered.put(k, ids.stream().sorted().map(UUID::fromString).toList())); // the column's binary order
        return ordered;
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
