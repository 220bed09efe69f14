package dev.idiom.events.hibernate;

import dev.idiom.events.AppendResult;
import dev.idiom.events.DigitalEntity;
import dev.idiom.events.EventCodec;
import dev.idiom.events.EventStore;
import dev.idiom.events.EventStoreException;
import dev.idiom.events.InvalidValueException;
import dev.idiom.events.NewEvent;
import dev.idiom.events.RebuildReport;
import dev.idiom.events.RecordedEvent;
import dev.idiom.events.SearchPage;
import dev.idiom.events.SearchQuery;
import dev.idiom.events.StaleVersionException;
import dev.idiom.events.UnknownEntityException;
import dev.idiom.events.mysql.SqlProjection;
import jakarta.persistence.LockModeType;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
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
            return version.toLowerCase(java.util.Locale.ROOT).contains("mariadb")
                    ? "org.hibernate.dialect.MariaDBDialect" : "org.hibernate.dialect.MySQLDialect";
        } catch (SQLException e) {
            throw new EventStoreException("cannot reach the database to choose a dialect: " + e.getMessage(), e);
        }
    }

    @Override
    public AppendResult append(UUID entityId, int expectedVersion, List<NewEvent> events) {
        if (events.isEmpty()) {
            throw new IllegalArgumentException("nothing to append");
        }
        try (Session s = sessions.openSession()) {
            Transaction tx = s.beginTransaction();
            try {
                Optional<AppendResult> replay = replayed(s, entityId, events);
                if (replay.isPresent()) {
                    tx.rollback();
                    return replay.get();
                }
                AppendResult result = appendNew(s, entityId, expectedVersion, events);
                tx.commit();
                return result;
            } catch (ConstraintViolationException race) {
                tx.rollback();
            } catch (RuntimeException e) {
                if (tx.isActive()) {
                    tx.rollback();
                }
                throw e instanceof HibernateException h ? new EventStoreException("append to " + entityId + " failed: " + h.getMessage(), h) : e;
            }
        }
        // a concurrent append won: either it recorded these very events, or it moved the stream
        try (Session s = sessions.openSession()) {
            return replayed(s, entityId, events).orElseThrow(() -> new StaleVersionException(entityId, expectedVersion,
                    load(entityId).map(DigitalEntity::version).orElse(0)));
        }
    }

    private AppendResult appendNew(Session s, UUID entityId, int expectedVersion, List<NewEvent> events) {
        StoredEntity row = s.find(StoredEntity.class, entityId.toString(), LockModeType.PESSIMISTIC_WRITE);
        DigitalEntity state = row == null ? DigitalEntity.empty(entityId) : codec.entity(row.state);
        Instant now = clock.instant().truncatedTo(ChronoUnit.MICROS);
        DigitalEntity before = state;
        state = before.appending(expectedVersion, events, now);
        s.createNativeMutationQuery("UPDATE event_sequence SET last_position = last_position + :n WHERE name = 'global'")
                .setParameter("n", events.size()).executeUpdate();
        long last = ((Number) s.createNativeQuery("SELECT last_position FROM event_sequence WHERE name = 'global'", Long.class)
                .getSingleResult()).longValue();
        long position = last - events.size() + 1;
        int version = before.version();
        for (NewEvent e : events) {
            s.persist(new StoredEvent(position++, e.eventId().toString(), entityId.toString(), ++version, e.event().type(), e.source(),
                    codec.payload(e.event()), SqlProjection.utc(now)));
        }
        boolean created = row == null;
        if (created) {
            row = new StoredEntity(entityId.toString());
            row.createdAt = SqlProjection.utc(state.createdAt());
        }
        row.version = state.version();
        row.state = codec.entity(state);
        row.updatedAt = SqlProjection.utc(state.updatedAt());
        if (created) {
            s.persist(row);
        }
        s.flush();
        DigitalEntity after = state;
        s.doWork(c -> projection.writeKeys(c, after, before));
        return new AppendResult(state, last, false, row.state);
    }

    private Optional<AppendResult> replayed(Session s, UUID entityId, List<NewEvent> events) {
        List<String> ids = events.stream().map(e -> e.eventId().toString()).toList();
        List<StoredEvent> found = s.createSelectionQuery("from StoredEvent e where e.eventId in :ids", StoredEvent.class)
                .setParameter("ids", ids).list();
        if (found.isEmpty()) {
            return Optional.empty();
        }
        if (found.size() != events.size() || found.stream().anyMatch(e -> !e.entityId.equals(entityId.toString()))) {
            throw new InvalidValueException("event ids were already used by a different append; use new ids for new events");
        }
        long lastPosition = found.stream().mapToLong(e -> e.position).max().orElseThrow();
        List<RecordedEvent> upTo = history(s, entityId).stream().filter(e -> e.position() <= lastPosition).toList();
        DigitalEntity then = DigitalEntity.fold(entityId, upTo);
        return Optional.of(new AppendResult(then, lastPosition, true, codec.entity(then)));
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
    public long headPosition() {
        return read(s -> s.createSelectionQuery("select coalesce(max(e.position), 0) from StoredEvent e", Long.class).getSingleResult());
    }

    @Override
    public Optional<UUID> findReplica(String tool, String account, String remoteId) {
        return read(s -> s.doReturningWork(c -> projection.findReplica(c, tool, account, remoteId)));
    }

    @Override
    public Optional<UUID> findKey(dev.idiom.events.MatchKeys.Key key) {
        return read(s -> s.doReturningWork(c -> projection.findKey(c, key)));
    }

    @Override
    public Optional<UUID> findMatch(dev.idiom.events.Metadata record) {
        return read(s -> s.doReturningWork(c -> projection.findMatch(c, record)));
    }

    @Override
    public SearchPage search(SearchQuery query) {
        return read(s -> s.doReturningWork(c -> projection.search(c, query)));
    }

    @Override
    public RebuildReport verifyProjections() {
        return read(s -> {
            try (Stream<StoredEvent> rows = s.createSelectionQuery("from StoredEvent e order by e.entityId, e.version", StoredEvent.class)
                    .setFetchSize(Integer.MIN_VALUE).setReadOnly(true).stream()) {
                Iterator<StoredEvent> it = rows.iterator();
                return projection.verify(db, () -> {
                    if (!it.hasNext()) {
                        return null;
                    }
                    StoredEvent e = it.next();
                    s.detach(e); // keep the session from holding every event
                    return recorded(e);
                });
            } catch (SQLException e) {
                throw new EventStoreException("verify projections failed: " + e.getMessage(), e);
            }
        });
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
