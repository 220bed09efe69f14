package dev.idiom.consistency;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.idiom.consistency.report.Progress;
import dev.idiom.consistency.report.PushOutcome;
import dev.idiom.consistency.report.SyncRefusedException;
import dev.idiom.consistency.report.SyncReport;
import dev.idiom.events.Author;
import dev.idiom.events.Field;
import dev.idiom.events.Metadata;
import dev.idiom.events.Replica;
import dev.idiom.wrappers.RemoteRecord;
import dev.idiom.wrappers.zotero.ZoteroStub;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Replication rules on the real store and outbox, the Zotero stub and a real BibTeX file: accounts hold what their rules select. */
final class MirrorTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private EngineFixture f;

    @BeforeEach
    void start() {
        f = new EngineFixture();
    }

    @AfterEach
    void stop() {
        f.close();
    }

    private static Metadata paper(String title, String... tags) {
        return Metadata.EMPTY.with(Field.TYPE, "article-journal").with(Field.TITLE, title).with(Field.AUTHORS, List.of(new Author("Demers", "Alan")))
                .with(Field.YEAR, 1987).with(Field.VENUE, "PODC").with(Field.TAGS, new TreeSet<>(Set.of(tags)));
    }

    private static MirrorRule rule(String mirror, String direction) {
        try {
            return MirrorRule.of(mirror == null ? null : JSON.readTree(mirror), direction);
        } catch (java.io.IOException e) {
            throw new IllegalArgumentException(e);
        }
    }

    private static String zoteroItem(String title) {
        return "{\"itemType\":\"journalArticle\",\"title\":\"" + title + "\",\"creators\":[{\"creatorType\":\"author\",\"firstName\":\"Alan\","
                + "\"lastName\":\"Demers\"}],\"date\":\"1987\",\"tags\":[],\"collections\":[],\"relations\":{}}";
    }

    private int recordsInFile() {
        return f.tools.file.changedSince(null).records().size();
    }

    @Test
    void anAccountMirroringAllReceivesEveryDeAnotherAccountBringsInIncludingLaterOnes() throws Exception {
        // given a Zotero library of two items and a BibTeX file whose rule is "all"
        f.zotero.addRemotely(zoteroItem("Epidemic algorithms"));
        f.zotero.addRemotely(zoteroItem("Bayou"));
        f.tools.rules.put("file", rule("\"all\"", null));
        // when a curator syncs the Zotero account
        SyncReport first = f.engine.sync().sync("zot", false, Progress.SILENT);
        // then the file holds both, each a replica of its DE
        assertEquals(2, first.pushedByOutcome().get("copied"), first.pushedByOutcome().toString());
        assertEquals(2, recordsInFile());
        // when an item is added in Zotero later, it follows
        f.zotero.addRemotely(zoteroItem("Coda"));
        f.engine.sync().sync("zot", false, Progress.SILENT);
        assertEquals(3, recordsInFile());
        // and a sync with nothing new writes nothing
        String bytes = Files.readString(f.bibFile);
        SyncReport idle = f.engine.sync().sync("zot", false, Progress.SILENT);
        assertEquals(0, idle.pushedCount(), idle.pushedByOutcome().toString());
        assertEquals(bytes, Files.readString(f.bibFile));
    }

    @Test
    void aDeThatLeavesTheFilterLeavesTheAccountToItsTrashWhileTheAccountsOwnRecordsStay() {
        // given a Zotero account mirroring the DEs tagged "ml", an item of its own, and two DEs entered in Idiom
        f.tools.rules.put("zot", rule("{\"tags\": [\"ML\"]}", null));
        String own = f.zotero.addRemotely(zoteroItem("A record of the library's own"));
        UUID ml = f.entered(paper("Learning to rank", "ml"));
        UUID other = f.entered(paper("Epidemic algorithms", "gossip"));
        f.engine.sync().sync("zot", false, Progress.SILENT);
        // then only the selected DE got a copy (tags compared without case), and the library's own item came in
        assertEquals(1, f.replicas(ml, "zotero").size());
        assertTrue(f.replicas(other, "zotero").isEmpty());
        String copy = f.replica(ml, "zotero").remoteId();
        assertEquals(2, f.zotero.size());
        // when the DE loses the tag, its copy goes to Zotero's trash and is unlinked; the library's own item (no tag) stays
        // (one of the account's two copies is more than its mass-delete share: held first, then allowed by the curator)
        f.editedInIdiom(ml, Field.TAGS, new TreeSet<>(Set.of("ranking")));
        f.engine.sync().sync("zot", false, Progress.SILENT);
        assertTrue(f.states.syncState("zotero", ZoteroStub.LIBRARY).held().contains("1 of the 2"));
        assertEquals(0, f.zotero.data(copy).path("deleted").asInt(0), "held, not removed");
        SyncReport r = f.engine.sync().sync("zot", true, Progress.SILENT);
        assertEquals(1, r.pushedByOutcome().get("removed"), r.pushedByOutcome().toString());
        assertEquals(1, f.zotero.data(copy).path("deleted").asInt(), "in the trash, not deleted for good");
        assertTrue(f.replicas(ml, "zotero").isEmpty());
        assertFalse(f.zotero.data(own).path("deleted").asBoolean(false));
        // and when the other DE gains the tag, it gains a copy
        f.editedInIdiom(other, Field.TAGS, new TreeSet<>(Set.of("gossip", "ml")));
        f.engine.sync().sync("zot", false, Progress.SILENT);
        assertEquals(1, f.replicas(other, "zotero").size());
        assertTrue(f.replicas(ml, "zotero").isEmpty(), "a DE the rule does not select is not copied again");
        // and when the first DE is tagged again, its copy comes back out of the trash (the same item, no second one)
        f.editedInIdiom(ml, Field.TAGS, new TreeSet<>(Set.of("ml")));
        f.engine.sync().sync("zot", false, Progress.SILENT);
        assertEquals(copy, f.replica(ml, "zotero").remoteId());
        assertFalse(f.zotero.data(copy).path("deleted").asInt(0) == 1, "out of the trash");
        assertEquals(3, f.zotero.size());
    }

    @Test
    void aReceiveOnlyAccountIsNeverWrittenAndItsRecordsStillComeIn() {
        // given a receive-only Zotero account whose rule would select everything, and a file mirroring what came from it
        f.tools.rules.put("zot", rule("\"all\"", "receive-only"));
        f.tools.rules.put("file", rule("{\"from\": [\"zot\"]}", null));
        String key = f.zotero.addRemotely(zoteroItem("Epidemic algorithms"));
        UUID entered = f.entered(paper("Entered in Idiom"));
        f.engine.sync().sync("zot", false, Progress.SILENT);
        UUID id = f.store.findReplica("zotero", f.tools.zot.account(), key).orElseThrow();
        assertEquals(1, recordsInFile(), "the item came in and reached the file; the DE entered in Idiom did not (not from zot)");
        String before = f.zotero.data(key).toString();
        // when the DE is edited in Idiom, the file gets the change and Zotero does not
        f.editedInIdiom(id, Field.VOLUME, "7");
        Map<PushOutcome, Integer> pushed = f.engine.pushes().drain(10);
        assertEquals(1, pushed.get(PushOutcome.NOT_SENT), pushed.toString());
        assertEquals(before, f.zotero.data(key).toString());
        assertTrue(f.replicas(entered, "zotero").isEmpty());
        assertEquals(1, f.zotero.size(), "nothing was created in the receive-only library");
        // and an upload by hand is refused
        assertThrows(SyncRefusedException.class, () -> f.engine.upload().upload(entered, f.tools.zot));
    }

    @Test
    void aSendOnlyAccountIsNotPulledAndIdiomsContentWinsOverAChangeMadeThere() {
        // given a DE with a copy in a send-only Zotero account, retitled in Zotero and given a volume in Idiom
        f.tools.rules.put("zot", rule(null, "send-only"));
        UUID id = f.uploaded(paper("Epidemic algorithms"), "zot");
        String key = f.replica(id, "zotero").remoteId();
        f.zotero.editRemotely(key, "Retitled in Zotero");
        f.editedInIdiom(id, Field.VOLUME, "6");
        // when a curator syncs the account
        SyncReport r = f.engine.sync().sync("zot", false, Progress.SILENT);
        // then nothing came in, and the copy holds Idiom's content again
        assertEquals(0, r.pulled().records(), r.pulled().toString());
        assertEquals("Epidemic algorithms", f.load(id).metadata().title());
        assertEquals("Epidemic algorithms", f.zotero.data(key).path("title").asText());
        assertEquals("6", f.zotero.data(key).path("volume").asText());
    }

    @Test
    void aCopyMadeAgainAfterACrashIsTheSameZoteroItem() {
        // given a Zotero account mirroring everything and a DE whose copy was made there by a node that died before recording it
        f.tools.rules.put("zot", rule("\"all\"", null));
        UUID id = f.entered(paper("Epidemic algorithms"));
        RemoteRecord made = f.tools.zot.create(ReplicaContent.wanted(f.load(id), f.tools.zot, null), false, id);
        // when the rule is carried out
        f.engine.mirrors().planAll();
        Map<PushOutcome, Integer> pushed = f.engine.pushes().drain(10);
        // then the DE's copy is that item, and the library holds one
        assertEquals(1, pushed.get(PushOutcome.COPIED), pushed.toString());
        Replica r = f.replica(id, "zotero");
        assertEquals(made.remoteId(), r.remoteId());
        assertEquals(1, f.zotero.size());
    }

    @Test
    void aPlanCutShortResumesWhereItStoppedAndANewRuleStartsAgain() {
        // given three DEs and a file mirroring everything, planned once (the rows owed), then planned again
        for (int i = 0; i < 3; i++) {
            f.entered(paper("Paper " + i));
        }
        f.tools.rules.put("file", rule("\"all\"", null));
        assertEquals(3, f.engine.mirrors().planAll().copies());
        assertEquals(0, f.engine.mirrors().planAll().copies(), "planned up to the head: nothing again");
        // when the rule changes, the whole feed is planned again under it
        f.tools.rules.put("file", rule("{\"types\": [\"article-journal\"]}", null));
        assertEquals(3, f.engine.mirrors().planAll().copies());
        Map<PushOutcome, Integer> pushed = f.engine.pushes().drain(10);
        assertEquals(3, pushed.get(PushOutcome.COPIED), "rows owed twice make one copy each: " + pushed);
        assertEquals(3, recordsInFile());
    }

    @Test
    void aFirstMirrorOfFiveThousandRecordsIntoZoteroTakesAHundredOrSoWritesAndACrashHalfwayLeavesEachItemOnce() {
        // given 5,000 DEs and a Zotero account mirroring everything
        List<UUID> ids = new java.util.ArrayList<>();
        List<dev.idiom.events.Append> batch = new java.util.ArrayList<>();
        for (int i = 0; i < 5_000; i++) {
            UUID id = UUID.randomUUID();
            ids.add(id);
            batch.add(new dev.idiom.events.Append(id, 0, List.of(new dev.idiom.events.NewEvent(UUID.randomUUID(), "test",
                    new dev.idiom.events.RecordImported(dev.idiom.events.Changes.forNewRecord(paper("Paper " + i, "t" + (i % 7))), "idiom",
                            id.toString())))));
            if (batch.size() == 500) {
                f.store.appendAll(batch);
                batch.clear();
            }
        }
        f.tools.rules.put("zot", rule("\"all\"", null));
        assertEquals(5_000, f.engine.mirrors().planAll().copies());
        // when one node makes half of the copies, then makes 50 more and dies before it records them
        for (int round = 0; round < 50; round++) {
            f.engine.pushes().round();
        }
        List<UUID> linked = ids.stream().filter(id -> !f.replicas(id, "zotero").isEmpty()).toList();
        assertEquals(2_500, linked.size(), "50 rounds of 50");
        List<dev.idiom.wrappers.AnnotationTool.NewCopy> inFlight = ids.stream().filter(id -> !linked.contains(id)).limit(50)
                .map(id -> new dev.idiom.wrappers.AnnotationTool.NewCopy(ReplicaContent.wanted(f.load(id), f.tools.zot, null), false, id)).toList();
        assertTrue(f.tools.zot.createAll(inFlight).stream().allMatch(m -> m.failure() == null));
        // and another node (a new engine on the same database) carries on
        try (ConsistencyEngine restarted = new ConsistencyEngine(f.store, f.outbox, f.tools, f.states, new dev.idiom.events.EntityIds(f.time),
                f.time, new java.util.SplittableRandom(8), ConsistencyEngine.Settings.ON_DEMAND)) {
            Map<PushOutcome, Integer> rest = restarted.pushes().drain(1_000);
            assertEquals(2_500, rest.get(PushOutcome.COPIED), rest.toString());
        }
        // then every DE has one copy, the library holds each once, and the writes were the batches (plus the one re-sent)
        assertEquals(5_000, f.zotero.size());
        java.util.Set<String> keys = new java.util.HashSet<>();
        for (UUID id : ids) {
            List<Replica> copies = f.replicas(id, "zotero");
            assertEquals(1, copies.size(), "one copy of " + id);
            keys.add(copies.getFirst().remoteId());
        }
        assertEquals(5_000, keys.size());
        assertTrue(f.zotero.writeRequests() <= 110, "write requests: " + f.zotero.writeRequests());
        assertEquals(0, f.engine.mirrors().planAll().copies(), "nothing more is owed");
    }

    @Test
    void aFirstMirrorIntoPinboardSaysHowLongItTakesAtOneWritePerThreeSeconds() {
        // given 1,200 DEs and a Pinboard account whose rule now selects them all
        List<dev.idiom.events.Append> batch = new java.util.ArrayList<>();
        for (int i = 0; i < 1_200; i++) {
            UUID id = UUID.randomUUID();
            batch.add(new dev.idiom.events.Append(id, 0, List.of(new dev.idiom.events.NewEvent(UUID.randomUUID(), "test",
                    new dev.idiom.events.RecordImported(dev.idiom.events.Changes.forNewRecord(paper("Paper " + i).with(Field.URL,
                            "https://example.org/p" + i)), "idiom", id.toString())))));
        }
        f.store.appendAll(batch);
        f.tools.rules.put("pin", rule("\"all\"", null));
        // before planning, the progress says nothing is planned yet of the whole feed
        dev.idiom.consistency.report.MirrorProgress before = f.engine.mirrors().progress("pin");
        assertEquals(0, before.planned());
        assertEquals(1_200, before.of());
        // when the rule is planned, every copy is owed and the estimate is the tool's pace times the writes: 1,200 × 3 s = one hour
        f.engine.mirrors().planAll();
        dev.idiom.consistency.report.MirrorProgress planned = f.engine.mirrors().progress("pin");
        assertEquals(1_200, planned.owed());
        assertEquals(planned.of(), planned.planned());
        assertEquals(java.time.Duration.ofHours(1), planned.estimate());
        // and as the pushes make copies (paced by the tool's gate), what is owed and its estimate go down
        f.engine.pushes().round();
        dev.idiom.consistency.report.MirrorProgress later = f.engine.mirrors().progress("pin");
        assertTrue(later.owed() < 1_200 && later.owed() > 0, later.toString());
        assertEquals(java.time.Duration.ofSeconds(3L * later.owed()), later.estimate());
    }

    @Test
    void aPrivateDeIsMirroredOnlyWhereItCanStayPrivate() throws Exception {
        // given a DE a curator marked private, and a BibTeX file (no privacy) and a Pinboard account both mirroring everything
        UUID id = f.entered(paper("Private reading").with(Field.URL, "https://example.org/private"));
        f.store.append(id, 1, List.of(new dev.idiom.events.NewEvent(UUID.randomUUID(), "test", new dev.idiom.events.PrivacyMarked(true))));
        f.tools.rules.put("file", rule("\"all\"", null));
        f.tools.rules.put("pin", rule("\"all\"", null));
        f.engine.mirrors().planAll();
        Map<PushOutcome, Integer> pushed = f.engine.pushes().drain(10);
        // then Pinboard holds it as a private bookmark, and the file does not hold it at all
        assertEquals(1, pushed.get(PushOutcome.COPIED), pushed.toString());
        assertEquals(1, pushed.get(PushOutcome.NOT_SENT), pushed.toString());
        assertTrue(f.replica(id, "pinboard").privateCopy());
        assertTrue(f.replicas(id, "bibtex").isEmpty());
        assertEquals(0, recordsInFile());
    }

    @Test
    void aCopyIdiomMadeInAPrivateLibraryDoesNotKeepAPublicDeFromAFileThatCannotKeepRecordsPrivate() throws Exception {
        // given a public DE mirrored first into a private library (Pinboard set privateLibrary, as a browsers' account is by default)
        UUID id = f.entered(paper("Epidemic algorithms").with(Field.URL, "https://example.org/epidemic"));
        f.tools.pinPrivateLibrary = true;
        f.tools.rules.put("pin", rule("\"all\"", null));
        f.engine.mirrors().planAll();
        assertEquals(1, f.engine.pushes().drain(10).get(PushOutcome.COPIED));
        // when a BibTeX file mirroring everything is planned after it
        f.tools.rules.put("file", rule("\"all\"", null));
        f.engine.mirrors().planAll();
        Map<PushOutcome, Integer> pushed = f.engine.pushes().drain(10);
        // then the file gets the DE: the private library's copy holds nothing private, so it does not make the DE private
        assertEquals(1, pushed.get(PushOutcome.COPIED), pushed.toString());
        assertEquals(1, recordsInFile());
        assertFalse(f.replica(id, "pinboard").privateCopy());
    }

    @Test
    void aChangeMadeWhileACopyIsBeingMadeReachesTheCopyOnceItIsLinked() throws Exception {
        for (int n : new int[] {1, 3}) { // one copy alone, and copies made together in one batch
            // given n DEs owed to a BibTeX file mirroring everything
            List<UUID> ids = new java.util.ArrayList<>();
            for (int i = 0; i < n; i++) {
                ids.add(f.entered(paper("Gossip, part " + n + "." + i)));
            }
            f.tools.rules.put("file", rule("\"all\"", null));
            f.engine.mirrors().planAll();
            // when the first one's title is edited after the file took its copy and before the copy's link is committed
            f.beforeNextBatch.set(() -> f.editedInIdiom(ids.getFirst(), Field.TITLE, "Epidemic algorithms " + n));
            f.engine.pushes().drain(10);
            // then the edit is in the file and the copy's synced state: nothing is left owed, and nothing is lost
            assertEquals("Epidemic algorithms " + n, f.replica(ids.getFirst(), "bibtex").synced().title());
            assertTrue(f.tools.file.changedSince(null).records().stream().anyMatch(r -> r.metadata().title().equals("Epidemic algorithms " + n)),
                    "the file holds the edited title");
            assertTrue(f.outbox.dueAccounts().isEmpty());
        }
    }

    @Test
    void aDryRunChangesNothingAndItsPlanIsWhatTheSyncThenDoes() throws Exception {
        // given: three new items in Zotero, a file mirroring what comes from Zotero, a BibSonomy account mirroring the DEs tagged "ml",
        // a DE with copies in Zotero and the file changed in Idiom, and a DE whose BibSonomy copy the rule made and no longer selects
        f.tools.rules.put("file", rule("{\"from\": [\"zot\"]}", null));
        f.tools.rules.put("bib", rule("{\"tags\": [\"ml\"]}", null));
        UUID edited = f.uploaded(paper("Edited in Idiom"), "zot");
        UUID tagged = f.entered(paper("Learning to rank", "ml"));
        for (int i = 0; i < 10; i++) { // enough copies in BibSonomy that removing one is within its mass-delete share
            f.entered(paper("Ranking, part " + i, "ml"));
        }
        f.engine.sync().sync("zot", false, Progress.SILENT);
        assertEquals(1, f.replicas(tagged, "bibsonomy").size());
        assertEquals(1, f.replicas(edited, "bibtex").size());
        for (String t : List.of("Epidemic algorithms", "Bayou", "Coda")) {
            f.zotero.addRemotely(zoteroItem(t));
        }
        f.editedInIdiom(edited, Field.VOLUME, "9");
        f.editedInIdiom(tagged, Field.TAGS, new TreeSet<>(Set.of("ranking")));
        long head = f.store.headPosition();
        List<dev.idiom.events.Outbox.Entry> owed = f.outbox.list(null, null, 1000);
        String file = Files.readString(f.bibFile);
        int zoteroWrites = f.zotero.writeRequests();
        // when a curator asks for a dry run
        dev.idiom.consistency.report.SyncPlan plan = f.engine.dryRun().plan("zot");
        // then nothing changed
        assertEquals(head, f.store.headPosition());
        assertEquals(owed, f.outbox.list(null, null, 1000));
        assertEquals(file, Files.readString(f.bibFile));
        assertEquals(zoteroWrites, f.zotero.writeRequests());
        // and the plan says: three new DEs from Zotero, three copies and one change for the file, one change for Zotero, one removal in BibSonomy
        assertEquals(3, plan.pulled().created.count(), plan.pulled().created.samples().toString());
        assertTrue(plan.pulled().created.samples().contains("Bayou"));
        Map<String, dev.idiom.consistency.report.SyncPlan.Writes> w = new java.util.HashMap<>();
        plan.writes().forEach(x -> w.put(x.name(), x));
        assertEquals(List.of(3, 1, 0), List.of(w.get("file").copies.count(), w.get("file").updates.count(), w.get("file").removals.count()));
        assertEquals(List.of(0, 1, 0), List.of(w.get("zot").copies.count(), w.get("zot").updates.count(), w.get("zot").removals.count()));
        assertEquals(List.of(0, 0, 1), List.of(w.get("bib").copies.count(), w.get("bib").updates.count(), w.get("bib").removals.count()));
        // when the sync runs, it does exactly that
        SyncReport r = f.engine.sync().sync("zot", false, Progress.SILENT);
        assertEquals(3, r.pulled().count(dev.idiom.consistency.report.ImportOutcome.Kind.CREATED));
        assertEquals(3, r.pushedByOutcome().get("copied"), r.pushedByOutcome().toString());
        assertEquals(2, r.pushedByOutcome().get("pushed"), r.pushedByOutcome().toString());
        assertEquals(1, r.pushedByOutcome().get("removed"), r.pushedByOutcome().toString());
        assertEquals(4, recordsInFile());
    }

    @Test
    void aRuleThatWouldRemoveTooManyCopiesHoldsTheAccountUntilACuratorAllowsIt() {
        // given twenty DEs mirrored into the file, one of them tagged "keep"
        List<UUID> ids = new java.util.ArrayList<>();
        for (int i = 0; i < 20; i++) {
            ids.add(f.entered(i == 0 ? paper("Paper " + i, "keep") : paper("Paper " + i)));
        }
        f.tools.rules.put("file", rule("\"all\"", null));
        f.engine.sync().sync("file", false, Progress.SILENT);
        assertEquals(20, recordsInFile());
        // when the rule narrows to the DEs tagged "keep" (19 of 20 copies would go: more than 10%)
        f.tools.rules.put("file", rule("{\"tags\": [\"keep\"]}", null));
        dev.idiom.consistency.report.SyncPlan.Writes planned = f.engine.dryRun().plan("zot").writes().stream()
                .filter(w -> w.name().equals("file")).findFirst().orElseThrow();
        assertEquals(19, planned.removals.count());
        assertTrue(planned.held != null && planned.held.contains("19 of the 20"), "a dry run says it would be held: " + planned.held);
        f.engine.mirrors().planAll();
        // then the account is held with why, nothing is owed and nothing removed
        String held = f.states.syncState("bibtex", f.tools.file.account()).held();
        assertTrue(held != null && held.contains("19 of the 20"), held);
        assertThrows(SyncRefusedException.class, () -> f.engine.sync().sync("file", false, Progress.SILENT));
        assertEquals(20, recordsInFile());
        // and when a curator allows it, the copies go and the DEs stay
        SyncReport r = f.engine.sync().sync("file", true, Progress.SILENT);
        assertEquals(19, r.pushedByOutcome().get("removed"), r.pushedByOutcome().toString());
        assertEquals(1, recordsInFile());
        assertEquals(1, f.replicas(ids.getFirst(), "bibtex").size());
        assertTrue(f.store.load(ids.get(1)).isPresent());
    }
}
