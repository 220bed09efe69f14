package dev.idiom.services.app;

import dev.idiom.cache.EntityCache;
import dev.idiom.events.Append;
import dev.idiom.events.AppendOutcome;
import dev.idiom.events.AppendResult;
import dev.idiom.events.Changes;
import dev.idiom.events.DigitalEntity;
import dev.idiom.events.EntityEvent;
import dev.idiom.events.EntityIds;
import dev.idiom.events.EntitySnapshot;
import dev.idiom.events.EventCodec;
import dev.idiom.events.EventStore;
import dev.idiom.events.Field;
import dev.idiom.events.InvalidValueException;
import dev.idiom.events.Metadata;
import dev.idiom.events.NewEvent;
import dev.idiom.events.PrivacyMarked;
import dev.idiom.events.RecordImported;
import dev.idiom.events.StaleVersionException;
import dev.idiom.events.UnknownEntityException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The API's door for writes: create a DE (a major event) and change fields (minor events, appended
 * atomically with the caller's expected version). The store announces each commit, this door's and
 * the engine's alike, to this node's cache and search index (the composition root registers them),
 * so a read after a write sees it without this class calling them.
 */
public final class EntityWrites {
    private final EventStore store;
    private final EntityCache cache;
    private final CommittedSnapshots snapshots;
    private final EventCodec codec;
    private final EntityIds ids;
    private final InputLimits limits;

    public EntityWrites(EventStore store, EntityCache cache, EventCodec codec, EntityIds ids) {
        this(store, cache, new CommittedSnapshots(cache, codec), codec, ids, InputLimits.DEFAULTS);
    }

    /**
     * @param cache read for the state a change is decided on
     * @param snapshots the store's listener that fills the cache (registered by the composition root); its snapshot is the answer
     */
    public EntityWrites(EventStore store, EntityCache cache, CommittedSnapshots snapshots, EventCodec codec, EntityIds ids, InputLimits limits) {
        this.snapshots = snapshots;
        this.limits = limits;
        this.store = store;
        this.cache = cache;
        this.codec = codec;
        this.ids = ids;
    }

    public EventCodec codec() {
        return codec;
    }

    public InputLimits limits() {
        return limits;
    }

    /** Creates a DE from metadata entered directly (source tool "idiom"). */
    public EntitySnapshot create(Metadata metadata, String source) {
        return create(metadata, false, source);
    }

    /** @param markPrivate seen only by keys allowed to see private records (see {@code Visibility}) */
    public EntitySnapshot create(Metadata metadata, boolean markPrivate, String source) {
        limits.check(metadata);
        UUID id = ids.next();
        RecordImported created = new RecordImported(Changes.forNewRecord(metadata), "idiom", id.toString());
        List<NewEvent> events = new ArrayList<>(List.of(new NewEvent(UUID.randomUUID(), source, created)));
        if (markPrivate) {
            events.add(new NewEvent(UUID.randomUUID(), source, new PrivacyMarked(true)));
        }
        return committed(store.append(id, 0, events));
    }

    /** UpdateDE: sets one field from its text form; {@code private} ("true" or "false") sets or takes away a curator's privacy mark. */
    public EntitySnapshot update(UUID id, String field, String value, int expectedVersion, String source) {
        if ("private".equals(field)) {
            if (!"true".equals(value) && !"false".equals(value)) {
                throw new InvalidValueException("private is true or false, got '" + value + "'");
            }
            return patch(id, Map.of(), Boolean.parseBoolean(value), expectedVersion, source);
        }
        Field f = Field.named(field);
        Map<Field, Object> values = new HashMap<>();
        values.put(f, f.fromText(value)); // null clears the field (Map.of refuses nulls)
        return patch(id, values, expectedVersion, source);
    }

    /** Sets several (validated) fields at once: one minor event per change, all or none. */
    public EntitySnapshot patch(UUID id, Map<Field, Object> values, int expectedVersion, String source) {
        return patch(id, values, null, expectedVersion, source);
    }

    /** @param markPrivate null: as it is; true or false: a curator's privacy mark set or taken away with the fields */
    public EntitySnapshot patch(UUID id, Map<Field, Object> values, Boolean markPrivate, int expectedVersion, String source) {
        limits.check(values);
        // the cached state at the expected version is exactly that version's state; the append
        // re-checks the version under the row lock, so deciding on it is safe and saves a query
        DigitalEntity current = cache.get(id).map(EntitySnapshot::entity).filter(de -> de.version() == expectedVersion)
                .orElseGet(() -> store.load(id).orElseThrow(() -> new UnknownEntityException(id)));
        EntityLifecycle.refuseUnlessLive(current); // a DE in the trash is restored before it is changed
        if (current.version() != expectedVersion) {
            throw new StaleVersionException(id, expectedVersion, current.version());
        }
        List<EntityEvent> events = new ArrayList<>(Changes.toSet(current.metadata(), values));
        // "private": false also publishes what only private copies supplied (see PrivateOrigin): on purpose, by a curator
        if (markPrivate != null && (markPrivate != current.markedPrivate() || !markPrivate && current.privateOrigin() != null)) {
            events.add(new PrivacyMarked(markPrivate));
        }
        if (events.isEmpty()) {
            return snapshot(current);
        }
        List<NewEvent> batch = events.stream().map(e -> new NewEvent(UUID.randomUUID(), source, e)).toList();
        return committed(store.append(id, expectedVersion, batch));
    }

    /** Appends events decided elsewhere (imports, replica links). */
    public EntitySnapshot append(UUID id, int expectedVersion, List<NewEvent> events) {
        return committed(store.append(id, expectedVersion, events));
    }

    /** Appends several requests with one commit (see {@link EventStore#appendAll}). */
    public List<AppendOutcome> appendAll(List<Append> appends) {
        return store.appendAll(appends);
    }

    private EntitySnapshot committed(AppendResult result) {
        // the stored form holds the replicas' shadows: the answer is the view without them, as the cache's listener made it
        return snapshots.of(result);
    }

    private EntitySnapshot snapshot(DigitalEntity de) {
        return EntitySnapshot.of(de, codec);
    }
}
