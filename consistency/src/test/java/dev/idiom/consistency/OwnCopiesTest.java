package dev.idiom.consistency;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idiom.consistency.report.ImportOutcome;
import dev.idiom.consistency.report.ImportSummary;
import dev.idiom.consistency.report.Progress;
import dev.idiom.consistency.report.PushOutcome;
import dev.idiom.events.Author;
import dev.idiom.events.DigitalEntity;
import dev.idiom.events.Field;
import dev.idiom.events.Metadata;
import dev.idiom.events.Outbox;
import dev.idiom.wrappers.RemoteRecord;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** A copy Idiom made and had not linked yet (its answer lost, or a crash between the write and its record) is known as Idiom's when read back. */
final class OwnCopiesTest {
    private EngineFixture f;

    @BeforeEach
    void start() {
        f = new EngineFixture();
    }

    @AfterEach
    void stop() {
        f.close();
    }

    @Test
    void aZoteroItemIdiomMadeWhoseAnswerWasLostIsLinkedToItsDeNotImportedNorMergedAndNotMadeAgain() {
        UUID id = f.entered(Metadata.EMPTY.with(Field.TYPE, "paper-conference").with(Field.TITLE, "Epidemic algorithms for replicated database maintenance")
                .with(Field.AUTHORS, List.of(new Author("Demers", "Alan"))).with(Field.YEAR, 1987).with(Field.VENUE, "PODC"));
        DigitalEntity before = f.load(id);
        // given: the copy owed to Zotero was made there, as Idiom makes it (under the DE's origin), and its answer never came back
        f.outbox.owe(List.of(new Outbox.Owed(id, "zotero", f.tools.zot.account(), Outbox.NEW_COPY, before.version())));
        RemoteRecord made = f.tools.zot.create(ReplicaContent.wanted(before, f.tools.zot, null), false, id);
        int writes = f.zotero.writeRequests();

        // when: Zotero is pulled before the push is tried again
        ImportSummary pulled = f.engine.importAccount(f.tools.zot, false, Progress.SILENT);

        // then: the item is the DE's copy, linked as Zotero holds it; nothing of its reading enters the DE
        assertEquals(0, pulled.count(ImportOutcome.Kind.CREATED), "not a new record");
        assertEquals(0, pulled.count(ImportOutcome.Kind.MERGED), "not merged in as another library's record of the work");
        DigitalEntity after = f.load(id);
        assertEquals(made.remoteId(), f.replica(id, "zotero").remoteId());
        assertEquals(before.metadata(), after.metadata(), "the DE is as it was: the copy's reading fills nothing");
        // and the copy owed is settled without a second item
        Map<PushOutcome, Integer> pushed = f.engine.pushes().drain(10);
        assertEquals(1, f.zotero.size(), "one item in Zotero");
        assertEquals(writes, f.zotero.writeRequests(), "nothing written to Zotero again: " + pushed);
        assertTrue(f.outbox.list(null, null, 10).isEmpty(), "nothing owed");
    }

    @Test
    void aCopyThatTwoDesHoldIsReportedByTheCheckOfItsAccount() {
        UUID one = f.uploaded(Metadata.EMPTY.with(Field.TYPE, "report").with(Field.TITLE, "Epidemic algorithms").with(Field.YEAR, 1987), "file");
        UUID two = f.entered(Metadata.EMPTY.with(Field.TYPE, "report").with(Field.TITLE, "Bayou").with(Field.YEAR, 1995));
        assertEquals(0, f.engine.check("file").shared());
        dev.idiom.events.Replica copy = f.replica(one, "bibtex");
        f.store.append(two, f.load(two).version(), List.of(new dev.idiom.events.NewEvent(UUID.randomUUID(), "test", new dev.idiom.events.ReplicaLinked(
                copy.tool(), copy.account(), copy.remoteId(), copy.remoteVersion(), copy.synced(), copy.shadow(), null, false))));

        assertEquals(1, f.engine.check("file").shared(), "one entry, two DEs: the check says so");
    }

    @Test
    void aZoteroItemOfTheSameWorkThatIdiomDidNotMakeIsStillMergedAsAnotherLibrarysRecord() {
        UUID id = f.entered(Metadata.EMPTY.with(Field.TYPE, "paper-conference").with(Field.TITLE, "Epidemic algorithms for replicated database maintenance")
                .with(Field.AUTHORS, List.of(new Author("Demers", "Alan"))).with(Field.YEAR, 1987));
        f.tools.zot.create(ReplicaContent.wanted(f.load(id), f.tools.zot, null).with(Field.VENUE, "PODC"), false, null); // the curator's own item

        ImportSummary pulled = f.engine.importAccount(f.tools.zot, false, Progress.SILENT);

        assertEquals(1, pulled.count(ImportOutcome.Kind.MERGED));
        assertEquals("PODC", f.load(id).metadata().get(Field.VENUE), "a record the curator made brings what it has");
    }
}
