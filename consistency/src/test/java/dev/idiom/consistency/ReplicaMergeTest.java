package dev.idiom.consistency;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.idiom.events.ConflictResolved;
import dev.idiom.events.EntityEvent;
import dev.idiom.events.Field;
import dev.idiom.events.FieldChanged;
import dev.idiom.events.InvalidValueException;
import dev.idiom.events.Metadata;
import dev.idiom.events.TagAdded;
import dev.idiom.events.TagRemoved;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

class ReplicaMergeTest {
    private static final Metadata BASE = Metadata.EMPTY.with(Field.TITLE, "Epidemic algorithms").with(Field.VENUE, "old").with(Field.YEAR, 1987)
            .with(Field.TAGS, new TreeSet<>(Set.of("shared", "dropped")));

    private static List<EntityEvent> merge(Metadata remote, Metadata mine, ConflictPolicy policy) {
        return ReplicaMerge.remoteChanges(BASE, remote, mine, policy, "zotero", "users/1");
    }

    @Test
    void aFieldOnlyTheReplicaChangedComesIn() {
        assertEquals(List.of(new FieldChanged(Field.VENUE, "new")), merge(BASE.with(Field.VENUE, "new"), BASE, ConflictPolicy.PREFER_IDIOM));
    }

    @Test
    void aFieldBothSidesChangedIsDecidedByThePolicyAndBothValuesAreKept() {
        Metadata mine = BASE.with(Field.VENUE, "mine");
        Metadata theirs = BASE.with(Field.VENUE, "theirs");
        assertEquals(List.of(new ConflictResolved(Field.VENUE, "old", "mine", "theirs", "mine", "prefer-idiom", "zotero", "users/1")),
                merge(theirs, mine, ConflictPolicy.PREFER_IDIOM));
        assertEquals(List.of(new ConflictResolved(Field.VENUE, "old", "mine", "theirs", "theirs", "prefer-remote", "zotero", "users/1")),
                merge(theirs, mine, ConflictPolicy.PREFER_REMOTE));
        assertEquals("theirs", ((ConflictResolved) merge(theirs, mine, ConflictPolicy.named("tool:zotero")).getFirst()).winner(),
                "the named tool wins");
        assertEquals("mine", ((ConflictResolved) merge(theirs, mine, ConflictPolicy.named("tool:pinboard")).getFirst()).winner(),
                "another tool does not");
    }

    @Test
    void bothSidesMakingTheSameChangeIsNoConflict() {
        assertEquals(List.of(), merge(BASE.with(Field.VENUE, "same"), BASE.with(Field.VENUE, "same"), ConflictPolicy.PREFER_IDIOM));
    }

    @Test
    void differentFieldsChangedOnBothSidesBothSurvive() {
        assertEquals(List.of(new FieldChanged(Field.YEAR, 1988)), merge(BASE.with(Field.YEAR, 1988), BASE.with(Field.VENUE, "mine"),
                ConflictPolicy.PREFER_REMOTE));
    }

    @Test
    void tagsMergeAsSetsAndNeverConflict() {
        Metadata mine = BASE.withTag("mine");
        Metadata theirs = BASE.with(Field.TAGS, new TreeSet<>(Set.of("shared", "theirs")));
        assertEquals(List.of(new TagRemoved("dropped"), new TagAdded("theirs")), merge(theirs, mine, ConflictPolicy.PREFER_IDIOM));
    }

    @Test
    void aReplicaThatChangedNothingDecidesNothing() {
        assertEquals(List.of(), merge(BASE, BASE.with(Field.VENUE, "mine"), ConflictPolicy.PREFER_REMOTE));
    }

    @Test
    void anUnknownPolicyIsRefusedWithTheChoices() {
        InvalidValueException e = assertThrows(InvalidValueException.class, () -> ConflictPolicy.named("newest"));
        assertEquals(true, e.getMessage().contains("prefer-idiom"), e.getMessage());
    }

    @Test
    void underLastWriterWinsTheSideChangedLaterWinsAndAToolThatGivesNoTimeLosesToIdiom() {
        Metadata mine = BASE.with(Field.VENUE, "mine");
        Metadata theirs = BASE.with(Field.VENUE, "theirs");
        java.time.Instant idiomAt = java.time.Instant.parse("2026-03-01T10:00:00Z");
        ConflictPolicy lww = ConflictPolicy.named("last-writer-wins");
        ConflictResolved later = (ConflictResolved) ReplicaMerge.remoteChanges(BASE, theirs, mine, lww, "zotero", "users/1",
                java.util.EnumSet.allOf(Field.class), idiomAt, idiomAt.plusSeconds(60)).getFirst();
        assertEquals("theirs", later.winner());
        assertEquals("last-writer-wins", later.policy());
        assertEquals("mine", ((ConflictResolved) ReplicaMerge.remoteChanges(BASE, theirs, mine, lww, "zotero", "users/1",
                java.util.EnumSet.allOf(Field.class), idiomAt, idiomAt.minusSeconds(60)).getFirst()).winner(), "Idiom changed later");
        assertEquals("mine", ((ConflictResolved) ReplicaMerge.remoteChanges(BASE, theirs, mine, lww, "pinboard", "",
                java.util.EnumSet.allOf(Field.class), idiomAt, null).getFirst()).winner(), "no remote time: Idiom's value stays");
    }

    @Test
    void theCanonicalFormIgnoresWhitespaceUnicodeFormAndTagOrder() {
        Metadata a = BASE.with(Field.TITLE, "Caf\u00e9  algorithms ").with(Field.TAGS, new TreeSet<>(Set.of("b", "a")));
        Metadata b = BASE.with(Field.TITLE, "Cafe\u0301 algorithms").with(Field.TAGS, new TreeSet<>(Set.of("a", "b")));
        assertEquals(CanonicalForm.hash(a, Set.of(Field.TITLE, Field.TAGS)), CanonicalForm.hash(b, Set.of(Field.TAGS, Field.TITLE)));
        assertEquals(List.of(), ReplicaMerge.remoteChanges(a, b, a, ConflictPolicy.PREFER_IDIOM, "zotero", "users/1"), "no change");
        org.junit.jupiter.api.Assertions.assertNotEquals(CanonicalForm.hash(a, Set.of(Field.TITLE)),
                CanonicalForm.hash(a.with(Field.TITLE, "Cafe algorithms"), Set.of(Field.TITLE)), "an accent is content");
    }

    @Test
    void theDeletionHoldStopsMoreThanItsShare() {
        DeletionHold hold = DeletionHold.DEFAULT;
        assertEquals(false, hold.holds(1, 10), "10% is not more than 10%");
        assertEquals(true, hold.holds(2, 10));
        assertEquals(true, hold.holds(1, 0), "deleting from an account Idiom holds nothing of is suspicious too");
        assertEquals(false, hold.holds(0, 0));
        assertThrows(IllegalArgumentException.class, () -> new DeletionHold(1.5));
    }
}
