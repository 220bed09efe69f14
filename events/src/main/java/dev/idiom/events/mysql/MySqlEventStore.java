package dev.idiom.events.mysql;

import dev.idiom.events.AppendResult;
import dev.idiom.events.Author;
import dev.idiom.events.DigitalEntity;
import dev.idiom.events.EventCodec;
import dev.idiom.events.EventStore;
import dev.idiom.events.EventStoreException;
import dev.idiom.events.NewEvent;
import dev.idiom.events.Normalized;
import dev.idiom.events.RebuildReport;
import dev.idiom.events.RecordedEvent;
import dev.idiom.events.SearchPage;
import dev.idiom.events.SearchQuery;
import dev.idiom.events.StaleVersionException;
import dev.idiom.events.UnknownEntityException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLIntegrityConstraintViolationException;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import javax.sql.DataSource;

/**
 * The event store on MySQL/MariaDB. One append is one transaction: idempotency check by event id,
 * optimistic check of the stream version (the projection row is locked), positions taken from the
 * sequence row (whose lock is held to commit, so positions follow commit order), events inserted
 * in one batch, projection and search keys rewritten.
 */
public final class MySqlEventStore implements EventStore {
    private static final String EVENT_COLUMNS = "position, event_id, entity_id, version, type, source, payload, recorded_at";

    private final DataSource db;
    private final EventCodec codec;
    private final Clock clock;

    public MySqlEventStore(DataSource db, EventCodec codec, Clock clock) {
        this.db = db;
        this.codec = codec;
        this.clock = clock;
    }

    @Override
    public AppendResult append(UUID entityId, int expectedVersion, List<NewEvent> events) {
        if (events.isEmpty()) {
            throw new IllegalArgumentException("nothing to append");
        }
        try (Connection c = db.getConnection()) {
            c.setAutoCommit(false);
            try {
                Optional<AppendResult> replay = replayed(c, entityId, events);
                if (replay.isPresent()) {
                    c.rollback();
                    return replay.get();
                }
                AppendResult result = appendNew(c, entityId, expectedVersion, events);
                c.commit();
                return result;
            } catch (SQLIntegrityConstraintViolationException race) {
                c.rollback();
                // a concurrent append won: either it recorded these very events, or it moved the stream
                Optional<AppendResult> replay = replayed(c, entityId, events);
                c.rollback();
                if (replay.isPresent()) {
                    return replay.get();
                }
                throw new StaleVersionException(entityId, expectedVersion, currentVersion(c, entityId));
            } catch (RuntimeException | SQLException e) {
                c.rollback();
                throw e;
            } finally {
                c.setAutoCommit(true);
            }
        } catch (SQLException e) {
            throw new EventStoreException("append to " + entityId + " failed: " + e.getMessage(), e);
        }
    }

    private AppendResult appendNew(Connection c, UUID entityId, int expectedVersion, List<NewEvent> events) throws SQLException {
        DigitalEntity state = DigitalEntity.empty(entityId);
        try (PreparedStatement ps = c.prepareStatement("SELECT state FROM entity WHERE entity_id = ? FOR UPDATE")) {
            ps.setString(1, entityId.toString());
            try (ResultSet rs = ps.executeQuery()) {
                if (rs.next()) {
                    state = codec.entity(rs.getString(1));
                }
            }
        }
        if (state.version() != expectedVersion) {
            throw new StaleVersionException(entityId, expectedVersion, state.version());
        }
        Instant now = clock.instant().truncatedTo(ChronoUnit.MICROS);
        DigitalEntity before = state;
        for (NewEvent e : events) {
            state = state.apply(e.event(), now);
        }
        long last = reservePositions(c, events.size());
        long position = last - events.size() + 1;
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO event (" + EVENT_COLUMNS + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?)")) {
            int version = before.version();
            for (NewEvent e : events) {
                ps.setLong(1, position++);
                ps.setString(2, e.eventId().toString());
                ps.setString(3, entityId.toString());
                ps.setInt(4, ++version);
                ps.setString(5, e.event().type());
                ps.setString(6, e.source());
                ps.setString(7, codec.payload(e.event()));
                ps.setObject(8, utc(now));
                ps.addBatch();
            }
            ps.executeBatch();
        }
        writeProjection(c, state, before);
        return new AppendResult(state, last, false);
    }

    /** Takes {@code n} positions; the row lock is held until this transaction ends. */
    private static long reservePositions(Connection c, int n) throws SQLException {
        try (PreparedStatement up = c.prepareStatement("UPDATE event_sequence SET last_position = last_position + ? WHERE name = 'global'")) {
            up.setInt(1, n);
            up.executeUpdate();
        }
        try (PreparedStatement q = c.prepareStatement("SELECT last_position FROM event_sequence WHERE name = 'global'");
             ResultSet rs = q.executeQuery()) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private void writeProjection(Connection c, DigitalEntity state, DigitalEntity before) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "INSERT INTO entity (entity_id, version, state, created_at, updated_at) VALUES (?, ?, ?, ?, ?) "
                        + "ON DUPLICATE KEY UPDATE version = VALUES(version), state = VALUES(state), updated_at = VALUES(updated_at)")) {
            ps.setString(1, state.id().toString());
            ps.setInt(2, state.version());
            ps.setString(3, codec.entity(state));
            ps.setObject(4, utc(state.createdAt()));
            ps.setObject(5, utc(state.updatedAt()));
            ps.executeUpdate();
        }
        replaceKeys(c, "entity_tag", "tag", state.id(), foldedTags(before), foldedTags(state));
        replaceKeys(c, "entity_author", "family", state.id(), families(before), families(state));
        replaceKeys(c, "entity_word", "word", state.id(), Normalized.words(before.metadata().title()), Normalized.words(state.metadata().title()));
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

    /** If every event id was recorded before, the result of that earlier append. */
    private Optional<AppendResult> replayed(Connection c, UUID entityId, List<NewEvent> events) throws SQLException {
        StringBuilder sql = new StringBuilder("SELECT entity_id, MAX(position), COUNT(*) FROM event WHERE event_id IN (");
        for (int i = 0; i < events.size(); i++) {
            sql.append(i == 0 ? "?" : ", ?");
        }
        sql.append(") GROUP BY entity_id");
        try (PreparedStatement ps = c.prepareStatement(sql.toString())) {
            for (int i = 0; i < events.size(); i++) {
                ps.setString(i + 1, events.get(i).eventId().toString());
            }
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return Optional.empty();
                }
                UUID recordedFor = UUID.fromString(rs.getString(1));
                long lastPosition = rs.getLong(2);
                int count = rs.getInt(3);
                if (!recordedFor.equals(entityId) || count != events.size() || rs.next()) {
                    throw new dev.idiom.events.InvalidValueException(
                            "event ids were already used by a different append; use new ids for new events");
                }
                List<RecordedEvent> upTo = new ArrayList<>();
                for (RecordedEvent e : history(c, entityId)) {
                    if (e.position() <= lastPosition) {
                        upTo.add(e);
                    }
                }
                return Optional.of(new AppendResult(DigitalEntity.fold(entityId, upTo), lastPosition, true));
            }
        }
    }

    private int currentVersion(Connection c, UUID entityId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT version FROM entity WHERE entity_id = ?")) {
            ps.setString(1, entityId.toString());
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getInt(1) : 0;
            }
        }
    }

    @Override
    public Optional<DigitalEntity> load(UUID entityId) {
        return loadStored(entityId).map(codec::entity);
    }

    @Override
    public Optional<String> loadStored(UUID entityId) {
        return query("load " + entityId, c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT state FROM entity WHERE entity_id = ?")) {
                ps.setString(1, entityId.toString());
                try (ResultSet rs = ps.executeQuery()) {
                    return rs.next() ? Optional.of(rs.getString(1)) : Optional.<String>empty();
                }
            }
        });
    }

    @Override
    public List<RecordedEvent> history(UUID entityId) {
        return query("history of " + entityId, c -> history(c, entityId));
    }

    private List<RecordedEvent> history(Connection c, UUID entityId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT " + EVENT_COLUMNS + " FROM event WHERE entity_id = ? ORDER BY version")) {
            ps.setString(1, entityId.toString());
            return events(ps);
        }
    }

    @Override
    public DigitalEntity asOfVersion(UUID entityId, int version) {
        List<RecordedEvent> all = existingHistory(entityId);
        if (version < 1 || version > all.size()) {
            throw new dev.idiom.events.InvalidValueException("entity " + entityId + " has versions 1 to " + all.size() + ", not " + version);
        }
        return DigitalEntity.fold(entityId, all.subList(0, version));
    }

    @Override
    public DigitalEntity asOfTime(UUID entityId, Instant time) {
        List<RecordedEvent> upTo = existingHistory(entityId).stream().filter(e -> !e.recordedAt().isAfter(time)).toList();
        if (upTo.isEmpty()) {
            throw new dev.idiom.events.InvalidValueException("entity " + entityId + " did not exist yet at " + time);
        }
        return DigitalEntity.fold(entityId, upTo);
    }

    private List<RecordedEvent> existingHistory(UUID entityId) {
        List<RecordedEvent> all = history(entityId);
        if (all.isEmpty()) {
            throw new UnknownEntityException(entityId);
        }
        return all;
    }

    @Override
    public List<RecordedEvent> after(long after, int limit) {
        return query("read the change feed", c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT " + EVENT_COLUMNS + " FROM event WHERE position > ? ORDER BY position LIMIT ?")) {
                ps.setLong(1, after);
                ps.setInt(2, limit);
                return events(ps);
            }
        });
    }

    @Override
    public long headPosition() {
        // the sequence row counts positions of transactions still open; the events table does not
        return query("read the head position", c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT COALESCE(MAX(position), 0) FROM event"); ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        });
    }

    @Override
    public SearchPage search(SearchQuery q) {
        StringBuilder sql = new StringBuilder("SELECT e.entity_id, e.state FROM entity e WHERE 1 = 1");
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
        return query("search", c -> {
            try (PreparedStatement ps = c.prepareStatement(sql.toString())) {
                int i = 1;
                for (String a : args) {
                    ps.setString(i++, a);
                }
                ps.setInt(i, q.limit() + 1);
                List<DigitalEntity> found = new ArrayList<>();
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        found.add(codec.entity(rs.getString(2)));
                    }
                }
                if (found.size() > q.limit()) {
                    found = found.subList(0, q.limit());
                    return new SearchPage(List.copyOf(found), found.get(found.size() - 1).id().toString());
                }
                return new SearchPage(List.copyOf(found), null);
            }
        });
    }

    @Override
    public RebuildReport verifyProjections() {
        return query("verify projections", c -> {
            List<UUID> differing = new ArrayList<>();
            int entities = 0;
            long events = 0;
            // streamed in entity order so memory stays flat however many events there are
            try (PreparedStatement ps = c.prepareStatement("SELECT " + EVENT_COLUMNS + " FROM event ORDER BY entity_id, version",
                    ResultSet.TYPE_FORWARD_ONLY, ResultSet.CONCUR_READ_ONLY)) {
                ps.setFetchSize(Integer.MIN_VALUE);
                UUID current = null;
                DigitalEntity state = null;
                List<DigitalEntity> folded = new ArrayList<>();
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        RecordedEvent e = event(rs);
                        events++;
                        if (!e.entityId().equals(current)) {
                            if (state != null) {
                                folded.add(state);
                            }
                            current = e.entityId();
                            state = DigitalEntity.empty(current);
                        }
                        state = state.apply(e.event(), e.recordedAt());
                    }
                }
                if (state != null) {
                    folded.add(state);
                }
                for (DigitalEntity de : folded) {
                    entities++;
                    String stored = loadStored(de.id()).orElse(null);
                    if (!codec.entity(de).equals(stored)) {
                        differing.add(de.id());
                    }
                }
            }
            try (PreparedStatement ps = c.prepareStatement("SELECT COUNT(*) FROM entity"); ResultSet rs = ps.executeQuery()) {
                rs.next();
                if (rs.getInt(1) != entities) {
                    differing.add(new UUID(0, 0)); // a projection row without events
                }
            }
            return new RebuildReport(entities, events, differing);
        });
    }

    private List<RecordedEvent> events(PreparedStatement ps) throws SQLException {
        List<RecordedEvent> out = new ArrayList<>();
        try (ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                out.add(event(rs));
            }
        }
        return out;
    }

    private RecordedEvent event(ResultSet rs) throws SQLException {
        return new RecordedEvent(rs.getLong(1), UUID.fromString(rs.getString(2)), UUID.fromString(rs.getString(3)), rs.getInt(4),
                rs.getString(6), rs.getObject(8, LocalDateTime.class).toInstant(ZoneOffset.UTC), codec.event(rs.getString(5), rs.getString(7)));
    }

    /** DATETIME(6) columns hold UTC wall-clock time; LocalDateTime passes through unconverted. */
    private static LocalDateTime utc(Instant i) {
        return LocalDateTime.ofInstant(i, ZoneOffset.UTC);
    }

    private interface Query<T> {
        T run(Connection c) throws SQLException;
    }

    private <T> T query(String what, Query<T> q) {
        try (Connection c = db.getConnection()) {
            return q.run(c);
        } catch (SQLException e) {
            throw new EventStoreException(what + " failed: " + e.getMessage(), e);
        }
    }
}
