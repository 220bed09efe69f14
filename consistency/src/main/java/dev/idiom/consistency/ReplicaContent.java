package dev.idiom.consistency;

import dev.idiom.events.DigitalEntity;
import dev.idiom.events.Field;
import dev.idiom.events.Replica;
import dev.idiom.events.Metadata;
import dev.idiom.events.Visibility;
import dev.idiom.wrappers.AnnotationTool;

/**
 * What a copy of a DE in one tool should hold: the DE's metadata less what must not reach that
 * tool — private tags of a tool that has them (Pinboard's {@code .tag}) in a tool that has none,
 * and tags the tool would act on that did not come from that copy ({@link AnnotationTool#writable}).
 * Pushes, uploads and the anti-entropy check all compare against this, so a tag left out is
 * never owed again.
 */
public final class ReplicaContent {
    private ReplicaContent() {}

    /**
     * @param known the copy's state as last synced, or null for a copy not yet created
     */
    public static Metadata wanted(DigitalEntity de, AnnotationTool tool, Metadata known) {
        return wanted(de, de.metadata(), tool, known);
    }

    /**
     * What copy {@code r} should hold: as above, with the fields it keeps as its own
     * ({@link Replica#ownFields}: what the DE already held when the copy joined it, from another
     * library) as the copy holds them while the DE's value is still that one; its own tags with the
     * DE's tag changes since made; and the fields a conflict holds for a curator ({@link DigitalEntity#heldFields}) as the copy holds them.
     */
    /**
     * The one decision of whether a copy is owed a write: what it should hold ({@link #forCopy})
     * differs, in the fields its tool keeps, from what it held when last synced. The store's
     * {@code OutboxRule} enqueues a push on a coarser test in the append's transaction (so no change
     * can miss one); every push, repair and re-queue asks this before it writes.
     */
    public static boolean owed(DigitalEntity de, AnnotationTool tool, Replica r) {
        return owed(r, forCopy(de, tool, r), tool.fieldsKept());
    }

    /** As above, with what the copy should hold already made, and the fields its tool keeps. */
    static boolean owed(Replica r, Metadata wanted, java.util.Set<dev.idiom.events.Field> kept) {
        return !CanonicalForm.agree(r.synced(), wanted, kept);
    }

    public static Metadata forCopy(DigitalEntity de, AnnotationTool tool, Replica r) {
        Metadata content = withOwnFields(de.metadata(), r);
        if (r.synced() != null) {
            for (Field f : de.heldFields()) { // a conflict left to a curator: the field is written nowhere until it is settled
                content = content.with(f, r.synced().get(f));
            }
        }
        return wanted(de, content, tool, r.synced());
    }

    /** The DE's metadata with the copy's own fields as the copy holds them, where the DE still holds what it did when they became so. */
    static Metadata withOwnFields(Metadata m, Replica r) {
        Metadata own = r.ownFields();
        if (own == null || r.synced() == null) {
            return m;
        }
        Metadata out = m;
        for (Field f : Field.values()) {
            Object base = own.get(f);
            if (base == null || base instanceof java.util.Collection<?> c && c.isEmpty()) {
                continue;
            }
            if (f == Field.TAGS) {
                java.util.SortedSet<String> tags = new java.util.TreeSet<>(r.synced().tags());
                m.tags().stream().filter(t -> !own.tags().contains(t)).forEach(tags::add); // added in the DE since
                own.tags().stream().filter(t -> !m.tags().contains(t)).forEach(tags::remove); // taken out of the DE since
                out = out.with(f, tags);
            } else if (java.util.Objects.equals(base, m.get(f))) {
                out = out.with(f, r.synced().get(f));
            }
        }
        return out;
    }

    private static Metadata wanted(DigitalEntity de, Metadata content, AnnotationTool tool, Metadata known) {
        Metadata m = content;
        if (!Visibility.PRIVATE_TAG_TOOLS.contains(tool.kind())) {
            for (String tag : Visibility.privateTags(de)) {
                m = m.withoutTag(tag);
            }
        }
        return tool.writable(m, known);
    }

    /** Tags of the DE that {@link #wanted} leaves out of this copy, for the sync's account of itself. */
    public static java.util.Set<String> withheldTags(DigitalEntity de, AnnotationTool tool, Replica r) {
        java.util.Set<String> out = new java.util.TreeSet<>(de.metadata().tags());
        out.removeAll(forCopy(de, tool, r).tags());
        return out;
    }

    /** A copy created of this DE is created private where the tool can say so when the DE is private anywhere. */
    public static boolean keepPrivate(DigitalEntity de) {
        return de.markedPrivate() || de.privateOrigin() != null || de.replicas().stream().anyMatch(r -> r.privateCopy());
    }
}
