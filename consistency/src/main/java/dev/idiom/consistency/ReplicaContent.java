package dev.idiom.consistency;

import dev.idiom.events.DigitalEntity;
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
        Metadata m = de.metadata();
        if (!Visibility.PRIVATE_TAG_TOOLS.contains(tool.kind())) {
            for (String tag : Visibility.privateTags(de)) {
                m = m.withoutTag(tag);
            }
        }
        return tool.writable(m, known);
    }

    /** Tags of the DE that {@link #wanted} leaves out of this copy, for the sync's account of itself. */
    public static java.util.Set<String> withheldTags(DigitalEntity de, AnnotationTool tool, Metadata known) {
        java.util.Set<String> out = new java.util.TreeSet<>(de.metadata().tags());
        out.removeAll(wanted(de, tool, known).tags());
        return out;
    }

    /** A copy created of this DE is created private where the tool can say so when the DE is private anywhere. */
    public static boolean keepPrivate(DigitalEntity de) {
        return de.markedPrivate() || de.replicas().stream().anyMatch(r -> r.privateCopy());
    }
}
