package dev.idiom.events;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * A record that joins a DE from another library keeps as its own what it holds otherwise than the
 * DE, with the DE's value at the join; a field stops being its own once the DE's value changes and a
 * push wrote it. The fold decides it, so a rebuild gives the same; only the stored form carries it.
 */
class ReplicaOwnFieldsTest {
    private static final Instant T = Instant.parse("2026-11-26T12:00:00Z");
    private final EventCodec codec = new EventCodec();

    private static Metadata record(String type, String pages, String... tags) {
        return Metadata.EMPTY.with(Field.TYPE, type).with(Field.TITLE, "Marketing in theory").with(Field.YEAR, 2002).with(Field.PAGES, pages)
                .with(Field.TAGS, new TreeSet<>(List.of(tags)));
    }

    @Test
    void aJoiningCopyKeepsWhatItHoldsOtherwiseUntilTheDeChangesIt() {
        Metadata thesis = record("thesis", "1--200", "marketing");
        Metadata manual = record("report", null);
        DigitalEntity de = DigitalEntity.empty(UUID.randomUUID())
                .apply(new RecordImported(thesis, "bibtex", "thesis.bib", "raey", "v1", null, null, false), T)
                .apply(new RecordImported(manual, "bibtex", "manual.bib", "raey2", "v1", null, null, false), T);
        assertNull(de.replica("bibtex", "thesis.bib", "raey").orElseThrow().ownFields(), "the first record is the DE");
        Metadata own = de.replica("bibtex", "manual.bib", "raey2").orElseThrow().ownFields();
        assertEquals("thesis", own.type());
        assertEquals("1--200", own.pages());
        assertEquals(Set.of("marketing"), own.tags());
        assertNull(own.title(), "a field both hold alike is not one");

        // the stored form carries it and reads it back; the answer to a client does not show it
        assertEquals(de, codec.entity(codec.entity(de)));
        assertFalse(codec.view(de).contains("ownFields"));

        // the DE's pages change and a push writes them: the pages are no longer the copy's own, the type still is
        DigitalEntity changed = de.apply(new FieldChanged(Field.PAGES, "1--210"), T);
        DigitalEntity pushed = changed.apply(new ReplicaPushed("bibtex", "manual.bib", "raey2", "v2", manual.with(Field.PAGES, "1--210"), null, null,
                changed.version(), false), T);
        Metadata after = pushed.replica("bibtex", "manual.bib", "raey2").orElseThrow().ownFields();
        assertNull(after.pages());
        assertEquals("thesis", after.type());
    }
}
