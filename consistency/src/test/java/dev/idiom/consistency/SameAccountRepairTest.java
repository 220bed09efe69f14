package dev.idiom.consistency;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.idiom.events.Author;
import dev.idiom.events.Field;
import dev.idiom.events.Metadata;
import dev.idiom.events.NewEvent;
import dev.idiom.events.RecordImported;
import dev.idiom.events.Replica;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A store from before matching kept a library's records apart holds DEs with two entries of one
 * file; the repair splits the second back into a DE of its own, made from that entry's record, and
 * gives the first DE back the values it had taken from the second.
 */
class SameAccountRepairTest {
    private final EngineFixture f = new EngineFixture();

    @AfterEach
    void close() {
        f.close();
    }

    private static Metadata article(String title, String family) {
        return Metadata.EMPTY.with(Field.TYPE, "article-journal").with(Field.TITLE, title).with(Field.AUTHORS, List.of(new Author(family, "A.")))
                .with(Field.YEAR, 2004).with(Field.DOI, "10.1145/example.1004");
    }

    @Test
    void aDeHoldingTwoEntriesOfOneFileIsSplitBackAndKeepsOnlyItsFirstEntrysValues() {
        String account = f.tools.file.account();
        UUID id = UUID.randomUUID();
        Metadata first = article("Replicated logs for shared annotations", "Lindqvist");
        Metadata second = article("Erratum: Replicated logs", "Okafor").with(Field.NOTES, "an erratum").with(Field.PAGES, "131")
                .with(Field.TAGS, new java.util.TreeSet<>(List.of("erratum")));
        f.store.append(id, 0, List.of(new NewEvent(UUID.randomUUID(), "test", new RecordImported(first, "bibtex", account, "Lindqvist2004", "v1", null, null, false))));
        f.store.append(id, 1, List.of(new NewEvent(UUID.randomUUID(), "test", new RecordImported(second, "bibtex", account, "Okafor2004", "v1", null, null, false))));
        assertEquals("an erratum", f.load(id).metadata().notes(), "the join filled the first DE's gaps from the second entry");

        List<DeLifecycle.SplitCopy> planned = f.engine.lifecycle().splitSameAccount(true, "test");
        assertEquals(1, planned.size());
        assertEquals("Okafor2004", planned.getFirst().remoteId());
        assertEquals(2, f.replicas(id, "bibtex").size(), "a dry run changes nothing");

        List<DeLifecycle.SplitCopy> split = f.engine.lifecycle().splitSameAccount(false, "test");
        assertEquals(1, split.size());
        assertEquals(List.of("Lindqvist2004"), f.replicas(id, "bibtex").stream().map(Replica::remoteId).toList());
        Metadata kept = f.load(id).metadata();
        assertNull(kept.notes(), "the note the second entry brought is gone from the first DE");
        assertNull(kept.pages());
        assertEquals(java.util.Set.of(), kept.tags());
        assertEquals(first.title(), kept.title());
        Metadata other = f.load(split.getFirst().newEntity()).metadata();
        assertEquals("Erratum: Replicated logs", other.title());
        assertEquals("an erratum", other.notes());
        assertEquals(List.of("Okafor2004"), f.replicas(split.getFirst().newEntity(), "bibtex").stream().map(Replica::remoteId).toList());
        assertEquals(List.of(), f.engine.lifecycle().splitSameAccount(true, "test"), "a second run finds nothing");
    }
}
