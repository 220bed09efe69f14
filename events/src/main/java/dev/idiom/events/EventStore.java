package dev.idiom.events;

import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Consumer;

/**
 * The event store port: streams of events per digital entity, a global order, and the DE
 * projection kept in step with the appends.
 */
public interface EventStore {

    /**
     * Appends {@code events} to the entity's stream atomically, if the stream is at
     * {@code expectedVersion} (0 for a new entity). The projection and search keys are written in
     * the same transaction. An append whose event ids were all recorded before returns the stored
     * result and writes nothing.
     *
     * @throws StaleVersionException the stream moved on; nothing was written
     */
    default AppendResult append(UUID entityId, int expectedVersion, List<NewEvent> events) {
        return appendAll(List.of(new Append(entityId, expectedVersion, events))).getFirst().get();
    }

    /**
     * Appends several requests in one transaction and one durable commit (group commit), in
     * order: each is checked against its own expected version on the state the earlier ones left
     * (two appends to one entity chain), and one that is stale or invalid is refused alone while
     * the others commit. Positions are consecutive in request order.
     *
     * @return one outcome per request, in the same order
     * @throws EventStoreException the database failed; nothing was written
     */
    List<AppendOutcome> appendAll(List<Append> appends);

    /** The DE projection (current state), if the entity exists. */
    Optional<DigitalEntity> load(UUID entityId);

    /** The projection as stored: its deterministic JSON, for callers that serve it as is. */
    Optional<String> loadStored(UUID entityId);

    /** The entity's events in stream order. */
    List<RecordedEvent> history(UUID entityId);

    /** The histories of these entities (those that exist), each in stream order. Default: one {@link #history} each. */
    default Map<UUID, List<RecordedEvent>> histories(Collection<UUID> entityIds) {
        Map<UUID, List<RecordedEvent>> out = new java.util.HashMap<>();
        for (UUID id : entityIds) {
            List<RecordedEvent> h = history(id);
            if (!h.isEmpty()) {
                out.put(id, h);
            }
        }
        return out;
    }

    /**
     * The entity's first events: those with a stream version up to {@code maxVersion} recorded at
     * or before {@code until}, in stream order (read by the (entity, version) index, so the cost
     * follows what is asked, not the whole history).
     */
    List<RecordedEvent> historyUpTo(UUID entityId, int maxVersion, Instant until);

    /** The entity as it was after {@code version} events: the projection itself for the current version, else the fold of its first events. */
    default DigitalEntity asOfVersion(UUID entityId, int version) {
        DigitalEntity now = load(entityId).orElseThrow(() -> new UnknownEntityException(entityId));
        if (version < 1) {
            throw new InvalidValueException("a version is 1 or more, got " + version);
        }
        if (version > now.version()) {
            throw new UnknownEntityException("entity " + entityId + " has versions 1 to " + now.version() + ", not " + version);
        }
        return version == now.version() ? now : DigitalEntity.fold(entityId, historyUpTo(entityId, version, Instant.MAX));
    }

    /** The entity as it was at {@code time} (events recorded at or before it). */
    default DigitalEntity asOfTime(UUID entityId, Instant time) {
        DigitalEntity now = load(entityId).orElseThrow(() -> new UnknownEntityException(entityId));
        if (!now.updatedAt().isAfter(time)) {
            return now;
        }
        List<RecordedEvent> upTo = historyUpTo(entityId, Integer.MAX_VALUE, time);
        if (upTo.isEmpty()) {
            throw new UnknownEntityException("entity " + entityId + " did not exist yet at " + time);
        }
        return DigitalEntity.fold(entityId, upTo);
    }

    /**
     * The change feed: up to {@code limit} events with a position greater than {@code after}, in
     * position order. Positions follow commit order, so a reader that continues from the last
     * position it saw never skips an event.
     */
    List<RecordedEvent> after(long after, int limit);

    /** The change feed as {@link #after}, without the events themselves: for followers that need only which entity moved. */
    default List<FeedEntry> feedAfter(long after, int limit) {
        return after(after, limit).stream().map(FeedEntry::of).toList();
    }

    /**
     * Events of one type, newest first: up to {@code limit} with a position below {@code before}
     * (read by the (type, position) index; the overall conflict listing).
     */
    List<RecordedEvent> ofType(String type, long before, int limit);

    /** The highest position committed so far (0 when the store is empty). */
    long headPosition();

    /**
     * Every DE folded from its events (not read from the projection), streamed in entity-id order
     * with one entity in memory at a time: what a read model rebuilds itself from.
     *
     * @return how many entities were folded
     */
    default long foldAll(Consumer<DigitalEntity> each) {
        return foldRange(null, null, each);
    }

    /**
     * {@link #foldAll} over the entities whose id, in its text form, is at least {@code from} and
     * below {@code to} (null: unbounded): disjoint ranges can be folded side by side, each on its
     * own connection, and together they fold every entity once.
     */
    long foldRange(String from, String to, Consumer<DigitalEntity> each);

    /**
     * The entity id (text form) of the {@code n}th event (from 0) in (entity, version) order, if
     * there are more: where to split {@link #foldRange} so that each part folds about as many events
     * (ids are time-ordered, so a fixed split point would not halve them).
     */
    Optional<String> entityIdOfEvent(long n);

    /** The DE that has the copy {@code tool}/{@code account}/{@code remoteId} as a replica, if any. */
    default Optional<UUID> findReplica(String tool, String account, String remoteId) {
        return findKey(MatchKeys.replica(tool, account, remoteId));
    }

    /** The DE holding this exact key (see {@link MatchKeys#hint}), if any. */
    default Optional<UUID> findKey(MatchKeys.Key key) {
        return findKeys(List.of(key)).getOrDefault(key, List.of()).stream().findFirst();
    }

    /**
     * Every DE holding each of these keys, in entity-id order: one round trip for a batch of
     * records' lookups (replica, hint and match keys alike).
     */
    Map<MatchKeys.Key, List<UUID>> findKeys(Collection<MatchKeys.Key> keys);

    /** The projections of these entities, those that exist. */
    Map<UUID, DigitalEntity> loadAll(Collection<UUID> entityIds);

    /** The DE that an imported record describes (see {@link MatchKeys#firstMatch}), if Idiom has it. */
    default Optional<UUID> findMatch(Metadata record) {
        Map<MatchKeys.Key, List<UUID>> holders = findKeys(MatchKeys.of(record));
        Map<UUID, DigitalEntity> states = loadAll(holders.values().stream().flatMap(List::stream).toList());
        return MatchKeys.firstMatch(record, k -> holders.getOrDefault(k, List.of()), id -> states.get(id).metadata());
    }

    /** As {@link #findMatch(Metadata)}, for a record of {@code tool}/{@code account}: a DE with a copy there already is not its match. */
    default Optional<UUID> findMatch(Metadata record, String tool, String account) {
        Map<MatchKeys.Key, List<UUID>> holders = findKeys(MatchKeys.of(record));
        Map<UUID, DigitalEntity> states = loadAll(holders.values().stream().flatMap(List::stream).toList());
        return MatchKeys.firstMatch(record, k -> holders.getOrDefault(k, List.of()), id -> states.get(id).metadata(),
                id -> !states.get(id).holdsCopyIn(tool, account));
    }

    /** Refolds every entity from its events and compares with the stored projection. */
    RebuildReport verifyProjections();

    /**
     * Tells {@code listener} of every append this store commits from now on, after the commit and
     * before the append returns (see {@link CommitListener}); the composition root registers the
     * cache, the search index and the engine here, so no write path has to call them.
     */
    void onCommit(CommitListener listener);
}
