package dev.idiom.events;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Who sees what of a DE: the rules as pure functions, and the stored form that carries them. */
class VisibilityTest {
    private final UUID id = UUID.randomUUID();
    private final Instant t0 = Instant.parse("2026-01-01T00:00:00Z");
    private final EventCodec codec = new EventCodec();
    private final Metadata page = Metadata.EMPTY.with(Field.TYPE, "webpage").with(Field.TITLE, "A page").with(Field.URL, "https://example.org/p")
            .with(Field.TAGS, new TreeSet<>(Set.of("open", ".mine")));
    private final Metadata item = page.with(Field.ABSTRACT, "only in the private copy").with(Field.TAGS, new TreeSet<>(Set.of("closed")));

    private DigitalEntity fold(EntityEvent... events) {
        DigitalEntity de = DigitalEntity.empty(id);
        for (EntityEvent e : events) {
            de = de.apply(e, t0);
        }
        return de;
    }

    @Test
    void aDeWhoseEveryCopyIsPrivateIsHidden() {
        DigitalEntity de = fold(new RecordImported(page, "pinboard", "", "https://example.org/p", "m1", null, "{\"shared\":\"no\"}", true));
        assertTrue(Visibility.hidden(de));
        assertTrue(Visibility.restricted(de));
    }

    @Test
    void aDeCreatedInIdiomIsPublicUntilACuratorMarksIt() {
        DigitalEntity de = fold(new RecordImported(item, "idiom", id.toString()));
        assertFalse(Visibility.restricted(de), "no copies, no mark");
        DigitalEntity marked = de.apply(new PrivacyMarked(true), t0);
        assertTrue(Visibility.hidden(marked));
        assertFalse(Visibility.hidden(marked.apply(new PrivacyMarked(false), t0)));
    }

    @Test
    void aDeWithAPublicAndAPrivateCopyShowsOnlyWhatAPublicCopyHoldsOrIdiomSet() {
        DigitalEntity de = fold(
                new RecordImported(page, "pinboard", "", "https://example.org/p", "m1", null, "{}", false),
                new RecordImported(item, "zotero", "users/1", "ABCD1234", "7", null, "{\"collections\":[]}", true),
                new FieldChanged(Field.NOTES, "written in Idiom"));
        assertFalse(Visibility.hidden(de));
        DigitalEntity shown = Visibility.publicView(de);
        assertNull(shown.metadata().abstractText(), "only the private copy holds it");
        assertEquals(new TreeSet<>(Set.of("open")), shown.metadata().tags(), "not the private copy's tag, nor Pinboard's private tag");
        assertEquals("written in Idiom", shown.metadata().notes(), "no copy holds it: set in Idiom");
        assertEquals(List.of("pinboard"), shown.replicas().stream().map(Replica::tool).toList());
        assertTrue(shown.replicas().stream().allMatch(r -> r.shadow() == null && !r.synced().tags().contains(".mine")));
    }

    @Test
    void anAnswerNeverCarriesAShadowButTheStoredFormDoes() {
        DigitalEntity de = fold(new RecordImported(item, "zotero", "users/1", "ABCD1234", "7", null, "{\"relations\":{}}", true));
        assertTrue(codec.entity(de).contains("relations"));
        assertFalse(codec.view(de).contains("relations") || codec.view(de).contains("shadow"));
        assertTrue(codec.view(de).contains("\"private\":true"));
        assertEquals(de, codec.entity(codec.entity(de)), "the stored form folds back to the same state, privacy included");
    }

    @Test
    void eventsWrittenBeforePrivacyExistedKeepTheirBytes() {
        String old = "{\"account\":\"users/1\",\"metadata\":{\"title\":\"A page\"},\"remoteId\":\"ABCD1234\",\"remoteVersion\":\"7\",\"tool\":\"zotero\"}";
        EntityEvent e = codec.event("RecordImported", old);
        assertFalse(((RecordImported) e).privateCopy());
        assertEquals(codec.payload(e), codec.payload(codec.event("RecordImported", codec.payload(e))));
        assertFalse(codec.payload(e).contains("private"), "nothing added to a public copy's event: a rebuild stays byte-identical");
        DigitalEntity de = fold(e);
        assertFalse(codec.entity(de).contains("private"));
        assertEquals(new PrivacyMarked(true), codec.event("PrivacyMarked", codec.payload(new PrivacyMarked(true))));
    }

    @Test
    void aDeFromAPrivateCopyStaysHiddenWhenThatCopyIsUnlinkedDeletedOrMergedAway() {
        DigitalEntity de = fold(new RecordImported(page, "bookmarks", "/tmp/b.html", "https://example.org/p", null, null, null, true));
        DigitalEntity unlinked = de.apply(new ReplicaUnlinked("bookmarks", "/tmp/b.html", "https://example.org/p", page, "deleted in its tool"), t0);
        assertTrue(unlinked.replicas().isEmpty());
        assertTrue(Visibility.hidden(unlinked), "no copy is left to say it is private: its origin does");
        assertTrue(Visibility.hidden(unlinked.apply(new EntityDeleted("deleted in its tool"), t0)));
        assertTrue(Visibility.hidden(unlinked.apply(new EntityDeleted("gone"), t0).apply(new EntityPurged(), t0)), "purged: still nobody's business");
        assertTrue(Visibility.hidden(de.apply(new EntityMerged(UUID.randomUUID()), t0)), "the loser of a merge keeps its privacy");
        assertFalse(Visibility.hidden(unlinked.apply(new PrivacyMarked(false), t0)), "a curator publishes it on purpose");
    }

    @Test
    void valuesAndTagsAPrivateCopyBroughtStayWithheldAfterItGoes() {
        Metadata pulled = item.with(Field.NOTES, "a private note");
        DigitalEntity de = fold(
                new RecordImported(page, "pinboard", "", "https://example.org/p", "m1", null, "{}", false),
                new RecordImported(item, "zotero", "users/1", "ABCD1234", "7", null, "{}", true),
                new FieldChanged(Field.NOTES, "a private note"), // a pull of the private copy: its change, then the copy re-synced
                new ReplicaLinked("zotero", "users/1", "ABCD1234", "8", pulled, null, null, true),
                new ReplicaUnlinked("zotero", "users/1", "ABCD1234", pulled, "deleted in its tool"));
        assertFalse(Visibility.hidden(de), "a public copy holds it");
        DigitalEntity shown = Visibility.publicView(de);
        assertNull(shown.metadata().abstractText());
        assertNull(shown.metadata().notes(), "a change pulled from the private copy is as private as its record");
        assertFalse(shown.metadata().tags().contains("closed"));
        assertEquals("A page", shown.metadata().title(), "what the public copy holds stays shown");
        DigitalEntity edited = de.apply(new FieldChanged(Field.NOTES, "written in Idiom"), t0);
        assertEquals("written in Idiom", Visibility.publicView(edited).metadata().notes(), "a value set in Idiom is not the copy's");
        assertEquals(de, codec.entity(codec.entity(de)), "the stored form keeps the origin");
    }

    @Test
    void aValueIdiomWroteIntoAPublicCopyStaysPrivateUntilAPublicCopyBringsItItself() {
        DigitalEntity de = fold(
                new RecordImported(page, "pinboard", "", "https://example.org/p", "m1", null, "{}", false),
                new RecordImported(item, "zotero", "users/1", "ABCD1234", "7", null, "{}", true),
                new ReplicaPushed("pinboard", "", "https://example.org/p", "m2", item.with(Field.TAGS, page.tags()), null, null, 2),
                new ReplicaUnlinked("zotero", "users/1", "ABCD1234", item, "deleted in its tool"));
        assertNull(Visibility.publicView(de).metadata().abstractText(), "a push by the curator's rule publishes nothing to readers");
        Metadata edited = item.with(Field.TAGS, page.tags()).with(Field.ABSTRACT, "rewritten on Pinboard");
        DigitalEntity pulled = de.apply(new FieldChanged(Field.ABSTRACT, "rewritten on Pinboard"), t0)
                .apply(new ReplicaLinked("pinboard", "", "https://example.org/p", "m3", edited, null, null, false), t0);
        assertEquals("rewritten on Pinboard", Visibility.publicView(pulled).metadata().abstractText(), "a public copy's own change is public");
        assertEquals("A page", Visibility.publicView(pulled).metadata().title());
        assertEquals(List.of(new Author("Lovelace", "Ada")), Visibility.publicView(de.apply(new FieldChanged(Field.AUTHORS,
                List.of(new Author("Lovelace", "Ada"))), t0)).metadata().authors(), "set in Idiom: shown");
    }

    @Test
    void aCopyIdiomWroteIntoAPrivateLibraryBringsNothing() {
        DigitalEntity de = fold(new RecordImported(item, "idiom", id.toString()),
                new ReplicaLinked("zotero", "groups/9", "ABCD1234", "1", item, null, null, true),
                new ReplicaUnlinked("zotero", "groups/9", "ABCD1234", item, "deleted in its tool"));
        assertFalse(Visibility.restricted(de), "the content was Idiom's before the private copy existed");
    }
}
