package dev.idiom.events;

/**
 * A copy read again at the version it was last synced at read otherwise than then: the tool's
 * record did not change (its version names its content), Idiom's reading of it did (an adapter
 * that now reads a field it did not). The copy is re-based on the new reading and the DE keeps its
 * content: nothing is merged into the DE and nothing is owed to any copy, this one included.
 * Where the new reading differs from the DE, the copy keeps those fields as its own
 * ({@link Replica#ownFields}, each with the DE's value now), so no push writes the copy back to the
 * old reading and a later change of the copy in its tool is judged against the new reading.
 *
 * @param synced the copy as read now (fields the DE has no value for stay as last synced: see {@code RecordArrival})
 * @param ownFields the copy's own fields after the re-read (null: none)
 * @param shadow the record as the tool holds it (null if unknown)
 */
public record ReplicaReread(String tool, String account, String remoteId, String remoteVersion, Metadata synced, Metadata ownFields, String shadow,
                            boolean privateCopy) implements EntityEvent, ReplicaEvent {}
