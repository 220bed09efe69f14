package dev.idiom.consistency;

import dev.idiom.events.DigitalEntity;
import dev.idiom.events.Field;
import dev.idiom.events.Metadata;
import dev.idiom.events.Replica;
import dev.idiom.events.ReplicaReread;
import dev.idiom.wrappers.AnnotationTool;
import dev.idiom.wrappers.RemoteRecord;
import java.util.Objects;

/**
 * A copy that reads otherwise at the version it was last synced at, in a tool whose versions name
 * their content ({@link AnnotationTool#versionNamesContent}): nobody changed it, Idiom reads it
 * better (or worse) now. It is re-based, never merged: the DE keeps its content, no other copy is
 * written, and the copy is owed nothing — where the new reading differs from the DE the field
 * becomes the copy's own ({@link Replica#ownFields}, with the DE's value now), so a push writes it
 * only once the DE's value changes. A field the copy now reads a value for that the DE has none of
 * stays as last synced: the DE takes it when the copy next changes, with that change.
 */
final class Reread {
    private Reread() {}

    /** True if {@code r} is the copy as last synced, by its version, in a tool whose versions name their content. */
    static boolean sameVersion(AnnotationTool tool, Replica replica, RemoteRecord r) {
        return tool.versionNamesContent() && replica.remoteVersion() != null && replica.remoteVersion().equals(r.version())
                && replica.privateCopy() == r.privateCopy();
    }

    /** The re-base of {@code replica} on reading {@code r}, or null when the copy is based on that reading already. */
    static ReplicaReread of(AnnotationTool tool, RemoteRecord r, DigitalEntity de, Replica replica) {
        Metadata was = replica.synced() == null ? Metadata.EMPTY : replica.synced();
        Metadata synced = r.metadata();
        Metadata own = replica.ownFields();
        for (Field f : tool.fieldsKept()) {
            Object now = CanonicalForm.value(synced, f);
            if (Objects.equals(CanonicalForm.value(was, f), now)) {
                continue;
            }
            Object mine = CanonicalForm.value(de.metadata(), f);
            if (mine == null) {
                synced = synced.with(f, was.get(f));
            } else if (!mine.equals(now)) {
                own = owning(own, f, de);
            }
        }
        if (CanonicalForm.agree(was, synced, tool.fieldsKept()) && Objects.equals(own, replica.ownFields())) {
            return null;
        }
        return new ReplicaReread(tool.kind(), tool.account(), r.remoteId(), r.version(), synced, own, r.shadow(), r.privateCopy());
    }

    /**
     * A write the tool took that left the copy as it was (its version, which names its content, did
     * not move) while the copy reads otherwise than {@code wanted}: the copy cannot hold those values
     * as the DE has them (a LaTeX command a {@code .bib} entry reads as something else). They become
     * the copy's own, with the DE's values now, so no check owes the same write again; a later change
     * of the DE's value is written as any is. Null where nothing would change (a field the DE has no
     * value for, tags: left to the next write).
     */
    static ReplicaReread unwritable(AnnotationTool tool, RemoteRecord written, Metadata held, DigitalEntity de, Replica replica, Metadata wanted) {
        Metadata own = replica.ownFields();
        for (Field f : tool.fieldsKept()) {
            if (f != Field.TAGS && CanonicalForm.value(de.metadata(), f) != null
                    && !Objects.equals(CanonicalForm.value(held, f), CanonicalForm.value(wanted, f))) {
                own = owning(own, f, de);
            }
        }
        return Objects.equals(own, replica.ownFields()) && CanonicalForm.agree(held, replica.synced(), tool.fieldsKept()) ? null
                : new ReplicaReread(tool.kind(), tool.account(), written.remoteId(), written.version(), held, own, written.shadow(), replica.privateCopy());
    }

    /** The own fields with {@code f} among them, its base the DE's value now; one already the copy's own keeps its base. */
    private static Metadata owning(Metadata own, Field f, DigitalEntity de) {
        return own != null && own.get(f) != null ? own : (own == null ? Metadata.EMPTY : own).with(f, de.metadata().get(f));
    }
}
