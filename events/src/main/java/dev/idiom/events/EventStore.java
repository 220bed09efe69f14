package dev.idiom.events;

import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Consumer;

/**
 * The event store: streams of events per digital entity ({@link EventStream}), a global order
 * ({@link ChangeFeed}), the DE projection ({@link EntityProjection}) and its match keys
 * ({@link MatchKeyLookup}) kept in step with the appends, and what needs several of them (a DE as of
 * a version or a time, a record's match, a rebuild). A caller that needs one part asks for that port.
 */
public interface EventStore extends EventStream, EntityProjection, MatchKeyLookup, ChangeFeed {

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

}
