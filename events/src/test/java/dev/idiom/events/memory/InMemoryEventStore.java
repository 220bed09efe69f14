package dev.idiom.events.memory;

import dev.idiom.events.Append;
import dev.idiom.events.AppendBatch;
import dev.idiom.events.AppendOutcome;
import dev.idiom.events.AppendResult;
import dev.idiom.events.CommitAnnouncements;
import dev.idiom.events.CommitListener;
import dev.idiom.events.DigitalEntity;
import dev.idiom.events.EventCodec;
import dev.idiom.events.EventStore;
import dev.idiom.events.InvalidValueException;
import dev.idiom.events.MatchKeys;
import dev.idiom.events.OutboxRule;
import dev.idiom.events.RebuildReport;
import dev.idiom.events.RecordedEvent;
import dev.idiom.events.Replica;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.function.Consumer;

/**
 * The event store in memory, for decision tests: the same decisions as the MariaDB adapter
 * ({@link AppendBatch} decides every append, {@link OutboxRule} every owed push, {@link MatchKeys}
 * every key), the same stored forms (events and states as JSON, times to the microsecond), held to
 * the same {@code EventStoreContract}. One instance per node; nodes share an {@link InMemoryDatabase}.
 */
public final class InMemoryEventStore implements EventStore {
    private final InMemoryDatabase db;
    private final EventCodec codec;
    private final Clock clock;
    private final CommitAnnouncements announcements = new CommitAnnouncements();

    public InMemoryEventStore(InMemoryDatabase db, EventCodec codec, Clock clock) {
        this.db = db;
        this.codec = codec;
        this.clock = clock;
    }

    @Override
    public void onCommit(CommitListener listener) {
        announcements.add(listener);
    }

    @Override
    public List<AppendOutcome> appendAll(List<Append> appends) {
        if (appends.isEmpty()) {
            return List.of();
        }
        List<AppendOutcome> out;
        synchronized (db.lock) {
            out = write(appends);
        }
        return announcements.announced(out);
    }

    private List<AppendOutcome> write(List<Append> appends) {
        Map<UUID, DigitalEntity> states = new HashMap<>();
        for (UUID id : AppendBatch.entityIds(appends)) {
            String json = db.states.get(id);
            if (json != null) {
                states.put(id, codec.entity(json));
            }
        }
        Instant now = clock.instant().truncatedTo(ChronoUnit.MICROS);
        AppendBatch batch = new AppendBatch(appends, states, Map.of(), now, codec);
        List<Append> stale = batch.refusedAsStale();
        if (!stale.isEmpty()) {
            Map<UUID, AppendBatch.Recorded> recorded = new HashMap<>();
            for (UUID eventId : AppendBatch.eventIds(stale)) {
                InMemoryDatabase.StoredEvent e = db.byEventId.get(eventId);
                if (e != null) {
                    recorded.put(eventId, new AppendBatch.Recorded(e.entityId(), e.position()));
                }
            }
            if (!recorded.isEmpty()) {
                batch = new AppendBatch(appends, states, recorded, now, codec);
            }
        }
        // an accepted append reusing a recorded event id is what the event table's unique key refuses: one at a time, as the JDBC adapter retries
        Set<UUID> accepted = new HashSet<>();
        for (AppendBatch.Row r : batch.rows()) {
            if (db.byEventId.containsKey(r.event().eventId()) || !accepted.add(r.event().eventId())) {
                return appends.size() > 1 ? oneAtATime(appends) : List.of(replayedOrRefused(appends.getFirst()));
            }
        }
        long first = db.events.size() + 1L;
        for (AppendBatch.Row r : batch.rows()) {
            InMemoryDatabase.StoredEvent e = new InMemoryDatabase.StoredEvent(db.events.size() + 1L, r.event().eventId(), r.entityId(), r.version(),
                    r.event().event().type(), r.event().source(), codec.payload(r.event().event()), batch.recordedAt());
            db.events.add(e);
            db.byEventId.put(e.eventId(), e);
            db.streams.computeIfAbsent(e.entityId().toString(), k -> new ArrayList<>()).add(db.events.size() - 1);
        }
        for (AppendBatch.Change ch : batch.changes()) {
            db.states.put(ch.after().id(), ch.json());
            Set<MatchKeys.Key> was = MatchKeys.of(ch.before());
            Set<MatchKeys.Key> is = MatchKeys.of(ch.after());
            String id = ch.after().id().toString();
            was.stream().filter(k -> !is.contains(k)).forEach(k -> db.keys.getOrDefault(k, new TreeSet<>()).remove(id));
            is.stream().filter(k -> !was.contains(k)).forEach(k -> db.keys.computeIfAbsent(k, x -> new TreeSet<>()).add(id));
            for (Replica r : OutboxRule.replicasToPush(ch.before(), ch.after())) {
                InMemoryOutbox.enqueue(db, ch.after().id(), r.tool(), r.account(), r.remoteId(), ch.after().version(), batch.recordedAt(), false);
            }
        }
        Map<Integer, AppendResult> replays = new HashMap<>();
        batch.retriesOfRecorded().forEach((i, r) -> replays.put(i, replay(r.entityId(), r.position())));
        return batch.outcomes(first, replays);
    }

    private List<AppendOutcome> oneAtATime(List<Append> appends) {
        List<AppendOutcome> out = new ArrayList<>();
        for (Append a : appends) {
            out.addAll(write(List.of(a)));
        }
        return out;
    }

    private AppendOutcome replayedOrRefused(Append a) {
        List<InMemoryDatabase.StoredEvent> found = a.events().stream().map(e -> db.byEventId.get(e.eventId())).filter(java.util.Objects::nonNull).toList();
        if (found.isEmpty()) { // the ids repeat within the append: as the key refuses it, a stale version
            String json = db.states.get(a.entityId());
            return AppendOutcome.refused(new dev.idiom.events.StaleVersionException(a.entityId(), a.expectedVersion(),
                    json == null ? 0 : codec.entity(json).version()));
        }
        if (found.size() != a.events().size() || found.stream().anyMatch(e -> !e.entityId().equals(a.entityId()))) {
            return AppendOutcome.refused(new InvalidValueException("event ids were already used by a different append; use new ids for new events"));
        }
        return AppendOutcome.of(replay(a.entityId(), found.stream().mapToLong(InMemoryDatabase.StoredEvent::position).max().orElseThrow()));
    }

    private AppendResult replay(UUID entityId, long lastPosition) {
        List<RecordedEvent> upTo = stream(entityId).stream().filter(e -> e.position() <= lastPosition).toList();
        DigitalEntity then = DigitalEntity.fold(entityId, upTo);
        return new AppendResult(then, lastPosition, true, codec.entity(then));
    }

    private RecordedEvent recorded(InMemoryDatabase.StoredEvent e) {
        return new RecordedEvent(e.position(), e.eventId(), e.entityId(), e.version(), e.source(), e.recordedAt(), codec.event(e.type(), e.payload()));
    }

    private List<RecordedEvent> stream(UUID entityId) {
        return db.streams.getOrDefault(entityId.toString(), List.of()).stream().map(i -> recorded(db.events.get(i))).toList();
    }

    @Override
    public Optional<DigitalEntity> load(UUID entityId) {
        return loadStored(entityId).map(codec::entity);
    }

    @Override
    public Optional<String> loadStored(UUID entityId) {
        synchronized (db.lock) {
            return Optional.ofNullable(db.states.get(entityId));
        }
    }

    @Override
    public Map<UUID, DigitalEntity> loadAll(Collection<UUID> entityIds) {
        synchronized (db.lock) {
            Map<UUID, DigitalEntity> out = new HashMap<>();
            for (UUID id : entityIds) {
                String json = db.states.get(id);
                if (json != null) {
                    out.put(id, codec.entity(json));
                }
            }
            return out;
        }
    }

    @Override
    public List<RecordedEvent> history(UUID entityId) {
        synchronized (db.lock) {
            return stream(entityId);
        }
    }

    @Override
    public List<RecordedEvent> historyUpTo(UUID entityId, int maxVersion, Instant until) {
        synchronized (db.lock) {
            return stream(entityId).stream().filter(e -> e.version() <= maxVersion && !e.recordedAt().isAfter(until)).toList();
        }
    }

    @Override
    public List<RecordedEvent> after(long after, int limit) {
        synchronized (db.lock) {
            List<RecordedEvent> out = new ArrayList<>();
            for (long p = Math.max(after, 0) + 1; p <= db.events.size() && out.size() < limit; p++) {
                out.add(recorded(db.events.get((int) p - 1)));
            }
            return out;
        }
    }

    @Override
    public List<RecordedEvent> ofType(String type, long before, int limit) {
        synchronized (db.lock) {
            List<RecordedEvent> out = new ArrayList<>();
            for (long p = Math.min(before - 1, db.events.size()); p >= 1 && out.size() < limit; p--) {
                InMemoryDatabase.StoredEvent e = db.events.get((int) p - 1);
                if (e.type().equals(type)) {
                    out.add(recorded(e));
                }
            }
            return out;
        }
    }

    @Override
    public long headPosition() {
        synchronized (db.lock) {
            return db.events.size();
        }
    }

    @Override
    public Map<MatchKeys.Key, List<UUID>> findKeys(Collection<MatchKeys.Key> keys) {
        synchronized (db.lock) {
            Map<MatchKeys.Key, List<UUID>> out = new LinkedHashMap<>();
            for (MatchKeys.Key k : keys) {
                TreeSet<String> holders = db.keys.get(k);
                if (holders != null && !holders.isEmpty()) {
                    out.put(k, holders.stream().map(UUID::fromString).toList());
                }
            }
            return out;
        }
    }

    @Override
    public long foldRange(String from, String to, Consumer<DigitalEntity> each) {
        List<DigitalEntity> folded = new ArrayList<>();
        synchronized (db.lock) {
            var range = from == null && to == null ? db.streams : from == null ? db.streams.headMap(to, false)
                    : to == null ? db.streams.tailMap(from, true) : db.streams.subMap(from, true, to, false);
            range.keySet().forEach(id -> folded.add(DigitalEntity.fold(UUID.fromString(id), stream(UUID.fromString(id)))));
        }
        folded.forEach(each);
        return folded.size();
    }

    @Override
    public Optional<String> entityIdOfEvent(long n) {
        synchronized (db.lock) {
            long seen = 0;
            for (Map.Entry<String, List<Integer>> s : db.streams.entrySet()) {
                if (n < seen + s.getValue().size()) {
                    return Optional.of(s.getKey());
                }
                seen += s.getValue().size();
            }
            return Optional.empty();
        }
    }

    @Override
    public RebuildReport verifyProjections() {
        synchronized (db.lock) {
            List<UUID> differing = new ArrayList<>();
            long events = 0;
            for (String id : db.streams.keySet()) {
                List<RecordedEvent> s = stream(UUID.fromString(id));
                events += s.size();
                if (!codec.entity(DigitalEntity.fold(UUID.fromString(id), s)).equals(db.states.get(UUID.fromString(id)))) {
                    differing.add(UUID.fromString(id));
                }
            }
            db.states.keySet().stream().filter(id -> !db.streams.containsKey(id.toString())).forEach(differing::add);
            return new RebuildReport(db.streams.size(), events, differing);
        }
    }
}
