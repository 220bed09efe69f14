package dev.idiom.events;

/**
 * The tool acknowledged a push of the DE's content to one of its replicas: the replica now holds
 * {@code synced} at {@code remoteVersion}, so the replica's state is part of the DE's history.
 *
 * @param pushedVersion the DE version whose content was pushed
 * @param shadow the record as the tool holds it after the write (null if unknown)
 * @param replaces the copy's former remote id when the write gave it a new one (BibSonomy's hashes,
 *     a Pinboard URL change), else null
 */
public record ReplicaPushed(String tool, String account, String remoteId, String remoteVersion, Metadata synced, String shadow, String replaces,
        int pushedVersion, boolean privateCopy) implements EntityEvent, ReplicaEvent {

    public ReplicaPushed(String tool, String account, String remoteId, String remoteVersion, Metadata synced, String shadow, String replaces,
                         int pushedVersion) {
        this(tool, account, remoteId, remoteVersion, synced, shadow, replaces, pushedVersion, false);
    }
}
