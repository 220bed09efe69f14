package dev.idiom.events;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The projection's stored form and the answers' view are written by streaming; their bytes are
 * pinned to what the earlier tree-built codec wrote (entities-stored-and-view.jsonl was made by it),
 * since a rebuild compares stored projections byte for byte.
 */
class EventCodecTest {
    private final EventCodec codec = new EventCodec();

    private static List<DigitalEntity> samples() {
        Metadata full = Metadata.EMPTY.with(Field.TITLE, "Optimistic \"replication\" \u00e9\n\ttab").with(Field.TYPE, "article-journal").with(Field.YEAR, 2005)
                .with(Field.AUTHORS, List.of(new Author("Saito", "Yasushi"), new Author("Shapiro", ""))).with(Field.TAGS, new TreeSet<>(Set.of("b,c", "a_b")))
                .with(Field.EDITORS, List.of(new Author("Ed", "A"))).with(Field.MONTH, 3).with(Field.DAY, 9).with(Field.ACCESSED, "2020-01-02")
                .with(Field.CITATION_KEY, "k1");
        Metadata bare = Metadata.EMPTY.with(Field.TITLE, "t");
        Instant t1 = Instant.parse("2026-01-02T03:04:05.123456Z");
        Instant t2 = Instant.parse("2026-01-02T03:04:06Z");
        List<Replica> replicas = List.of(new Replica("bibtex", "lib.bib", "saito2005", "abc123", full, "hint", "@article{x}", true),
                new Replica("zotero", null, "ABCD1234", null, null, null, null, false), new Replica("pinboard", "u", "http://x", null, bare));
        UUID id = UUID.fromString("11111111-2222-3333-4444-555555555555");
        UUID other = UUID.fromString("99999999-2222-3333-4444-555555555555");
        List<DigitalEntity.CopyId> detached = List.of(new DigitalEntity.CopyId("bibtex", "a", "k"), new DigitalEntity.CopyId("zotero", null, "Z"));
        return List.of(
                new DigitalEntity(id, 7, full, replicas, t1, t2),
                new DigitalEntity(id, 1, bare, List.of(), t1, t1),
                new DigitalEntity(id, 2, full, replicas, t1, t2, true),
                new DigitalEntity(id, 3, full, replicas, t1, t2, true, new Lifecycle(Lifecycle.State.TRASHED, t2, null)),
                new DigitalEntity(id, 4, bare, replicas, t1, t2, false, new Lifecycle(Lifecycle.State.MERGED, t2, other), detached),
                new DigitalEntity(id, 5, bare, replicas, t1, t2, true, Lifecycle.LIVE, detached.subList(0, 1)),
                new DigitalEntity(id, 6, Metadata.EMPTY, List.of(), t1, t2));
    }

    @Test
    void storedFormsAndViewsKeepTheBytesTheTreeBuiltCodecWroteAndReadBackAsTheSameEntity() throws IOException {
        List<String> golden = new ArrayList<>();
        try (InputStream in = getClass().getResourceAsStream("/codec/entities-stored-and-view.jsonl")) {
            new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().forEach(golden::add);
        }
        List<DigitalEntity> samples = samples();
        assertEquals(2 * samples.size(), golden.size());
        for (int i = 0; i < samples.size(); i++) {
            DigitalEntity de = samples.get(i);
            String stored = codec.entity(de);
            assertEquals(golden.get(2 * i), stored, "stored form of sample " + i);
            assertEquals(golden.get(2 * i + 1), codec.view(de), "view of sample " + i);
            assertEquals(de, codec.entity(stored), "sample " + i + " read back");
        }
    }

    @Test
    void replicaEventPayloadsKeepTheBytesTheTreeBuiltCodecWroteAndReadBackAsTheSameEvents() throws IOException {
        Metadata m = Metadata.EMPTY.with(Field.TITLE, "T \"q\"").with(Field.YEAR, 2001).with(Field.AUTHORS, List.of(new Author("A", "B")));
        List<EntityEvent> events = List.of(
                new ReplicaLinked("zotero", "u1", "K1", "17", m, "shadow", "OLD", true),
                new ReplicaLinked("bibtex", null, "k", null, null, null, null, false),
                new ReplicaPushed("pinboard", "u", "http://x", "v2", m, null, "R", 5, false),
                new ReplicaPushed("zotero", "u1", "K1", null, null, "s", null, 3, true),
                new ReplicaUnlinked("zotero", "u1", "K1", m, "deleted remotely", true),
                new ReplicaUnlinked("bibtex", null, "k", null, "gone", false));
        List<String> golden;
        try (InputStream in = getClass().getResourceAsStream("/codec/replica-event-payloads.jsonl")) {
            golden = new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList();
        }
        assertEquals(events.size(), golden.size());
        for (int i = 0; i < events.size(); i++) {
            EntityEvent e = events.get(i);
            assertEquals(golden.get(i), codec.payload(e), "payload of event " + i);
            assertEquals(e, codec.event(e.getClass().getSimpleName(), golden.get(i)), "event " + i + " read back");
        }
    }

    @Test
    void aRereadKeepsTheCopysNewReadingAndItsOwnFieldsThroughTheStoredForm() {
        Metadata m = Metadata.EMPTY.with(Field.TYPE, "motion_picture").with(Field.TITLE, "I, Daniel Blake");
        Metadata own = Metadata.EMPTY.with(Field.TYPE, "document");
        for (ReplicaReread e : List.of(new ReplicaReread("bibtex", null, "loach16", "f1", m, own, null, false),
                new ReplicaReread("zotero", "u1", "K1", "17", m, null, "{}", true))) {
            String payload = codec.payload(e);
            assertEquals(e, codec.event("ReplicaReread", payload), payload);
        }
        // and the DE it is applied to keeps its content, the copy the new reading with its own fields
        DigitalEntity de = DigitalEntity.empty(java.util.UUID.randomUUID())
                .apply(new RecordImported(m.with(Field.TYPE, "document"), "bibtex", null, "loach16", "f1", null, null, false), java.time.Instant.EPOCH)
                .apply(new ReplicaReread("bibtex", null, "loach16", "f1", m, own, null, false), java.time.Instant.EPOCH);
        assertEquals("document", de.metadata().type());
        assertEquals("motion_picture", de.replicas().getFirst().synced().type());
        assertEquals(own, codec.entity(codec.entity(de)).replicas().getFirst().ownFields());
    }

    @Test
    void storedMetadataReadsAsJacksonWouldWithUnknownPropertiesIgnoredAndScalarsCoerced() {
        String stored = """
                {"id":"11111111-2222-3333-4444-555555555555","version":2,"createdAt":"2026-01-02T03:04:05Z","updatedAt":"2026-01-02T03:04:05Z",\
                "metadata":{"title":"T","year":"2005","volume":37,"authors":[{"family":"F","given":null,"orcid":{"x":1}}],"future":{"a":[1]},"tags":["z","a"]},\
                "replicas":[{"tool":"zotero","remoteId":"R","synced":null,"later":[1,2]}],"later":true}""";
        DigitalEntity de = codec.entity(stored);
        assertEquals(2005, de.metadata().year());
        assertEquals("37", de.metadata().volume());
        assertEquals(List.of(new Author("F", "")), de.metadata().authors());
        assertEquals(List.of("a", "z"), List.copyOf(de.metadata().tags()));
        assertEquals(new Replica("zotero", null, "R", null, null), de.replicas().getFirst());
        InvalidValueException refused = assertThrows(InvalidValueException.class,
                () -> codec.metadata(codec.mapper().createObjectNode().set("authors", codec.mapper().createArrayNode().add(codec.mapper().createObjectNode().put("given", "G")))));
        assertTrue(refused.getMessage().startsWith("malformed metadata"), refused.getMessage());
    }

    @Test
    void eachToolKindsExtrasAreWrittenAsNameValuePairsOnlyWhenThereAreSomeAndReadBackInEitherForm() {
        Metadata m = Metadata.EMPTY.with(Field.TITLE, "T")
                .with(Field.ZOTERO_EXTRAS, Field.extras(java.util.Map.of("shortTitle", "Short", "callNumber", "QA 76")))
                .with(Field.BIBTEX_EXTRAS, Field.extras(java.util.Map.of("@type", "conference", "addendum", "Reprinted in {CACM}")));
        DigitalEntity de = new DigitalEntity(UUID.randomUUID(), 1, m, List.of(), Instant.EPOCH, Instant.EPOCH);
        String stored = codec.entity(de);
        assertTrue(stored.contains("\"zoteroExtras\":[{\"name\":\"callNumber\",\"value\":\"QA 76\"},{\"name\":\"shortTitle\",\"value\":\"Short\"}]"), stored);
        assertEquals(de, codec.entity(stored));
        assertEquals(m, codec.metadata(codec.mapper().createObjectNode().put("title", "T")
                .<com.fasterxml.jackson.databind.node.ObjectNode>set("zoteroExtras", codec.mapper().createObjectNode().put("shortTitle", "Short").put("callNumber", "QA 76"))
                .set("bibtexExtras", Field.BIBTEX_EXTRAS.toJson(m.bibtexExtras()))), "an object of names and values reads the same");
        FieldChanged cleared = new FieldChanged(Field.ZOTERO_EXTRAS, null);
        assertEquals(cleared, codec.event("FieldChanged", codec.payload(cleared)));
        FieldChanged set = new FieldChanged(Field.BIBTEX_EXTRAS, m.bibtexExtras());
        assertEquals(set, codec.event("FieldChanged", codec.payload(set)));
        assertEquals(null, Field.extras(java.util.Map.of("shortTitle", " ")), "an empty part is absent");
        assertThrows(InvalidValueException.class, () -> Field.extras(java.util.Map.of("short title", "x")), "a name a tool cannot hold");
        assertTrue(!codec.entity(new DigitalEntity(de.id(), 1, Metadata.EMPTY.with(Field.TITLE, "T"), List.of(), Instant.EPOCH, Instant.EPOCH))
                .contains("Extras"), "a record without extras is stored as before");
    }
}
