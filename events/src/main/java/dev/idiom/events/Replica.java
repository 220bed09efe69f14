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
 * @param ownFields the fields this copy keeps as it holds them, each with the DE's value when the copy joined the DE (other
 *     fields absent; null: none): a record that joins a DE from another library is not written the values the DE already had
 *     ({@link #ownFields(Metadata, Metadata)}); a field stops being the copy's own once the DE's value for it changes
 */
public record Replica(String tool, String account, String remoteId, String remoteVersion, Metadata synced, String identityHint, String shadow,
                      boolean privateCopy, Metadata ownFields) implements Serializable {

    public Replica(String tool, String account, String remoteId, String remoteVersion, Metadata synced, String identityHint, String shadow,
            boolean privateCopy) {
        this(tool, account, remoteId, remoteVersion, synced, identityHint, shadow, privateCopy, null);
    }

    public Replica(String tool, String account, String remoteId, String remoteVersion, Metadata synced, String identityHint, String shadow) {
        this(tool, account, remoteId, remoteVersion, synced, identityHint, shadow, false);
    }

    public Replica(String tool, String account, String remoteId, String remoteVersion, Metadata synced) {
        this(tool, account, remoteId, remoteVersion, synced, null, null);
    }

    /**
     * The fields a record that joins a DE holds otherwise than the DE (after the join), each with the
     * DE's value; null if it holds every field as the DE does. A field the DE has no value for is not one.
     */
    public static Metadata ownFields(Metadata de, Metadata copy) {
        Metadata own = null;
        for (Field f : Field.values()) {
            Object v = de.get(f);
            if (!empty(v) && !java.util.Objects.equals(v, copy.get(f))) {
                own = (own == null ? Metadata.EMPTY : own).with(f, v);
            }
        }
        return own;
    }

    /**
     * The own fields still the copy's after the DE became {@code de} and the copy {@code synced}: a
     * field whose DE value changed since, or that the copy now holds as the DE does, is no longer one.
     * Tags stay the copy's own while they differ from the DE's, rebased on the DE's tags when
     * {@code rebase} (a push wrote the DE's tag changes up to now).
     */
    Metadata ownFieldsAfter(Metadata de, Metadata synced, boolean rebase) {
        if (ownFields == null) {
            return null;
        }
        Metadata own = null;
        for (Field f : Field.values()) {
            Object base = ownFields.get(f);
            if (empty(base) || java.util.Objects.equals(synced.get(f), de.get(f))) {
                continue;
            }
            if (f == Field.TAGS ? rebase || base.equals(de.get(f)) : java.util.Objects.equals(base, de.get(f))) {
                own = (own == null ? Metadata.EMPTY : own).with(f, f == Field.TAGS ? de.get(f) : base);
            }
        }
        return own;
    }

    private static boolean empty(Object v) {
        return v == null || (v instanceof java.util.Collection<?> c && c.isEmpty());
    }

    /** The same copy without its shadow: what may leave the store. */
    public Replica withoutShadow() {
        return shadow == null ? this : new Replica(tool, account, remoteId, remoteVersion, synced, identityHint, null, privateCopy, ownFields);
    }

    /** The link of a purged DE's copy: which copy it is, nothing of its record. */
    public Replica purged() {
        return new Replica(tool, account, remoteId, remoteVersion, Metadata.EMPTY, identityHint, null, privateCopy);
    }

    public boolean sameCopy(String tool, String account, String remoteId) {
        return this.tool.equals(tool) && Objects.equals(this.account, account) && this.remoteId.equals(remoteId);
    }
}
