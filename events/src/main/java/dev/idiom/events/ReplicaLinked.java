package dev.idiom.events;

/**
 * A copy of the DE was made or written in a tool (an upload, a sync), forming or updating a
 * replica.
 *
 * @param synced the metadata as written to the tool
 * @param shadow the record as the tool holds it now, in the tool's own form (null if unknown)
 * @param replaces the copy's former remote id when the tool gave it a new one (BibSonomy's
 *     hashes change with the content, a Pinboard bookmark's URL was changed), else null
 */
public record ReplicaLinked(String tool, String account, String remoteId, String remoteVersion, Metadata synced, String shadow, String replaces,
                            boolean privateCopy) implements EntityEvent, ReplicaEvent {

    public ReplicaLinked(String tool, String account, String remoteId, String remoteVersion, Metadata synced, String shadow, String replaces) {
        this(tool, account, remoteId, remoteVersion, synced, shadow, replaces, false);
    }

    public ReplicaLinked(String tool, String account, String remoteId, String remoteVersion, Metadata synced) {
        this(tool, account, remoteId, remoteVersion, synced, null, null);
    }
}
