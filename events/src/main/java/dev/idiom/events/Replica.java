package dev.idiom.events;

import java.io.Serializable;
import java.util.Objects;

/**
 * One copy of a DE in an annotation tool (a distributed annotation record): where it is, the
 * tool's version of it, the state last synced with it (the base of a three-way merge) and the
 * record as the tool last returned it (its shadow: what a write-back starts from, so fields Idiom
 * does not model survive).
 *
 * @param shadow the tool's own form of the record, opaque outside its adapter (null if unknown)
 * @param privateCopy the copy is private in its tool (or its account says the whole library is): see {@link Visibility}
 */
public record Replica(String tool, String account, String remoteId, String remoteVersion, Metadata synced, String identityHint, String shadow,
                      boolean privateCopy) implements Serializable {

    public Replica(String tool, String account, String remoteId, String remoteVersion, Metadata synced, String identityHint, String shadow) {
        this(tool, account, remoteId, remoteVersion, synced, identityHint, shadow, false);
    }

    public Replica(String tool, String account, String remoteId, String remoteVersion, Metadata synced) {
        this(tool, account, remoteId, remoteVersion, synced, null, null);
    }

    /** The same copy without its shadow: what may leave the store. */
    public Replica withoutShadow() {
        return shadow == null ? this : new Replica(tool, account, remoteId, remoteVersion, synced, identityHint, null, privateCopy);
    }

    /** The link of a purged DE's copy: which copy it is, nothing of its record. */
    public Replica purged() {
        return new Replica(tool, account, remoteId, remoteVersion, Metadata.EMPTY, identityHint, null, privateCopy);
    }

    public boolean sameCopy(String tool, String account, String remoteId) {
        return this.tool.equals(tool) && Objects.equals(this.account, account) && this.remoteId.equals(remoteId);
    }
}
