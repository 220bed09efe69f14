package dev.idiom.events;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * Decide what a replica's remote changes mean for a DE: three-way per field against the state last
 * synced with the replica. Where only the remote changed a field, take it; where Idiom changed it
 * too, keep Idiom's (recording such conflicts is the consistency engine's to add). Tags merge as
 * sets: tags the remote added are added, tags it removed are removed, Idiom's own stay.
 */
public final class ThreeWayMerge {
    private ThreeWayMerge() {}

    /** The minor events that bring {@code remote}'s changes since {@code base} into {@code mine}. */
    public static List<EntityEvent> remoteChanges(Metadata base, Metadata remote, Metadata mine) {
        List<EntityEvent> events = new ArrayList<>();
        for (Field f : Field.values()) {
            if (f == Field.TAGS) {
                SortedSet<String> merged = new TreeSet<>(mine.tags());
                remote.tags().stream().filter(t -> !base.tags().contains(t)).forEach(merged::add);
                base.tags().stream().filter(t -> !remote.tags().contains(t)).forEach(merged::remove);
                events.addAll(Changes.toSet(mine, f, merged));
            } else if (!Objects.equals(remote.get(f), base.get(f)) && Objects.equals(mine.get(f), base.get(f))) {
                events.addAll(Changes.toSet(mine, f, remote.get(f)));
            }
        }
        return events;
    }
}
