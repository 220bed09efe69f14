package dev.idiom.events;

/**
 * A copy of the DE was made in a tool (an upload), forming a replica.
 *
 * @param synced the metadata as written to the tool
 */
public record ReplicaLinked(String tool, String account, String remoteId, String remoteVersion, Metadata synced) implements EntityEvent {}
