package dev.idiom.events.hibernate;

import dev.idiom.events.Append;
import dev.idiom.events.AppendBatch;
import dev.idiom.events.AppendOutcome;
import dev.idiom.events.AppendResult;
import dev.idiom.events.DigitalEntity;
import dev.idiom.events.EventCodec;
import dev.idiom.events.EventStore;
import dev.idiom.events.EventStoreException;
import dev.idiom.events.InvalidValueException;
import dev.idiom.events.MatchKeys;
import dev.idiom.events.Metadata;
import dev.idiom.events.RebuildReport;
import dev.idiom.events.RecordedEvent;
import dev.idiom.events.StaleVersionException;
import dev.idiom.events.sql.SqlOutbox;
import dev.idiom.events.sql.SqlProjection;
import jakarta.persistence.LockModeType;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.UUID;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.stream.Stream;
import javax.sql.DataSource;
import org.hibernate.HibernateException;
import org.hibernate.Session;
import org.hibernate.SessionFactory;
import org.hibernate.Transaction;
import org.hibernate.cfg.Configuration;
import org.hibernate.exception.ConstraintViolationException;

/**
 * The event store through Hibernate: the same transaction shape as the JDBC adapter (idempotency
 * check, projection row locked {@code FOR UPDATE}, positions from the sequence row held to
 * commit), with the event rows and projection row as JPA entities.
 */
public final class HibernateEventStore implements EventStore, AutoCloseable {
    private final dev.idiom.events.CommitAnnouncements announcements = new dev.idiom.events.CommitAnnouncements();
    private final SessionFactory sessions;
    private final DataSource db;
    private final EventCodec codec;
    private final Clock clock;
    private final SqlProjection projection;

    public HibernateEventStore(DataSource db, EventCodec codec, Clock clock) {
        this.db = db;
        this.codec = codec;
        this.clock = clock;
        this.projection = new SqlProjection(codec);
        Configuration config = new Configuration().addAnnotatedClass(StoredEvent.class).addAnnotatedClass(StoredEntity.class);
        config.getProperties().put("hibernate.connection.datasource", db);
        // Connector/J 9.7 on MariaDB 11 breaks Hibernate's metadata probing (STACK.md): name the dialect ourselves
        config.setProperty("hibernate.boot.allow_jdbc_metadata_access", "false");
        config.setProperty("hibernate.dialect", dialect(db));
        config.setProperty("hibernate.hbm2ddl.auto", "none");
        config.setProperty("hibernate.jdbc.batch_size", "50");
        config.setProperty("hibernate.order_inserts", "true");
        config.setProperty("hibernate.jdbc.time_zone", "UTC");
        this.sessions = config.buildSessionFactory();
    }

    private static String dialect(DataSource db) {
        try (Connection c = db.getConnection()) {
            DatabaseMetaData md = c.getMetaData();
            String version = md.getDatabaseProductVersion();
            return version.toLowerCase(Locale.ROOT).contains("mariadb")
                    ? "org.hibernate.dialect.MariaDBDialect" : "org.hibernate.dialect.MySQLDialect";
        } catch (SQLException e) {
            throw new EventStoreException("cannot reach the database to choose a dialect: " + e.getMessage(), e);
        }
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
        try (Session s = sessions.openSession()) {
            Transaction tx = s.beginTransaction();
            try {
                List<AppendOutcome> out = write(s, appends);
                tx.commit();
                return out;
            } catch (ConstraintViolationException race) {
                tx.rollback();
            } catch (RuntimeException e) {
                if (tx.isActive()) {
                    tx.rollback();
                }
                throw e instanceof HibernateException h ? new EventStoreException("append failed: " + h.getMessage(), h) : e;
            }
        }
        // another writer created one of these entities or recorded one of these event ids meanwhile
        if (appends.size() > 1) {
            List<AppendOutcome> out = new ArrayList<>();
            appends.forEach(a -> out.addAll(appendUnannounced(List.of(a))));
            return out;
        }
        Append a = appends.getFirst();
        try (Session s = sessions.openSession()) {
            return List.of(replayed(s, a).map(AppendOutcome::of).orElseGet(() -> AppendOutcome.refused(new StaleVersionException(
                    a.entityId(), a.expectedVersion(), load(a.entityId()).map(DigitalEntity::version).orElse(0)))));
        } catch (InvalidValueException reused) {
            return List.of(AppendOutcome.refused(reused));
        }
    }

    private List<AppendOutcome> write(Session s, List<Append> appends) {
        Map<UUID, StoredEntity> rows = new HashMap<>();
        Map<UUID, DigitalEntity> stored = new HashMap<>();
        for (UUID id : new TreeSet<>(AppendBatch.entityIds(appends))) { // id order: no deadlock between batches
            StoredEntity row = s.find(StoredEntity.class, id.toString(), LockModeType.PESSIMISTIC_WRITE);
            if (row != null) {
                rows.put(id, row);
                stored.put(id, codec.entity(row.state));
            }
        }
        Map<UUID, AppendBatch.Recorded> recorded = new HashMap<>();
        recordedEvents(s, AppendBatch.eventIds(appends))
                .forEach(e -> recorded.put(UUID.fromString(e.eventId), new AppendBatch.Recorded(UUID.fromString(e.entityId), e.position)));
        AppendBatch batch = new AppendBatch(appends, stored, recorded, clock.instant().truncatedTo(ChronoUnit.MICROS), codec);
        long first = 0;
        if (!batch.rows().isEmpty()) {
            int n = batch.rows().size();
            s.createNativeMutationQuery("UPDATE event_sequence SET last_position = last_position + :n WHERE name = 'global'")
                    .setParameter("n", n).executeUpdate();
            first = ((Number) s.createNativeQuery("SELECT last_position FROM event_sequence WHERE name = 'global'", Long.class)
                    .getSingleResult()).longValue() - n + 1;
            long position = first;
            for (AppendBatch.Row r : batch.rows()) {
                s.persist(new StoredEvent(position++, r.event().eventId().toString(), r.entityId().toString(), r.version(),
                        r.event().event().type(), r.event().source(), codec.payload(r.event().event()), SqlProjection.utc(batch.recordedAt())));
            }
            for (AppendBatch.Change ch : batch.changes()) {
                StoredEntity row = rows.get(ch.after().id());
                boolean created = row == null;
                if (created) {
                    row = new StoredEntity(ch.after().id().toString());
                    row.createdAt = SqlProjection.utc(ch.after().createdAt());
                }
                row.version = ch.after().version();
                row.state = ch.json();
                row.updatedAt = SqlProjection.utc(ch.after().updatedAt());
                if (created) {
                    s.persist(row);
                }
            }
            s.flush();
            s.doWork(c -> {
                projection.writeKeys(c, batch.changes());
                SqlOutbox.enqueue(c, batch.changes(), batch.recordedAt()); // in the same transaction as the events
            });
        }
        Map<Integer, AppendResult> replays = new HashMap<>();
        batch.retriesOfRecorded().forEach((i, r) -> replays.put(i, replay(s, r.entityId(), r.position())));
        return batch.outcomes(first, replays);
    }

    private List<StoredEvent> recordedEvents(Session s, List<UUID> eventIds) {
        return s.createSelectionQuery("from StoredEvent e where e.eventId in :ids", StoredEvent.class)
                .setParameter("ids", eventIds.stream().map(UUID::toString).toList()).list();
    }

    private Optional<AppendResult> replayed(Session s, Append a) {
        List<StoredEvent> found = recordedEvents(s, AppendBatch.eventIds(List.of(a)));
        if (found.isEmpty()) {
            return Optional.empty();
        }
        if (found.size() != a.events().size() || found.stream().anyMatch(e -> !e.entityId.equals(a.entityId().toString()))) {
            throw new InvalidValueException("event ids were already used by a different append; use new ids for new events");
        }
        return Optional.of(replay(s, a.entityId(), found.stream().mapToLong(e -> e.position).max().orElseThrow()));
    }

    private AppendResult replay(Session s, UUID entityId, long lastPosition) {
        List<RecordedEvent> upTo = history(s, entityId).stream().filter(e -> e.position() <= lastPosition).toList();
        DigitalEntity then = DigitalEntity.fold(entityId, upTo);
        return new AppendResult(then, lastPosition, true, codec.entity(then));
    }

    @Override
    public Optional<DigitalEntity> load(UUID entityId) {
        return loadStored(entityId).map(codec::entity);
    }

    @Override
    public Optional<String> loadStored(UUID entityId) {
        return read(s -> Optional.ofNullable(s.find(StoredEntity.class, entityId.toString())).map(r -> r.state));
    }

    @Override
    public List<RecordedEvent> history(UUID entityId) {
        return read(s -> history(s, entityId));
    }

    @Override
    public List<RecordedEvent> historyUpTo(UUID entityId, int maxVersion, Instant until) {
        Instant latest = Instant.parse("9999-12-31T23:59:59.999999Z");
        return read(s -> s.createSelectionQuery("from StoredEvent e where e.entityId = :id and e.version <= :v and e.recordedAt <= :t order by e.version",
                        StoredEvent.class).setParameter("id", entityId.toString()).setParameter("v", maxVersion)
                .setParameter("t", SqlProjection.utc(until.isAfter(latest) ? latest : until)).list().stream().map(this::recorded).toList());
    }

    private List<RecordedEvent> history(Session s, UUID entityId) {
        return s.createSelectionQuery("from StoredEvent e where e.entityId = :id order by e.version", StoredEvent.class)
                .setParameter("id", entityId.toString()).list().stream().map(this::recorded).toList();
    }

    @Override
    public List<RecordedEvent> after(long after, int limit) {
        return read(s -> s.createSelectionQuery("from StoredEvent e where e.position > :p order by e.position", StoredEvent.class)
                .setParameter("p", after).setMaxResults(limit).list().stream().map(this::recorded).toList());
    }

    @Override
    public List<RecordedEvent> ofType(String type, long before, int limit) {
        return read(s -> s.createSelectionQuery("from StoredEvent e where e.type = :t and e.position < :p order by e.position desc", StoredEvent.class)
                .setParameter("t", type).setParameter("p", before).setMaxResults(limit).list().stream().map(this::recorded).toList());
    }

    @Override
    public long headPosition() {
        return read(s -> s.createSelectionQuery("select coalesce(max(e.position), 0) from StoredEvent e", Long.class).getSingleResult());
    }

    @Override
    public Map<MatchKeys.Key, List<UUID>> findKeys(Collection<MatchKeys.Key> keys) {
        return read(s -> s.doReturningWork(c -> projection.findKeys(c, keys)));
    }

    @Override
    public Map<UUID, DigitalEntity> loadAll(Collection<UUID> entityIds) {
        return read(s -> s.doReturningWork(c -> projection.loadAll(c, entityIds)));
    }

    @Override
    public long foldRange(String from, String to, Consumer<DigitalEntity> each) {
        return inEntityOrder("fold entities", from, to, events -> SqlProjection.foldEach(events, each)).entities();
    }

    @Override
    public Optional<String> entityIdOfEvent(long n) {
        return read(s -> s.createSelectionQuery("select e.entityId from StoredEvent e order by e.entityId, e.version", String.class)
                .setFirstResult(Math.toIntExact(n)).setMaxResults(1).getResultList().stream().findFirst());
    }

    @Override
    public RebuildReport verifyProjections() {
        return inEntityOrder("verify projections", null, null, events -> projection.verify(db, events));
    }

    /** Every event (of the entity-id range, when bounded) in (entity, version) order, streamed and detached so the session holds none. */
    private <T> T inEntityOrder(String what, String from, String to, CursorWork<T> work) {
        return read(s -> {
            String where = from == null && to == null ? "" : " where " + (from == null ? "" : "e.entityId >= :from")
                    + (from != null && to != null ? " and " : "") + (to == null ? "" : "e.entityId < :to");
            var query = s.createSelectionQuery("from StoredEvent e" + where + " order by e.entityId, e.version", StoredEvent.class);
            if (from != null) {
                query.setParameter("from", from);
            }
            if (to != null) {
                query.setParameter("to", to);
            }
            try (Stream<StoredEvent> rows = query.setFetchSize(Integer.MIN_VALUE).setReadOnly(true).stream()) {
                Iterator<StoredEvent> it = rows.iterator();
                return work.run(() -> {
                    if (!it.hasNext()) {
                        return null;
                    }
                    StoredEvent e = it.next();
                    s.detach(e);
                    return recorded(e);
                });
            } catch (SQLException e) {
                throw new EventStoreException(what + " failed: " + e.getMessage(), e);
            }
        });
    }

    private interface CursorWork<T> {
        T run(SqlProjection.EventCursor events) throws SQLException;
    }

    private RecordedEvent recorded(StoredEvent e) {
        return new RecordedEvent(e.position, UUID.fromString(e.eventId), UUID.fromString(e.entityId), e.version, e.source,
                e.recordedAt.toInstant(ZoneOffset.UTC), codec.event(e.type, e.payload));
    }

    private <T> T read(Function<Session, T> work) {
        try (Session s = sessions.openSession()) {
            return work.apply(s);
        } catch (HibernateException e) {
            throw new EventStoreException("read failed: " + e.getMessage(), e);
        }
    }

    @Override
    public void close() {
        sessions.close();
    }
}
