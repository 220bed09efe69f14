package dev.idiom.events.mysql;

import dev.idiom.events.Append;
import dev.idiom.events.AppendBatch;
import dev.idiom.events.AppendOutcome;
import dev.idiom.events.AppendResult;
import dev.idiom.events.DigitalEntity;
import dev.idiom.events.EventCodec;
import dev.idiom.events.EventStore;
import dev.idiom.events.EventStoreException;
import dev.idiom.events.FeedEntry;
import dev.idiom.events.InvalidValueException;
import dev.idiom.events.MatchKeys;
import dev.idiom.events.RebuildReport;
import dev.idiom.events.RecordedEvent;
import dev.idiom.events.StaleVersionException;
import dev.idiom.events.sql.SqlOutbox;
import dev.idiom.events.sql.SqlProjection;
import dev.idiom.events.sql.SqlScript;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicLong;
import java.util.UUID;
import java.util.function.Consumer;
import javax.sql.DataSource;

/**
 * The event store on MySQL/MariaDB. One batch of appends is one transaction: the entities' states
 * (remembered from this store's last commit, or their projection rows locked and read), retried
 * event ids found, each append decided ({@link AppendBatch}), then in one multi-statement the
 * projections, changed match keys and outbox rows written, positions taken from the sequence row
 * (whose lock is held to commit, so positions follow commit order), the events inserted, and the
 * commit. The event table's unique (entity, version) key is what makes a decision on a remembered
 * state safe: a stale one cannot insert.
 */
public final class MySqlEventStore implements EventStore {
    private static final String EVENT_COLUMNS = "position, event_id, entity_id, version, type, source, payload, recorded_at";

    private final DataSource db;
    private final EventCodec codec;
    private final Clock clock;
    private final SqlProjection projection;
    private final TransientFailures retries;
    private final AtomicLong retried = new AtomicLong();
    private final RecentStates recent = new RecentStates(20_000);
    private final dev.idiom.events.CommitAnnouncements announcements = new dev.idiom.events.CommitAnnouncements();

    public MySqlEventStore(DataSource db, EventCodec codec, Clock clock) {
        this(db, codec, clock, TransientFailures.DEFAULT);
    }

    public MySqlEventStore(DataSource db, EventCodec codec, Clock clock, TransientFailures retries) {
        this.db = db;
        this.codec = codec;
        this.clock = clock;
        this.projection = new SqlProjection(codec);
        this.retries = retries;
    }

    @Override
    public List<AppendOutcome> appendAll(List<Append> appends) {
        return announcements.announced(appendUnannounced(appends));
    }

    @Override
    public void onCommit(dev.idiom.events.CommitListener listener) {
        announcements.add(listener);
    }

    private List<AppendOutcome> appendUnannounced(List<Append> appends) {
        if (appends.isEmpty()) {
            return List.of();
        }
        int[] attempts = {1};
        try {
            // rolled back, or committed with the answer lost: either way a retry is safe
            return retries.retrying(() -> inOneTransaction(appends), () -> {
                attempts[0]++;
                retried.incrementAndGet();
            });
        } catch (SQLException e) {
            throw new EventStoreException("append of " + appends.size() + " request(s) failed" + (attempts[0] > 1 ? " after " + attempts[0]
                    + " attempts" : "") + ": " + e.getMessage(), e);
        }
    }

    /** Transactions retried after a transient failure so far. */
    public long retried() {
        return retried.get();
    }

    /**
     * One transaction in two round trips, or one when no state needs reading: it is opened with the
     * read that locks the entities (or by the first statement of the writes) and committed by the
     * last statement of the writes, so the connection's autocommit is never switched (each switch
     * was a round trip of its own).
     */
    private List<AppendOutcome> inOneTransaction(List<Append> appends) throws SQLException {
        try (Connection c = db.getConnection()) {
            try {
                return write(c, appends, true);
            } catch (SQLException e) {
                rollbackQuietly(c);
                recent.forget(AppendBatch.entityIds(appends)); // the outcome is unknown, or a remembered state was old
                if (!violatesAUniqueKey(e)) {
                    throw e;
                }
                // another writer created one of these entities or recorded one of these event ids meanwhile
                if (appends.size() > 1) {
                    List<AppendOutcome> out = new ArrayList<>();
                    for (Append a : appends) {
                        out.addAll(appendUnannounced(List.of(a)));
                    }
                    return out;
                }
                Append a = appends.getFirst();
                Optional<AppendResult> replay;
                try {
                    replay = replayed(c, a);
                } catch (InvalidValueException reused) {
                    return List.of(AppendOutcome.refused(reused));
                }
                if (replay.isPresent()) {
                    return List.of(AppendOutcome.of(replay.get()));
                }
                return List.of(AppendOutcome.refused(new StaleVersionException(a.entityId(), a.expectedVersion(), currentVersion(c, a.entityId()))));
            } catch (RuntimeException e) {
                rollbackQuietly(c);
                recent.forget(AppendBatch.entityIds(appends));
                throw e;
            }
        }
    }

    /**
     * Ends a transaction a failed statement left open. On a connection that is already lost there is
     * nothing to roll back (the server does), and the first failure is the one to report.
     */
    private static void rollbackQuietly(Connection c) {
        try (Statement s = c.createStatement()) {
            s.execute("ROLLBACK");
        } catch (SQLException lost) {
            // the server rolls back what it did not commit when the connection goes
        }
    }

    /** A duplicate event id or stream version (SQL state class 23), also when a batch reports it. */
    private static boolean violatesAUniqueKey(SQLException e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SQLException s && s.getSQLState() != null && s.getSQLState().startsWith("23")) {
                return true;
            }
        }
        return false;
    }

    /**
     * One transaction: the entities' states, retried ids found for stale appends, decisions, writes
     * and the commit. A state is read under lock only when it is neither remembered nor a creation's
     * (an append that expects version 0 to an entity this store has not seen is taken to create it:
     * if it exists, the event table's key refuses the batch as it refuses an old remembered state).
     */
    private List<AppendOutcome> write(Connection c, List<Append> appends, boolean guess) throws SQLException {
        Set<UUID> ids = AppendBatch.entityIds(appends);
        Map<UUID, DigitalEntity> states = guess ? recent.of(ids) : new HashMap<>();
        Set<UUID> unknown = new TreeSet<>();
        Set<UUID> seen = new HashSet<>(states.keySet());
        for (Append a : appends) {
            if (seen.add(a.entityId()) && (a.expectedVersion() > 0 || !guess)) {
                unknown.add(a.entityId());
            }
        }
        boolean guessed = unknown.size() < ids.size();
        boolean open = !unknown.isEmpty();
        if (open) {
            states.putAll(lockedStates(c, unknown));
        }
        Instant now = clock.instant().truncatedTo(ChronoUnit.MICROS);
        AppendBatch batch = new AppendBatch(appends, states, Map.of(), now, codec);
        if (guessed && batch.refusesAny()) {
            // a refusal decided on a remembered or assumed state is checked against the stored one
            if (open) {
                rollbackQuietly(c);
            }
            recent.forget(ids);
            return write(c, appends, false);
        }
        // only a stale append can be a retry of a recorded one: look ids up for those alone (one round trip less per append);
        // ids reused by an accepted append hit the unique key and the batch is retried one append at a time
        List<Append> stale = batch.refusedAsStale();
        if (!stale.isEmpty()) {
            Map<UUID, AppendBatch.Recorded> recorded = recorded(c, AppendBatch.eventIds(stale));
            if (!recorded.isEmpty()) {
                batch = new AppendBatch(appends, states, recorded, now, codec);
            }
        }
        long first = 0;
        if (!batch.rows().isEmpty()) {
            first = writeAndCommit(c, batch, open);
        } else if (open) {
            commit(c); // every append refused or a replay: the locks go
        }
        batch.changes().forEach(ch -> recent.remember(ch.after()));
        Map<Integer, AppendResult> replays = new HashMap<>();
        for (Map.Entry<Integer, AppendBatch.Recorded> r : batch.retriesOfRecorded().entrySet()) {
            replays.put(r.getKey(), replay(c, r.getValue().entityId(), r.getValue().position()));
        }
        return batch.outcomes(first, replays);
    }

    private static void commit(Connection c) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute("COMMIT");
        }
    }

    /**
     * Upserts the projection rows, writes the changed match keys and the outbox rows, takes
     * positions for the batch's events, inserts them, and commits, in one round trip (a
     * multi-statement; it opens the transaction too when no locking read did):
     * the sequence row's lock, taken by the UPDATE, is held until the COMMIT, so positions follow
     * commit order; {@code LAST_INSERT_ID(expr)} hands the last position to the INSERT beside it
     * (MySQL and MariaDB alike). The outbox rows are in the same transaction: no acknowledged change
     * can miss its push. Returns the first position.
     */
    private long writeAndCommit(Connection c, AppendBatch batch, boolean open) throws SQLException {
        List<AppendBatch.Row> rows = batch.rows();
        int n = rows.size();
        SqlScript script = open ? new SqlScript() : new SqlScript().add("START TRANSACTION");
        // what needs no position first: the sequence row is locked only for the event rows and the commit
        SqlProjection.upsertRows(script, batch.changes());
        SqlProjection.addKeys(script, batch.changes());
        SqlOutbox.enqueue(script, batch.changes(), batch.recordedAt());
        int sequence = script.size();
        script.add("UPDATE event_sequence SET last_position = LAST_INSERT_ID(last_position + ?) WHERE name = 'global'", n)
                .add("INSERT INTO event (" + EVENT_COLUMNS + ") VALUES " + SqlScript.rows(n, "(LAST_INSERT_ID() - ?, ?, ?, ?, ?, ?, ?, ?)"));
        LocalDateTime at = SqlProjection.utc(batch.recordedAt());
        for (int i = 0; i < n; i++) {
            AppendBatch.Row r = rows.get(i);
            script.bind(n - 1 - i, r.event().eventId().toString(), r.entityId().toString(), r.version(), r.event().event().type(), r.event().source(),
                    codec.payload(r.event().event()), at);
        }
        script.addResult("SELECT LAST_INSERT_ID()").add("COMMIT");
        long last = script.run(c);
        if (script.updateCount(sequence) != 1) {
            throw new SQLException("the sequence row 'global' is missing from event_sequence");
        }
        return last - n + 1;
    }

    /**
     * Opens the transaction and reads the stored states of these entities, their rows locked until
     * it ends (in id order: no deadlock between batches), in one round trip.
     */
    private Map<UUID, DigitalEntity> lockedStates(Connection c, Set<UUID> ids) throws SQLException {
        Map<UUID, DigitalEntity> states = new HashMap<>();
        try (PreparedStatement ps = c.prepareStatement("START TRANSACTION;SELECT state FROM entity WHERE entity_id IN (" + marks(ids.size())
                + ") ORDER BY entity_id FOR UPDATE")) {
            int i = 1;
            for (UUID id : new TreeSet<>(ids)) {
                ps.setString(i++, id.toString());
            }
            ps.execute(); // START TRANSACTION's count, then the rows
            if (!ps.getMoreResults()) {
                throw new SQLException("the locking read gave no rows back");
            }
            try (ResultSet rs = ps.getResultSet()) {
                while (rs.next()) {
                    DigitalEntity de = codec.entity(rs.getString(1));
                    states.put(de.id(), de);
                }
            }
        }
        return states;
    }

    /** Which of these event ids the store holds already, and where. */
    private static Map<UUID, AppendBatch.Recorded> recorded(Connection c, List<UUID> eventIds) throws SQLException {
        Map<UUID, AppendBatch.Recorded> found = new HashMap<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT event_id, entity_id, position FROM event WHERE event_id IN ("
                + marks(eventIds.size()) + ")")) {
            int i = 1;
            for (UUID id : eventIds) {
                ps.setString(i++, id.toString());
            }
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    found.put(UUID.fromString(rs.getString(1)), new AppendBatch.Recorded(UUID.fromString(rs.getString(2)), rs.getLong(3)));
                }
            }
        }
        return found;
    }

    private static String marks(int n) {
        return String.join(", ", Collections.nCopies(n, "?"));
    }

    /** If every event id of {@code a} was recorded before, the result of that earlier append. */
    private Optional<AppendResult> replayed(Connection c, Append a) throws SQLException {
        Map<UUID, AppendBatch.Recorded> found = recorded(c, AppendBatch.eventIds(List.of(a)));
        if (found.isEmpty()) {
            return Optional.empty();
        }
        if (found.size() != a.events().size() || found.values().stream().anyMatch(r -> !r.entityId().equals(a.entityId()))) {
            throw new InvalidValueException("event ids were already used by a different append; use new ids for new events");
        }
        return Optional.of(replay(c, a.entityId(), found.values().stream().mapToLong(AppendBatch.Recorded::position).max().orElseThrow()));
    }

    /** The result an append recorded earlier had: the entity as of its last event. */
    private AppendResult replay(Connection c, UUID entityId, long lastPosition) throws SQLException {
        List<RecordedEvent> upTo = new ArrayList<>();
        for (RecordedEvent e : history(c, entityId)) {
            if (e.position() <= lastPosition) {
                upTo.add(e);
            }
        }
        DigitalEntity then = DigitalEntity.fold(entityId, upTo);
        return new AppendResult(then, lastPosition, true, codec.entity(then));
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

    /** One query for all of them (a mirror's batch asks for hundreds). */
    @Override
    public Map<UUID, List<RecordedEvent>> histories(Collection<UUID> entityIds) {
        Map<UUID, List<RecordedEvent>> out = new HashMap<>();
        List<UUID> ids = List.copyOf(new java.util.LinkedHashSet<>(entityIds));
        for (int from = 0; from < ids.size(); from += 1_000) {
            List<UUID> part = ids.subList(from, Math.min(ids.size(), from + 1_000));
            List<RecordedEvent> events = query("histories of " + part.size() + " entities", c -> {
                try (PreparedStatement ps = c.prepareStatement("SELECT " + EVENT_COLUMNS + " FROM event WHERE entity_id IN ("
                        + String.join(", ", java.util.Collections.nCopies(part.size(), "?")) + ") ORDER BY entity_id, version")) {
                    for (int i = 0; i < part.size(); i++) {
                        ps.setString(i + 1, part.get(i).toString());
                    }
                    return events(ps);
                }
            });
            events.forEach(e -> out.computeIfAbsent(e.entityId(), k -> new ArrayList<>()).add(e));
        }
        return out;
    }

    @Override
    public List<RecordedEvent> historyUpTo(UUID entityId, int maxVersion, Instant until) {
        return query("history of " + entityId, c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT " + EVENT_COLUMNS
                    + " FROM event WHERE entity_id = ? AND version <= ? AND recorded_at <= ? ORDER BY version")) {
                ps.setString(1, entityId.toString());
                ps.setInt(2, maxVersion);
                ps.setObject(3, SqlProjection.utc(until.isAfter(LATEST) ? LATEST : until));
                return events(ps);
            }
        });
    }

    /** DATETIME(6) ends at year 9999; "no bound" is that. */
    private static final Instant LATEST = Instant.parse("9999-12-31T23:59:59.999999Z");

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

    /** The feed's positions, entities and versions alone: neither the payload read nor decoded. */
    @Override
    public List<FeedEntry> feedAfter(long after, int limit) {
        return query("read the change feed", c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT position, entity_id, version, recorded_at FROM event WHERE position > ? ORDER BY position LIMIT ?")) {
                ps.setLong(1, after);
                ps.setInt(2, limit);
                List<FeedEntry> out = new ArrayList<>();
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        out.add(new FeedEntry(rs.getLong(1), UUID.fromString(rs.getString(2)), rs.getInt(3),
                                rs.getObject(4, LocalDateTime.class).toInstant(ZoneOffset.UTC)));
                    }
                }
                return out;
            }
        });
    }

    @Override
    public List<RecordedEvent> ofType(String type, long before, int limit) {
        return query("read events by type", c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT " + EVENT_COLUMNS + " FROM event WHERE type = ? AND position < ? "
                    + "ORDER BY position DESC LIMIT ?")) {
                ps.setString(1, type);
                ps.setLong(2, before);
                ps.setInt(3, limit);
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
    public Map<MatchKeys.Key, List<UUID>> findKeys(Collection<MatchKeys.Key> keys) {
        return query("find keys", c -> projection.findKeys(c, keys));
    }

    @Override
    public Map<UUID, DigitalEntity> loadAll(Collection<UUID> entityIds) {
        return query("load entities", c -> projection.loadAll(c, entityIds));
    }

    @Override
    public long foldRange(String from, String to, Consumer<DigitalEntity> each) {
        return inEntityOrder("fold entities", from, to, events -> SqlProjection.foldEach(events, each)).entities();
    }

    @Override
    public Optional<String> entityIdOfEvent(long n) {
        return query("find the entity of event " + n, c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT entity_id FROM event ORDER BY entity_id, version LIMIT 1 OFFSET ?")) {
                ps.setLong(1, n);
                try (ResultSet rs = ps.executeQuery()) {
                    return rs.next() ? Optional.of(rs.getString(1)) : Optional.empty();
                }
            }
        });
    }

    @Override
    public RebuildReport verifyProjections() {
        return inEntityOrder("verify projections", null, null, events -> projection.verify(db, events));
    }

    /** Every event (of the entity-id range, when bounded) in (entity, version) order, streamed so memory stays flat however many there are. */
    private <T> T inEntityOrder(String what, String from, String to, CursorWork<T> work) {
        String where = from == null && to == null ? "" : " WHERE " + (from == null ? "" : "entity_id >= ?") + (from != null && to != null ? " AND " : "")
                + (to == null ? "" : "entity_id < ?");
        return query(what, c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT " + EVENT_COLUMNS + " FROM event" + where + " ORDER BY entity_id, version",
                    ResultSet.TYPE_FORWARD_ONLY, ResultSet.CONCUR_READ_ONLY)) {
                int i = 1;
                if (from != null) {
                    ps.setString(i++, from);
                }
                if (to != null) {
                    ps.setString(i, to);
                }
                ps.setFetchSize(Integer.MIN_VALUE);
                try (ResultSet rs = ps.executeQuery()) {
                    return work.run(() -> rs.next() ? event(rs) : null);
                }
            }
        });
    }

    private interface CursorWork<T> {
        T run(SqlProjection.EventCursor events) throws SQLException;
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
