package dev.idiom.events.mysql;

import dev.idiom.events.AppendResult;
import dev.idiom.events.DigitalEntity;
import dev.idiom.events.EventCodec;
import dev.idiom.events.EventStore;
import dev.idiom.events.EventStoreException;
import dev.idiom.events.NewEvent;
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
import java.util.List;
import java.util.Optional;
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
    private final SqlProjection projection;

    public MySqlEventStore(DataSource db, EventCodec codec, Clock clock) {
        this.db = db;
        this.codec = codec;
        this.clock = clock;
        this.projection = new SqlProjection(codec);
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
        Instant now = clock.instant().truncatedTo(ChronoUnit.MICROS);
        DigitalEntity before = state;
        state = before.appending(expectedVersion, events, now);
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
                ps.setObject(8, SqlProjection.utc(now));
                ps.addBatch();
            }
            ps.executeBatch();
        }
        String json = projection.write(c, state, before);
        return new AppendResult(state, last, false, json);
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
                DigitalEntity then = DigitalEntity.fold(entityId, upTo);
                return Optional.of(new AppendResult(then, lastPosition, true, codec.entity(then)));
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
    public Optional<UUID> findReplica(String tool, String account, String remoteId) {
        return query("find a replica", c -> projection.findReplica(c, tool, account, remoteId));
    }

    @Override
    public Optional<UUID> findKey(dev.idiom.events.MatchKeys.Key key) {
        return query("find a key", c -> projection.findKey(c, key));
    }

    @Override
    public Optional<UUID> findMatch(dev.idiom.events.Metadata record) {
        return query("find a matching entity", c -> projection.findMatch(c, record));
    }

    @Override
    public SearchPage search(SearchQuery q) {
        return query("search", c -> projection.search(c, q));
    }

    @Override
    public RebuildReport verifyProjections() {
        return query("verify projections", c -> {
            // streamed in entity order so memory stays flat however many events there are
            try (PreparedStatement ps = c.prepareStatement("SELECT " + EVENT_COLUMNS + " FROM event ORDER BY entity_id, version",
                    ResultSet.TYPE_FORWARD_ONLY, ResultSet.CONCUR_READ_ONLY)) {
                ps.setFetchSize(Integer.MIN_VALUE);
                try (ResultSet rs = ps.executeQuery()) {
                    return projection.verify(db, () -> rs.next() ? event(rs) : null);
                }
            }
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
