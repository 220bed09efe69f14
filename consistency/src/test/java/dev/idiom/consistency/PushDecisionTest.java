package dev.idiom.consistency;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.idiom.consistency.report.PushOutcome;
import dev.idiom.events.Author;
import dev.idiom.events.Changes;
import dev.idiom.events.DigitalEntity;
import dev.idiom.events.EntityDeleted;
import dev.idiom.events.EntityEvent;
import dev.idiom.events.EntityRestored;
import dev.idiom.events.Field;
import dev.idiom.events.Metadata;
import dev.idiom.events.Outbox;
import dev.idiom.events.PrivacyMarked;
import dev.idiom.events.RecordImported;
import dev.idiom.events.RecordedEvent;
import dev.idiom.events.Replica;
import dev.idiom.events.ReplicaLinked;
import dev.idiom.events.ReplicaUnlinked;
import dev.idiom.wrappers.AnnotationTool;
import dev.idiom.wrappers.bibtex.BibTeXFile;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The push decision on its own, in the aggregate-fixture style: given a DE's events, an account's
 * rule and what its history there says, when a row is decided, expect a step. No store, no tool
 * call (the file adapter is asked only what it keeps and would hold), milliseconds.
 */
class PushDecisionTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Metadata PAPER = Metadata.EMPTY.with(Field.TYPE, "article-journal").with(Field.TITLE, "Epidemic algorithms")
            .with(Field.AUTHORS, List.of(new Author("Demers", "Alan"))).with(Field.YEAR, 1987).with(Field.TAGS, new TreeSet<>(Set.of("gossip")));

    @TempDir
    Path dir;
    private AnnotationTool file;
    private final UUID id = UUID.randomUUID();
    private final List<EntityEvent> given = new ArrayList<>();
    private MirrorRule rule = MirrorRule.NONE;
    private Facts facts = new Facts(false, List.of(), false);

    /** What the DE's history in the account says, as values. */
    record Facts(boolean deleted, List<String> removed, boolean byRule) implements PushFacts {
        @Override
        public boolean deletedThere(UUID id) {
            return deleted;
        }

        @Override
        public List<String> removedByDeletion(UUID id) {
            return removed;
        }

        @Override
        public boolean madeByRule(DigitalEntity de, Replica r) {
            return byRule;
        }
    }

    @BeforeEach
    void openFile() {
        file = new BibTeXFile(dir.resolve("library.bib"));
    }

    // --- given ---

    private void given(EntityEvent... events) {
        given.addAll(List.of(events));
    }

    private void imported() {
        given(new RecordImported(Changes.forNewRecord(PAPER), "idiom", id.toString()));
    }

    private ReplicaLinked linkedInFile(Metadata synced) {
        return new ReplicaLinked("bibtex", file.account(), "demers1987", "h1", synced);
    }

    private void rule(String mirror, String direction) throws Exception {
        rule = MirrorRule.of(mirror == null ? null : JSON.readTree(mirror), direction);
    }

    private DigitalEntity de() {
        List<RecordedEvent> events = new ArrayList<>();
        for (int i = 0; i < given.size(); i++) {
            events.add(new RecordedEvent(i + 1, UUID.randomUUID(), id, i + 1, "test", Instant.EPOCH, given.get(i)));
        }
        return DigitalEntity.fold(id, events);
    }

    // --- when ---

    private PushStep whenRowFor(String remoteId) {
        return whenRowFor(remoteId, file);
    }

    private PushStep whenRowFor(String remoteId, AnnotationTool tool) {
        DigitalEntity de = de();
        Outbox.Entry row = new Outbox.Entry(id, "bibtex", file.account(), remoteId, de.version(), Instant.EPOCH, 0, false, null);
        return PushDecision.decide(row, de, selection(), tool, facts);
    }

    private MirrorRules.Selection selection() {
        return new MirrorRules.Selection(new ToolDirectory.Account("file", "bibtex", file.account(), rule), Set.of());
    }

    // --- then ---

    private static void expectSettled(PushStep step, PushOutcome outcome) {
        PushStep.Settle s = assertInstanceOf(PushStep.Settle.class, step, "settled as " + outcome);
        assertEquals(outcome, s.outcome());
    }

    @Test
    void aChangeTheCopyDoesNotHoldIsWrittenWithWhatItShouldHold() {
        imported();
        given(linkedInFile(PAPER));
        given(Changes.toSet(PAPER, java.util.Map.of(Field.VOLUME, "9")).toArray(EntityEvent[]::new));
        PushStep.Write w = assertInstanceOf(PushStep.Write.class, whenRowFor("demers1987"));
        assertEquals("9", w.wanted().get(Field.VOLUME));
        assertEquals("demers1987", w.replica().remoteId());
        assertTrue(w.takesRemoteChanges(), "a two-way account merges a change met there");
    }

    @Test
    void aCopyHoldingWhatItShouldIsSettledAtTheDesVersionWithoutACall() {
        imported();
        given(linkedInFile(PAPER));
        PushStep.Settle s = assertInstanceOf(PushStep.Settle.class, whenRowFor("demers1987"));
        assertEquals(PushOutcome.ALREADY_IN_SYNC, s.outcome());
        assertEquals(2, s.version(), "acknowledged up to the DE's version: a later change keeps its row");
    }

    @Test
    void aReceiveOnlyAccountIsNeverWritten() throws Exception {
        imported();
        given(linkedInFile(PAPER.with(Field.VOLUME, "1")));
        rule(null, "receive-only");
        expectSettled(whenRowFor("demers1987"), PushOutcome.NOT_SENT);
    }

    @Test
    void anAccountNoLongerConfiguredParksTheRowWithWhy() {
        imported();
        given(linkedInFile(PAPER.with(Field.VOLUME, "1")));
        PushStep.Park p = assertInstanceOf(PushStep.Park.class, whenRowFor("demers1987", null));
        assertTrue(p.reason().contains("no tool account of kind bibtex"), p.reason());
    }

    @Test
    void aDeInTheTrashIsRemovedWhereDeletionsPropagateAndKeptWhereNot() throws Exception {
        imported();
        given(linkedInFile(PAPER), new EntityDeleted("a duplicate"));
        expectSettled(whenRowFor("demers1987"), PushOutcome.ALREADY_IN_SYNC); // deletions kept: the copy stays as it is
        rule = rule.withDeletions("propagate");
        PushStep.Remove r = assertInstanceOf(PushStep.Remove.class, whenRowFor("demers1987"));
        assertTrue(r.deletion() && r.why().contains("deleted in Idiom"), r.why());
    }

    @Test
    void aRuleNoLongerSelectingTheDeRemovesTheCopyItMadeButNotTheAccountsOwnRecord() throws Exception {
        imported();
        given(linkedInFile(PAPER));
        rule("{\"tags\": [\"ml\"]}", null);
        expectSettled(whenRowFor("demers1987"), PushOutcome.ALREADY_IN_SYNC); // the account's own record stays
        facts = new Facts(false, List.of(), true);
        PushStep.Remove r = assertInstanceOf(PushStep.Remove.class, whenRowFor("demers1987"));
        assertTrue(!r.deletion() && r.why().contains("no longer selects"), r.why());
    }

    @Test
    void aCopyTheRuleAsksForIsMadeUnlessACuratorDeletedItThere() throws Exception {
        imported();
        rule("\"all\"", null);
        PushStep.Copy c = assertInstanceOf(PushStep.Copy.class, whenRowFor(Outbox.NEW_COPY));
        assertEquals("Epidemic algorithms", c.wanted().title());
        assertEquals(EventSources.mirror("bibtex"), c.source());
        facts = new Facts(true, List.of(), false);
        expectSettled(whenRowFor(Outbox.NEW_COPY), PushOutcome.NOT_SENT);
    }

    @Test
    void aCopyIsNotMadeTwiceNorWhereThePrivateDeCannotStayPrivate() throws Exception {
        imported();
        rule("\"all\"", null);
        given(linkedInFile(PAPER));
        expectSettled(whenRowFor(Outbox.NEW_COPY), PushOutcome.ALREADY_IN_SYNC);
        given.removeLast();
        given(new PrivacyMarked(true));
        expectSettled(whenRowFor(Outbox.NEW_COPY), PushOutcome.NOT_SENT); // a .bib file keeps no privacy
    }

    @Test
    void aCopyTheDeletionRemovedIsOwedBackWhenTheDeIsRestored() throws Exception {
        imported();
        rule = MirrorRule.NONE.withDeletions("propagate");
        given(linkedInFile(PAPER), new EntityDeleted("by mistake"),
                new ReplicaUnlinked("bibtex", file.account(), "demers1987", PAPER, "removed: deleted in Idiom"), new EntityRestored());
        expectSettled(whenRowFor("demers1987"), PushOutcome.GONE); // not removed by the deletion: a curator's, gone
        facts = new Facts(false, List.of("demers1987"), false);
        assertEquals(new PushStep.Restore("demers1987"), whenRowFor("demers1987"));
    }

    @Test
    void anUploadIsRefusedWhereTheDeHasACopyOrIsInTheTrash() {
        imported();
        assertInstanceOf(PushStep.Copy.class, PushDecision.upload(de(), selection(), file));
        given(linkedInFile(PAPER));
        PushStep.Refuse held = assertInstanceOf(PushStep.Refuse.class, PushDecision.upload(de(), selection(), file));
        assertTrue(held.reason().contains("already has a replica"), held.reason());
        given(new EntityDeleted("gone"));
        PushStep.Refuse trashed = assertInstanceOf(PushStep.Refuse.class, PushDecision.upload(de(), selection(), file));
        assertTrue(trashed.reason().contains("restore it first"), trashed.reason());
    }
}
