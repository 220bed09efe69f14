package dev.idiom.events;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class DigitalEntityFoldTest {
    private final UUID id = UUID.randomUUID();
    private final Instant t0 = Instant.parse("2026-01-01T00:00:00Z");
    private final Metadata paper = Metadata.EMPTY.with(Field.TITLE, "Optimistic replication").with(Field.YEAR, 2005)
            .with(Field.TAGS, new TreeSet<>(Set.of("replication")));

    @Test
    void givenAnImport_whenFieldsAndTagsChange_thenTheFoldHasEveryChangeAndCountsVersions() {
        DigitalEntity de = DigitalEntity.empty(id)
                .apply(new RecordImported(paper, "zotero", "ABCD"), t0)
                .apply(new FieldChanged(Field.TITLE, "Optimistic Replication"), t0.plusSeconds(1))
                .apply(new TagAdded("cfdar"), t0.plusSeconds(2))
                .apply(new TagRemoved("replication"), t0.plusSeconds(3));
        assertEquals(4, de.version());
        assertEquals("Optimistic Replication", de.metadata().title());
        assertEquals(new TreeSet<>(Set.of("cfdar")), de.metadata().tags());
        assertEquals(t0, de.createdAt());
        assertEquals(t0.plusSeconds(3), de.updatedAt());
    }

    @Test
    void settingAFieldToItsCurrentValueDecidesNoEvent() {
        assertTrue(Changes.toSet(paper, Field.TITLE, "Optimistic replication").isEmpty());
        assertEquals(List.of(new FieldChanged(Field.YEAR, 2006)), Changes.toSet(paper, Field.YEAR, 2006));
    }

    @Test
    void replacingTheTagSetDecidesOneEventPerDifference() {
        List<EntityEvent> events = Changes.toSet(paper, Field.TAGS, new TreeSet<>(Set.of("cfdar", "idiom")));
        assertEquals(List.of(new TagRemoved("replication"), new TagAdded("cfdar"), new TagAdded("idiom")), events);
    }

    @Test
    void invalidValuesAreRejectedWithAReason() {
        InvalidValueException e = assertThrows(InvalidValueException.class, () -> Field.YEAR.fromText("soon"));
        assertTrue(e.getMessage().contains("year"));
        assertThrows(InvalidValueException.class, () -> Field.TYPE.fromText("poem"));
        assertThrows(InvalidValueException.class, () -> Field.named("colour"));
        assertThrows(InvalidValueException.class, () -> Changes.forNewRecord(Metadata.EMPTY));
    }

    @Test
    void theCodecRoundTripsEveryEventKind() {
        EventCodec codec = new EventCodec();
        List<EntityEvent> all = List.of(new RecordImported(paper, "zotero", "lib1", "ABCD", "42"),
                new ReplicaLinked("bibsonomy", "u", "hash", "hash", paper), new RecordImported(paper.with(Field.AUTHORS, List.of(new Author("Saito", "Yasushi"))), "bibtex", "saito05"),
                new FieldChanged(Field.YEAR, 2005), new FieldChanged(Field.DOI, null), new FieldChanged(Field.AUTHORS, List.of(new Author("Shapiro", "Marc"))),
                new TagAdded("x"), new TagRemoved("x"));
        for (EntityEvent e : all) {
            assertEquals(e, codec.event(e.type(), codec.payload(e)));
        }
    }

    @Test
    void aReKeyedCopyReplacesItsFormerEntryAndItsShadowSurvivesTheStoredForm() {
        EventCodec codec = new EventCodec();
        EntityEvent imported = new RecordImported(paper, "bibsonomy", "alice", "hash1", "t1", "INTER", "<post key=\"k\"/>");
        EntityEvent rekeyed = new ReplicaLinked("bibsonomy", "alice", "hash2", "t2", paper, "<post key=\"k\" edited=\"yes\"/>", "hash1");
        for (EntityEvent e : List.of(imported, rekeyed)) {
            assertEquals(e, codec.event(e.type(), codec.payload(e)), "stored and read back whole");
        }
        DigitalEntity de = DigitalEntity.empty(id).apply(imported, t0).apply(rekeyed, t0.plusSeconds(1));
        assertEquals(1, de.replicas().size(), "one copy, re-keyed");
        Replica r = de.replicas().getFirst();
        assertEquals("hash2", r.remoteId());
        assertEquals("<post key=\"k\" edited=\"yes\"/>", r.shadow());
        assertEquals("INTER", r.identityHint(), "the hint known before is kept");
        assertEquals(de, codec.entity(codec.entity(de)), "the projection's stored form keeps the shadow");
    }
}
