package dev.idiom.events;

/**
 * What happened to a digital entity. Major events ({@link RecordImported}) carry a whole record;
 * minor events change one field. Immutable, named in the past tense.
 */
public sealed interface EntityEvent permits RecordImported, ReplicaLinked, ReplicaPushed, ReplicaReread, ReplicaUnlinked, FieldChanged,
        TagAdded, TagRemoved, ConflictResolved, ConflictSettled, PrivacyMarked, EntityDeleted, EntityRestored, EntityPurged, EntityMerged {

    /** The stored type name of this event. */
    default String type() {
        return getClass().getSimpleName();
    }

    /** Major: true for events that carry a whole record. */
    default boolean major() {
        return this instanceof RecordImported;
    }
}
