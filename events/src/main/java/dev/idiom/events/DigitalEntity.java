package dev.idiom.events;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

/**
 * A publication as Idiom knows it: the fold of its events. This fold is the one definition of a
 * DE; the projection, the rebuild check and as-of reads all use it.
 *
 * @param version the number of events folded in (the ETag)
 */
public record DigitalEntity(UUID id, int version, Metadata metadata, Instant createdAt, Instant updatedAt) implements java.io.Serializable {

    /** The state before the first event. */
    public static DigitalEntity empty(UUID id) {
        return new DigitalEntity(id, 0, Metadata.EMPTY, null, null);
    }

    public boolean exists() {
        return version > 0;
    }

    /** Folds {@code events} (in stream order) into a state. */
    public static DigitalEntity fold(UUID id, List<RecordedEvent> events) {
        DigitalEntity state = empty(id);
        for (RecordedEvent e : events) {
            state = state.apply(e.event(), e.recordedAt());
        }
        return state;
    }

    /** The state after one more event. */
    public DigitalEntity apply(EntityEvent event, Instant at) {
        Metadata next = switch (event) {
            case RecordImported imported -> version == 0 ? imported.metadata() : metadata;
            case FieldChanged changed -> metadata.with(changed.field(), changed.value());
            case TagAdded added -> metadata.withTag(added.tag());
            case TagRemoved removed -> metadata.withoutTag(removed.tag());
        };
        return new DigitalEntity(id, version + 1, next, createdAt == null ? at : createdAt, at);
    }
}
