package dev.idiom.events.mysql;

import dev.idiom.events.Author;
import dev.idiom.events.DigitalEntity;
import dev.idiom.events.EventCodec;
import dev.idiom.events.MatchKeys;
import dev.idiom.events.Metadata;
import dev.idiom.events.Normalized;
import dev.idiom.events.RebuildReport;
import dev.idiom.events.RecordedEvent;
import dev.idiom.events.SearchPage;
import dev.idiom.events.SearchQuery;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
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

    /**
     * Writes {@code state} (which was {@code before}) on the append's connection and transaction.
     *
     * @return the stored JSON of the state
     */
    public String write(Connection c, DigitalEntity state, DigitalEntity before) throws SQLException {
        String json = writeRow(c, state);
        writeKeys(c, state, before);
        return json;
    }

    /** The projection row: the state as deterministic JSON, with its version; returns that JSON. */
    public String writeRow(Connection c, DigitalEntity state) throws SQLException {
        String json = codec.entity(state);
        try (PreparedStatement ps = c.prepareStatement(
                "INSERT INTO entity (entity_id, version, state, created_at, updated_at) VALUES (?, ?, ?, ?, ?) "
                        + "ON DUPLICATE KEY UPDATE version = VALUES(version), state = VALUES(state), updated_at = VALUES(updated_at)")) {
            ps.setString(1, state.id().toString());
            ps.setInt(2, state.version());
            ps.setString(3, json);
            ps.setObject(4, utc(state.createdAt()));
            ps.setObject(5, utc(state.updatedAt()));
            ps.executeUpdate();
        }
        return json;
    }

    /** The search keys (tags, authors' family names, title words), rewritten where they changed. */
    public void writeKeys(Connection c, DigitalEntity state, DigitalEntity before) throws SQLException {
        replaceKeys(c, "entity_tag", "tag", state.id(), foldedTags(before), foldedTags(state));
        replaceKeys(c, "entity_author", "family", state.id(), families(before), families(state));
        replaceKeys(c, "entity_word", "word", state.id(), Normalized.words(before.metadata().title()), Normalized.words(state.metadata().title()));
        Set<MatchKeys.Key> was = MatchKeys.of(before);
        Set<MatchKeys.Key> is = MatchKeys.of(state);
        if (!was.equals(is)) {
            try (PreparedStatement del = c.prepareStatement("DELETE FROM entity_match WHERE entity_id = ?")) {
                del.setString(1, state.id().toString());
                del.executeUpdate();
            }
            try (PreparedStatement ins = c.prepareStatement("INSERT INTO entity_match (entity_id, kind, match_key) VALUES (?, ?, ?)")) {
                for (MatchKeys.Key k : is) {
                    ins.setString(1, state.id().toString());
                    ins.setString(2, k.kind());
                    ins.setString(3, k.value());
                    ins.addBatch();
                }
                ins.executeBatch();
            }
        }
    }

    /** The DE that has this copy as a replica, if any. */
    public Optional<UUID> findReplica(Connection c, String tool, String account, String remoteId) throws SQLException {
        return findKey(c, MatchKeys.replica(tool, account, remoteId));
    }

    /** The DE holding this exact key (a replica's identity, or a tool's identity hint), if any. */
    public Optional<UUID> findKey(Connection c, MatchKeys.Key k) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT entity_id FROM entity_match WHERE kind = ? AND match_key = ? LIMIT 1")) {
            ps.setString(1, k.kind());
            ps.setString(2, k.value());
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(UUID.fromString(rs.getString(1))) : Optional.empty();
            }
        }
    }

    /**
     * The DE an imported record describes, if any: the first key (DOI, then URL, then title +
     * first author) whose DE is compatible with the record (no different DOI, years within one).
     */
    public Optional<UUID> findMatch(Connection c, Metadata record) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT m.entity_id, e.state FROM entity_match m JOIN entity e ON e.entity_id = m.entity_id "
                + "WHERE m.kind = ? AND m.match_key = ? ORDER BY m.entity_id LIMIT 20")) {
            for (MatchKeys.Key k : MatchKeys.of(record)) {
                ps.setString(1, k.kind());
                ps.setString(2, k.value());
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        if (MatchKeys.compatible(record, codec.entity(rs.getString(2)).metadata(), k.kind())) {
                            return Optional.of(UUID.fromString(rs.getString(1)));
                        }
                    }
                }
            }
        }
        return Optional.empty();
    }

    /** Rewrites one kind of search key only when it changed (most minor events touch none). */
    private static void replaceKeys(Connection c, String table, String column, UUID id, Set<String> before, Set<String> after)
            throws SQLException {
        if (before.equals(after)) {
            return;
        }
        try (PreparedStatement del = c.prepareStatement("DELETE FROM " + table + " WHERE entity_id = ?")) {
            del.setString(1, id.toString());
            del.executeUpdate();
        }
        if (after.isEmpty()) {
            return;
        }
        try (PreparedStatement ins = c.prepareStatement("INSERT INTO " + table + " (entity_id, " + column + ") VALUES (?, ?)")) {
            for (String key : after) {
                ins.setString(1, id.toString());
                ins.setString(2, key);
                ins.addBatch();
            }
            ins.executeBatch();
        }
    }

    private static Set<String> foldedTags(DigitalEntity de) {
        Set<String> tags = new LinkedHashSet<>();
        de.metadata().tags().forEach(t -> tags.add(clip(Normalized.fold(t))));
        tags.remove("");
        return tags;
    }

    private static Set<String> families(DigitalEntity de) {
        Set<String> names = new LinkedHashSet<>();
        for (Author a : de.metadata().authors()) {
            names.add(clip(Normalized.fold(a.family())));
        }
        names.remove("");
        return names;
    }

    private static String clip(String s) {
        return s.length() > 190 ? s.substring(0, 190) : s;
    }

    /** Entities matching every given criterion, in id (= creation) order after the cursor. */
    public SearchPage search(Connection c, SearchQuery q) throws SQLException {
        StringBuilder sql = new StringBuilder("SELECT e.state FROM entity e WHERE 1 = 1");
        List<String> args = new ArrayList<>();
        if (q.tag() != null && !q.tag().isBlank()) {
            sql.append(" AND EXISTS (SELECT 1 FROM entity_tag t WHERE t.entity_id = e.entity_id AND t.tag = ?)");
            args.add(Normalized.fold(q.tag()));
        }
        if (q.author() != null && !q.author().isBlank()) {
            sql.append(" AND EXISTS (SELECT 1 FROM entity_author a WHERE a.entity_id = e.entity_id AND a.family = ?)");
            args.add(Normalized.fold(q.author()));
        }
        if (q.words() != null) {
            for (String w : Normalized.words(q.words())) {
                sql.append(" AND EXISTS (SELECT 1 FROM entity_word w WHERE w.entity_id = e.entity_id AND w.word = ?)");
                args.add(w);
            }
        }
        if (q.cursor() != null && !q.cursor().isBlank()) {
            sql.append(" AND e.entity_id > ?");
            args.add(q.cursor());
        }
        sql.append(" ORDER BY e.entity_id LIMIT ?");
        try (PreparedStatement ps = c.prepareStatement(sql.toString())) {
            int i = 1;
            for (String a : args) {
                ps.setString(i++, a);
            }
            ps.setInt(i, q.limit() + 1);
            List<DigitalEntity> found = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    found.add(codec.entity(rs.getString(1)));
                }
            }
            if (found.size() > q.limit()) {
                found = found.subList(0, q.limit());
                return new SearchPage(List.copyOf(found), found.getLast().id().toString());
            }
            return new SearchPage(List.copyOf(found), null);
        }
    }

    /** Supplies events in (entity, version) order; null at the end. */
    public interface EventCursor {
        RecordedEvent next() throws SQLException;
    }

    /**
     * Folds each entity's events (streamed, one entity in memory at a time) and compares the
     * result byte for byte with the stored projection, read over a second connection.
     */
    public RebuildReport verify(DataSource db, EventCursor events) throws SQLException {
        List<UUID> differing = new ArrayList<>();
        int entities = 0;
        long count = 0;
        try (Connection lookup = db.getConnection();
             PreparedStatement stored = lookup.prepareStatement("SELECT state FROM entity WHERE entity_id = ?")) {
            DigitalEntity state = null;
            for (RecordedEvent e = events.next(); ; e = events.next()) {
                if (state != null && (e == null || !e.entityId().equals(state.id()))) {
                    entities++;
                    if (!codec.entity(state).equals(storedState(stored, state.id()))) {
                        differing.add(state.id());
                    }
                }
                if (e == null) {
                    break;
                }
                count++;
                if (state == null || !e.entityId().equals(state.id())) {
                    state = DigitalEntity.empty(e.entityId());
                }
                state = state.apply(e.event(), e.recordedAt());
            }
            try (PreparedStatement ps = lookup.prepareStatement("SELECT entity_id FROM entity e WHERE NOT EXISTS "
                    + "(SELECT 1 FROM event v WHERE v.entity_id = e.entity_id)"); ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    differing.add(UUID.fromString(rs.getString(1))); // a projection without events
                }
            }
        }
        return new RebuildReport(entities, count, differing);
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
