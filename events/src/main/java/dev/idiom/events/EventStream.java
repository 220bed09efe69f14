package dev.idiom.events;

import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/** Each digital entity's events in stream order: appended atomically against an expected version, read back, announced on commit. */
public interface EventStream {
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

    /**
     * Tells {@code listener} of every append this store commits from now on, after the commit and
     * before the append returns (see {@link CommitListener}); the composition root registers the
     * cache, the search index and the engine here, so no write path has to call them.
     */
    void onCommit(CommitListener listener);
}
