package dev.idiom.consistency;

import dev.idiom.events.Changes;
import dev.idiom.events.ConflictResolved;
import dev.idiom.events.EntityEvent;
import dev.idiom.events.Field;
import dev.idiom.events.Metadata;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * The one merge of a replica's changes into a DE, used by imports and sync alike: three-way per
 * field against the record last synced with the replica. Only the replica changed a field → take
 * it; both changed it to different values → the policy picks the winner and a
 * {@link ConflictResolved} keeps both values and the base; both changed it to the same value → no
 * event. Tags merge as sets: tags the replica added are added, tags it removed are removed,
 * Idiom's own stay — so tags never conflict.
 */
public final class ReplicaMerge {
    private ReplicaMerge() {}

    /**
     * The events that bring {@code remote}'s changes since {@code base} into {@code mine}.
     *
     * @param tool the replica's tool kind, account its account (recorded with a conflict)
     */
    public static List<EntityEvent> remoteChanges(Metadata base, Metadata remote, Metadata mine, ConflictPolicy policy, String tool,
            String account) {
        List<EntityEvent> events = new ArrayList<>();
        for (Field f : Field.values()) {
            if (f == Field.TAGS) {
                SortedSet<String> merged = new TreeSet<>(mine.tags());
                remote.tags().stream().filter(t -> !base.tags().contains(t)).forEach(merged::add);
                base.tags().stream().filter(t -> !remote.tags().contains(t)).forEach(merged::remove);
                events.addAll(Changes.toSet(mine, f, merged));
                continue;
            }
            Object b = base.get(f);
            Object theirs = remote.get(f);
            Object ours = mine.get(f);
            if (Objects.equals(theirs, b) || Objects.equals(theirs, ours)) {
                continue; // the replica did not change it, or both sides agree
            }
            if (Objects.equals(ours, b)) {
                events.addAll(Changes.toSet(mine, f, theirs));
            } else {
                Object winner = policy.remoteWins(tool) ? theirs : ours;
                events.add(new ConflictResolved(f, b, ours, theirs, winner, policy.name(), tool, account));
            }
        }
        return events;
    }
}
