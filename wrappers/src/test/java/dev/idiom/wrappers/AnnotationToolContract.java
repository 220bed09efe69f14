package dev.idiom.wrappers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idiom.events.Author;
import dev.idiom.events.Field;
import dev.idiom.events.Metadata;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * What every annotation-tool adapter does, against its stub, its real file format, or a real
 * second Idiom (STYLE.md §3: one contract test every wrapper passes).
 */
public abstract class AnnotationToolContract {

    /** The adapter under test, on an empty tool. */
    protected abstract AnnotationTool tool();

    /** The fields this tool keeps; a round trip must keep each of them. */
    protected abstract Set<Field> fieldsKept();

    /** False for tools that keep everything (another Idiom): delete must then refuse clearly. */
    protected boolean deletes() {
        return true;
    }

    /** True if a deleted record goes to the tool's trash (Zotero): it is then listed as deleted, and can still be fetched from there. */
    protected boolean trashes() {
        return false;
    }

    /** True if changedSince lists only what changed after the cursor (files list everything). */
    protected boolean preciseChanges() {
        return true;
    }

    /**
     * A record with every canonical field a journal article has set (all but the report and series
     * numbers, which CSL gives other types), of a type this tool holds.
     */
    protected Metadata sample(int i) {
        return Metadata.EMPTY.with(Field.TYPE, "article-journal").with(Field.TITLE, "Optimistic replication, part " + i)
                .with(Field.AUTHORS, List.of(new Author("Saito", "Yasushi"), new Author("Shapiro", "Marc")))
                .with(Field.YEAR, 2005).with(Field.VENUE, "ACM Computing Surveys").with(Field.VOLUME, "37").with(Field.PAGES, "42--81")
                .with(Field.DOI, "10.1145/1057977.10579" + (80 + i)).with(Field.URL, "https://example.org/replication/" + i)
                .with(Field.ABSTRACT, "Data replication is a key technology in distributed systems.")
                .with(Field.TAGS, new TreeSet<>(Set.of("replication", "survey"))).with(Field.NOTES, "read twice")
                .with(Field.EDITORS, List.of(new Author("Ozsu", "M. Tamer"))).with(Field.TRANSLATORS, List.of(new Author("Kermarrec", "Anne-Marie")))
                .with(Field.MONTH, 3).with(Field.DAY, 17).with(Field.COLLECTION_TITLE, "Surveys in Computing").with(Field.PUBLISHER, "ACM")
                .with(Field.PUBLISHER_PLACE, "New York").with(Field.ISSUE, "1").with(Field.EDITION, "2").with(Field.ISSN, "0360-0300")
                .with(Field.ISBN, "978-0-00-000000-" + i).with(Field.PMID, "1234567" + i).with(Field.PMCID, "PMC765432" + i)
                .with(Field.ARXIV, "cs/050100" + i).with(Field.LANGUAGE, "en").with(Field.EVENT, "PODC 2005").with(Field.GENRE, "survey")
                .with(Field.ACCESSED, "2024-03-01").with(Field.CITATION_KEY, "saito2005part" + i);
    }

    protected void assertKept(Metadata expected, Metadata actual) {
        for (Field f : fieldsKept()) {
            assertEquals(expected.get(f), actual.get(f), "field " + f.jsonName());
        }
    }

    private static List<RemoteRecord> all(AnnotationTool tool, String cursor, String[] next) {
        List<RemoteRecord> out = new ArrayList<>();
        ChangePage page;
        do {
            page = tool.changedSince(cursor);
            out.addAll(page.records());
            cursor = page.cursor();
        } while (page.more());
        next[0] = cursor;
        return out;
    }

    @Test
    void aCreatedRecordIsFetchedBackWithEveryFieldTheToolKeeps() {
        AnnotationTool tool = tool();
        Metadata m = sample(1);
        RemoteRecord created = tool.create(m);
        assertNotEquals(null, created.remoteId());
        RemoteRecord fetched = tool.fetch(created.remoteId()).orElseThrow();
        assertKept(m, fetched.metadata());
        assertEquals(created.version(), fetched.version());
    }

    @Test
    void changesSinceACursorIncludeWhatChangedAfterIt() {
        AnnotationTool tool = tool();
        RemoteRecord a = tool.create(sample(1));
        String[] cursor = new String[1];
        List<RemoteRecord> first = all(tool, null, cursor);
        assertTrue(first.stream().anyMatch(r -> r.remoteId().equals(a.remoteId())));

        RemoteRecord b = tool.create(sample(2));
        String[] cursor2 = new String[1];
        List<RemoteRecord> second = all(tool, cursor[0], cursor2);
        assertTrue(second.stream().anyMatch(r -> r.remoteId().equals(b.remoteId())), "the new record is listed");
        if (preciseChanges()) {
            assertFalse(second.stream().anyMatch(r -> r.remoteId().equals(a.remoteId())), "the unchanged one is not");
        }
        assertTrue(tool.changedSince(cursor2[0]).records().isEmpty(), "nothing changed since the last cursor");
    }

    @Test
    void anUpdateWithTheKnownVersionIsAppliedAndAStaleVersionIsRefused() {
        AnnotationTool tool = tool();
        RemoteRecord r = tool.create(sample(1));
        Metadata changed = sample(1).with(Field.TITLE, "Optimistic replication, revised").with(Field.TAGS, new TreeSet<>(Set.of("cfdar")));
        RemoteRecord updated = tool.update(r, changed);
        assertNotEquals(r.version(), updated.version());
        assertKept(changed, updated.metadata());
        assertKept(changed, tool.fetch(updated.remoteId()).orElseThrow().metadata());

        RemoteRecord stale = new RemoteRecord(updated.remoteId(), r.version(), r.metadata(), r.identityHint(), r.shadow());
        assertThrows(RemoteChangedException.class, () -> tool.update(stale, sample(1).with(Field.TITLE, "written over a stale copy")));
        assertKept(changed, tool.fetch(updated.remoteId()).orElseThrow().metadata());
    }

    @Test
    void anUpdateChangesOnlyWhatChangedAndTheNextOneStartsFromItsAnswer() {
        AnnotationTool tool = tool();
        RemoteRecord r = tool.create(sample(1));
        RemoteRecord first = tool.update(r, r.metadata().with(Field.NOTES, "first note"));
        RemoteRecord second = tool.update(first, first.metadata().withTag("second"));
        Metadata now = tool.fetch(second.remoteId()).orElseThrow().metadata();
        assertKept(r.metadata().with(Field.NOTES, "first note").withTag("second"), now);
    }

    @Test
    void aDeletedRecordIsGone() {
        AnnotationTool tool = tool();
        RemoteRecord r = tool.create(sample(1));
        if (!deletes()) {
            assertThrows(ToolException.class, () -> tool.delete(r.remoteId(), r.version()));
            assertTrue(tool.fetch(r.remoteId()).isPresent());
            return;
        }
        String[] cursor = new String[1];
        all(tool, null, cursor);
        tool.delete(r.remoteId(), r.version());
        if (trashes()) {
            assertTrue(tool.changedSince(cursor[0]).deleted().contains(r.remoteId()), "listed as deleted");
        } else {
            assertTrue(tool.fetch(r.remoteId()).isEmpty());
        }
    }

    @Test
    protected void anIdHoldingUriCharactersStaysOneIdThatNoRecordHas() {
        // a remote id comes from outside (a tool, a client's import request): '?', '/', '..' or
        // non-ASCII in it must not turn into another path or a query
        assertTrue(tool().fetch("no such?id=1/../x ă\\").isEmpty());
    }
}
