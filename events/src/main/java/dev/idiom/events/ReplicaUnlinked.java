package dev.idiom.events;

/**
 * A copy of the DE is gone from its tool (deleted or trashed there): the replica is no longer
 * linked and nothing more is pushed to it. The DE itself stays.
 *
 * @param lastSynced the record the replica last held (kept so the history shows what was lost)
 * @param reason why it was unlinked (e.g. "deleted in pinboard")
 * @param byCurator a curator unlinked it by hand: the copy stays in its tool and is not synced again
 *        (a pull that meets it leaves it alone rather than linking it to this DE again)
 * @param kept what Idiom removed from the tool, in the tool's own form, so a restore puts it back as it was (a file entry's
 *        text and place); null when the tool keeps it (Zotero's trash) or it was not Idiom that removed it
 */
public record ReplicaUnlinked(String tool, String account, String remoteId, Metadata lastSynced, String reason, boolean byCurator, String kept)
        implements EntityEvent, ReplicaEvent {
    public ReplicaUnlinked(String tool, String account, String remoteId, Metadata lastSynced, String reason, boolean byCurator) {
        this(tool, account, remoteId, lastSynced, reason, byCurator, null);
    }

    public ReplicaUnlinked(String tool, String account, String remoteId, Metadata lastSynced, String reason) {
        this(tool, account, remoteId, lastSynced, reason, false);
    }
}
