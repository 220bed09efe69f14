package dev.idiom.consistency;

import dev.idiom.events.Changes;
import dev.idiom.events.ConflictResolved;
import dev.idiom.events.EntityEvent;
import dev.idiom.events.Field;
import dev.idiom.events.Metadata;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
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
     * The events that bring {@code remote}'s changes since {@code base} into {@code mine}, for
     * every field.
     *
     * @param tool the replica's tool kind, account its account (recorded with a conflict)
     */
    public static List<EntityEvent> remoteChanges(Metadata base, Metadata remote, Metadata mine, ConflictPolicy policy, String tool,
            String account) {
        return remoteChanges(base, remote, mine, policy, tool, account, EnumSet.allOf(Field.class));
    }

    /**
     * As above, for the fields the tool keeps only: a field a tool cannot store is absent from what
     * it returns, which is not a change (a Zotero abstract survives a round trip through Pinboard).
     */
    public static List<EntityEvent> remoteChanges(Metadata base, Metadata remote, Metadata mine, ConflictPolicy policy, String tool,
            String account, Set<Field> kept) {
        return remoteChanges(base, remote, mine, policy, tool, account, kept, null, null);
    }

    /**
     * As above, with the times last-writer-wins compares.
     *
     * @param idiomChangedAt when the DE last changed; remoteChangedAt when the tool says the record did (either may be null)
     */
    public static List<EntityEvent> remoteChanges(Metadata base, Metadata remote, Metadata mine, ConflictPolicy policy, String tool,
            String account, Set<Field> kept, java.time.Instant idiomChangedAt, java.time.Instant remoteChangedAt) {
        return remoteChanges(base, base, remote, mine, policy, tool, account, kept, idiomChangedAt, remoteChangedAt);
    }

    /**
     * As above, with Idiom's side of each field judged against {@code mineBase}: for a field the copy
     * keeps as its own ({@link dev.idiom.events.Replica#ownFields}) that is the DE's value when the
     * copy joined, not the copy's; a change the copy makes there while the DE kept that value is no conflict.
     */
    public static List<EntityEvent> remoteChanges(Metadata base, Metadata mineBase, Metadata remote, Metadata mine, ConflictPolicy policy,
            String tool, String account, Set<Field> kept, java.time.Instant idiomChangedAt, java.time.Instant remoteChangedAt) {
        boolean remoteWins = policy.remoteWins(tool, idiomChangedAt, remoteChangedAt);
        List<EntityEvent> events = new ArrayList<>();
        for (Field f : kept) {
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
            // compared in canonical form: a tool that returns other whitespace or another Unicode form changed nothing
            Object cb = CanonicalForm.value(base, f);
            Object cTheirs = CanonicalForm.value(remote, f);
            Object cOurs = CanonicalForm.value(mine, f);
            if (Objects.equals(cTheirs, cb) || Objects.equals(cTheirs, cOurs)) {
                continue; // the replica did not change it, or both sides agree
            }
            if (Objects.equals(cOurs, cb) || Objects.equals(cOurs, CanonicalForm.value(mineBase, f))) {
                events.addAll(Changes.toSet(mine, f, theirs));
            } else {
                Object winner = remoteWins ? theirs : ours;
                events.add(new ConflictResolved(f, b, ours, theirs, winner, policy.name(), tool, account));
            }
        }
        return events;
    }

    /** {@code wanted} with the fields in {@code kept} as {@code held} has them: what a replica holds after a push. */
    public static Metadata asHeld(Metadata wanted, Metadata held, Set<Field> kept) {
        Metadata m = wanted;
        for (Field f : kept) {
            m = m.with(f, held.get(f));
        }
        return m;
    }
}
