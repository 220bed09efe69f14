package dev.idiom.events;

/**
 * A copy of the DE is gone from its tool (deleted or trashed there): the replica is no longer
 * linked and nothing more is pushed to it. The DE itself stays.
 *
 * @param lastSynced the record the replica last held (kept so the history shows what was lost)
 * @param reason why it was unlinked (e.g. "deleted in pinboard")
 */
public record ReplicaUnlinked(String tool, String account, String remoteId, Metadata lastSynced, String reason) implements EntityEvent, ReplicaEvent {}
