package dev.idiom.consistency;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idiom.consistency.report.CheckReport;
import dev.idiom.consistency.report.ImportOutcome;
import dev.idiom.consistency.report.Progress;
import dev.idiom.consistency.report.PushOutcome;
import dev.idiom.consistency.report.SyncRefusedException;
import dev.idiom.consistency.report.SyncReport;
import dev.idiom.events.Author;
import dev.idiom.events.ConflictResolved;
import dev.idiom.events.Field;
import dev.idiom.events.Metadata;
import dev.idiom.events.RecordedEvent;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The engine's jobs, each given a state, run, and checked against the store and the stubs: pull,
 * push, merge, the deletion hold and anti-entropy, without booting the HTTP service.
 */
class EngineTest {
    private final EngineFixture f = new EngineFixture();

    @AfterEach
    void close() {
        f.close();
    }

    private static Metadata paper(String title) {
        return Metadata.EMPTY.with(Field.TYPE, "article-journal").with(Field.TITLE, title).with(Field.AUTHORS, List.of(new Author("Demers", "Alan")))
                .with(Field.YEAR, 1987).with(Field.VENUE, "PODC").with(Field.TAGS, new TreeSet<>(Set.of("gossip")));
    }

    @Test
    void aRecordEditedInZoteroComesInByThePullAndReachesBibSonomyByThePush() {
        // given a DE with copies in Zotero and BibSonomy
        UUID id = f.uploaded(paper("Epidemic algorithms"), "zot", "bib");
        String key = f.replica(id, "zotero").remoteId();
        // when someone edits the title in Zotero and a curator syncs that account
        f.zotero.editRemotely(key, "Epidemic algorithms for replicated database maintenance");
        SyncReport r = f.engine.sync().sync("zot", false, Progress.SILENT);
        // then the DE has it, and so does the BibSonomy copy
        assertEquals(1, r.pulled().count(ImportOutcome.Kind.UPDATED), r.pulled().toString());
        assertEquals("Epidemic algorithms for replicated database maintenance", f.load(id).metadata().title());
        assertEquals(1, r.pushedCount(), "one push, to BibSonomy: " + r.pushed());
        String bibId = f.replica(id, "bibsonomy").remoteId();
        assertEquals("Epidemic algorithms for replicated database maintenance", f.tools.bib.fetch(bibId).orElseThrow().metadata().title());
        assertEquals(List.of(), f.engine.report().owed(10), "nothing owed once both copies hold it");
    }

    @Test
    void aPushThatMeetsARemoteChangeMergesItFirstAndThenPushesTheMergedRecord() {
        // given a DE with a Zotero copy, changed in Idiom (volume) and in Zotero (title) since the last sync
        UUID id = f.uploaded(paper("Epidemic algorithms"), "zot");
        String key = f.replica(id, "zotero").remoteId();
        f.editedInIdiom(id, Field.VOLUME, "6");
        f.zotero.editRemotely(key, "Epidemic algorithms, revised");
        // when the engine pushes what is owed
        Map<PushOutcome, Integer> pushed = f.engine.pushes().drain(10);
        // then the remote change came in through the merge, and the push carried both
        assertEquals(1, pushed.get(PushOutcome.MERGED_REMOTE_CHANGES), pushed.toString());
        assertEquals(1, pushed.get(PushOutcome.PUSHED), pushed.toString());
        assertEquals("Epidemic algorithms, revised", f.load(id).metadata().title());
        assertEquals("6", f.zotero.data(key).path("volume").asText());
        assertEquals("Epidemic algorithms, revised", f.zotero.data(key).path("title").asText());
    }

    @Test
    void aFieldChangedOnBothSidesIsDecidedByThePolicyAndBothValuesAreKept() {
        // given a DE with a Zotero copy whose title changed on both sides
        UUID id = f.uploaded(paper("Epidemic algorithms"), "zot");
        String key = f.replica(id, "zotero").remoteId();
        f.editedInIdiom(id, Field.TITLE, "Title in Idiom");
        f.zotero.editRemotely(key, "Title in Zotero");
        // when the engine pushes (the account prefers Idiom)
        f.engine.pushes().drain(10);
        // then Idiom's value won everywhere and the conflict keeps both
        assertEquals("Title in Idiom", f.load(id).metadata().title());
        assertEquals("Title in Idiom", f.zotero.data(key).path("title").asText());
        List<RecordedEvent> conflicts = f.engine.report().conflicts(0, 10);
        assertEquals(1, conflicts.size());
        ConflictResolved c = (ConflictResolved) conflicts.getFirst().event();
        assertEquals(List.of("Title in Idiom", "Title in Zotero", "Title in Idiom"), List.of(c.idiomValue(), c.remoteValue(), c.winner()));
    }

    @Test
    void aPullThatWouldUnlinkTooManyCopiesHoldsTheAccountUntilACuratorAllowsIt() {
        // given three DEs with Zotero copies, two of them then trashed in Zotero
        List<UUID> ids = List.of(f.uploaded(paper("One"), "zot"), f.uploaded(paper("Two"), "zot"), f.uploaded(paper("Three"), "zot"));
        f.zotero.trash(f.replica(ids.get(0), "zotero").remoteId());
        f.zotero.trash(f.replica(ids.get(1), "zotero").remoteId());
        // when a curator syncs
        SyncReport r = f.engine.sync().sync("zot", false, Progress.SILENT);
        // then nothing is unlinked, the account is held with why, and it stays held until allowed
        assertNotNull(r.held());
        assertTrue(r.held().contains("2 of the 3"), r.held());
        ids.forEach(id -> assertEquals(1, f.replicas(id, "zotero").size()));
        assertThrows(SyncRefusedException.class, () -> f.engine.sync().sync("zot", false, Progress.SILENT));
        assertThrows(SyncRefusedException.class, () -> f.engine.holds().resume("zot", false));
        f.engine.holds().resume("zot", true);
        assertEquals(List.of(0, 0, 1), ids.stream().map(id -> f.replicas(id, "zotero").size()).toList());
        assertFalse(f.states.syncState("zotero", f.tools.zot.account()).paused());
    }

    @Test
    void aPostDeletedInBibSonomyIsSeenByTheNextPullAndOneAListingLeftOutStaysLinked() {
        // given 20 BibSonomy posts pulled into DEs
        List<String> hashes = new java.util.ArrayList<>();
        for (int i = 0; i < 20; i++) {
            hashes.add(f.tools.bib.create(paper("Paper " + i).with(Field.URL, "https://example.org/p" + i)).remoteId());
        }
        assertEquals(20, f.engine.sync().sync("bib", false, Progress.SILENT).pulled().count(ImportOutcome.Kind.CREATED));
        UUID deleted = f.store.findReplica("bibsonomy", f.tools.bib.account(), hashes.get(3)).orElseThrow();
        UUID leftOut = f.store.findReplica("bibsonomy", f.tools.bib.account(), hashes.get(7)).orElseThrow();
        // when one is deleted on the site, and a listing leaves out another that still exists (its page shifted)
        f.bibsonomy.deleteOnSite(hashes.get(3));
        f.bibsonomy.hideFromListings(hashes.get(7));
        // a pull soon after reads only the newest pages: it cannot tell, and unlinks nothing
        assertEquals(0, f.engine.sync().sync("bib", false, Progress.SILENT).unlinked());
        // the next whole listing (after FULL_LISTING_EVERY) sees the deletion
        f.time.pause(dev.idiom.wrappers.bibsonomy.BibSonomyTool.FULL_LISTING_EVERY);
        SyncReport r = f.engine.sync().sync("bib", false, Progress.SILENT);
        // then the deleted one is unlinked (its DE stays: the account keeps deletions), the one left out stays linked
        assertEquals(1, r.unlinked(), r.toString());
        assertTrue(f.load(deleted).replicas().isEmpty());
        assertTrue(f.load(deleted).live());
        assertEquals(1, f.load(leftOut).replicas().size());
        // and a pass with nothing changed brings no record in again
        assertEquals(0, f.engine.sync().sync("bib", false, Progress.SILENT).pulled().records());
    }

    @Test
    void antiEntropyRepairsACopyThatDivergedBehindTheCursor() {
        // given a DE with a Zotero copy, and the account's cursor already past an edit made in Zotero
        UUID id = f.uploaded(paper("Epidemic algorithms"), "zot");
        String key = f.replica(id, "zotero").remoteId();
        f.zotero.editRemotely(key, "Edited where no pull looked");
        f.states.saveCursor("zotero", f.tools.zot.account(), "999999", f.time.instant());
        // when the check runs
        CheckReport c = f.engine.check("zot");
        // then the difference was found and merged
        assertEquals(1, c.divergent(), c.toString());
        assertEquals(1, c.repaired(), c.toString());
        assertEquals("Edited where no pull looked", f.load(id).metadata().title());
        assertNull(c.held());
    }

    @Test
    void tagsOfEveryShapeAreAFixpointAcrossTheToolsAndAThirdRoundWritesNothing() throws Exception {
        // given a DE whose tags have commas, semicolons, underscores, spaces, symbols and accents, copied to four tools
        Set<String> tags = Set.of("Neoplasms, Experimental", "semi;colon", "to_read", "machine learning", "C++", "Ünïcödé");
        UUID id = f.uploaded(paper("Epidemic algorithms").with(Field.URL, "https://example.org/epidemic").with(Field.TAGS, new TreeSet<>(tags)),
                "zot", "pin", "bib", "file");
        // when every account is synced, twice over (pull, merge, push)
        for (int round = 0; round < 2; round++) {
            for (String a : List.of("zot", "pin", "bib", "file")) {
                f.time.pause(java.time.Duration.ofMinutes(6)); // Pinboard's posts/all gate
                f.engine.sync().sync(a, false, Progress.SILENT);
            }
        }
        // then no tag changed, and each tool reads back what Idiom wrote (or left out what it cannot hold)
        assertEquals(tags, f.load(id).metadata().tags());
        assertEquals(tags, f.tools.zot.fetch(f.replica(id, "zotero").remoteId()).orElseThrow().metadata().tags());
        assertEquals(Set.of("semi;colon", "to_read", "machine_learning", "C++", "Ünïcödé"),
                f.tools.pin.fetch(f.replica(id, "pinboard").remoteId()).orElseThrow().metadata().tags(), "a comma Pinboard cannot hold is left out");
        assertEquals(tags, f.tools.file.fetch(f.replica(id, "bibtex").remoteId()).orElseThrow().metadata().tags());
        // and a third round writes nothing anywhere and records no event
        int version = f.load(id).version();
        List<Integer> writes = List.of(f.zotero.writes().size(), f.pinboard.writes().size(), f.bibsonomy.writes().size());
        byte[] file = java.nio.file.Files.readAllBytes(f.bibFile);
        for (String a : List.of("zot", "pin", "bib", "file")) {
            f.time.pause(java.time.Duration.ofMinutes(6));
            SyncReport r = f.engine.sync().sync(a, false, Progress.SILENT);
            assertEquals(0, r.pushedCount(), a + ": " + r.pushed());
        }
        assertEquals(writes, List.of(f.zotero.writes().size(), f.pinboard.writes().size(), f.bibsonomy.writes().size()), "no write in a tool");
        assertEquals(new String(file, java.nio.charset.StandardCharsets.UTF_8),
                new String(java.nio.file.Files.readAllBytes(f.bibFile), java.nio.charset.StandardCharsets.UTF_8), "the file is not rewritten");
        assertEquals(version, f.load(id).version(), "no event");
    }

    @Test
    void acknowledgementsOfEveryCopyOfOneDeRecordedAtOnceAllGoIn() throws Exception {
        // given a DE, and ten acknowledgements recorded on it at the same moment (ten tools' pushes side by side)
        UUID id = f.entered(paper("Epidemic algorithms"));
        int writers = 10;
        java.util.concurrent.CountDownLatch start = new java.util.concurrent.CountDownLatch(1);
        List<java.util.concurrent.Future<?>> done = new java.util.ArrayList<>();
        try (var pool = java.util.concurrent.Executors.newFixedThreadPool(writers)) {
            for (int i = 0; i < writers; i++) {
                int n = i;
                done.add(pool.submit(() -> {
                    start.await();
                    return OptimisticRetry.DEFAULT.appendOnLatest("acknowledgement " + n, f.store, id, 1,
                            List.of(new dev.idiom.events.NewEvent(UUID.randomUUID(), "test", new dev.idiom.events.TagAdded("copy-" + n))));
                }));
            }
            // when they race
            start.countDown();
            for (var d : done) {
                d.get();
            }
        }
        // then none gave up: one commits per round, and the policy has a try for each
        assertEquals(1 + writers, f.load(id).version());
    }

    @Test
    void everyCommitTheEngineMakesIsAnnouncedToTheNodesReadModels() {
        // given a DE uploaded to both tools, edited on both sides, and a listener where the cache and the search index listen
        List<dev.idiom.events.AppendResult> announced = new java.util.concurrent.CopyOnWriteArrayList<>();
        f.store.onCommit(announced::add);
        UUID id = f.uploaded(paper("Epidemic algorithms"), "zot", "bib");
        f.editedInIdiom(id, Field.VOLUME, "6");
        f.zotero.editRemotely(f.replica(id, "zotero").remoteId(), "Epidemic algorithms, revised");
        // when the engine pushes, pulls and checks
        f.engine.pushes().drain(10);
        f.engine.sync().sync("zot", false, Progress.SILENT);
        f.engine.check("bib");
        // then every event the engine wrote was announced with its commit (so the node's read models heard of it at once)
        List<RecordedEvent> engineEvents = f.store.history(id).stream().filter(e -> !e.source().equals("test")).toList();
        assertTrue(engineEvents.size() >= 5, "uploads, acknowledgements and a merge: " + engineEvents);
        List<dev.idiom.events.AppendResult> ofDe = announced.stream().filter(r -> r.entity().id().equals(id)).toList();
        engineEvents.forEach(e -> assertTrue(ofDe.stream().anyMatch(r -> r.entity().version() >= e.version() && r.lastPosition() >= e.position()),
                "committed unannounced: " + e));
        assertEquals(f.load(id).version(), ofDe.getLast().entity().version(), "the last state announced is the DE's state");
    }

    @Test
    void aCopyAnOlderReadingSyncedIsReadAnewAtItsVersionWithoutWritingAnyLibrary() throws Exception {
        // given a .bib entry as an older version of the adapter read it: no language (it did not read langid), typed as a
        // document (it did not know the entry type), the DE made from that reading and copied to Zotero
        java.nio.file.Files.writeString(f.bibFile, "@article{demers87,\n  title = {Epidemic algorithms},\n  author = {Demers, Alan},\n"
                + "  journal = {PODC},\n  year = {1987},\n  langid = {english},\n}\n");
        dev.idiom.wrappers.RemoteRecord now = f.tools.file.changedSince(null).records().getFirst();
        Metadata older = now.metadata().with(Field.TYPE, "document").with(Field.LANGUAGE, null);
        UUID id = UUID.randomUUID();
        f.store.append(id, 0, List.of(new dev.idiom.events.NewEvent(UUID.randomUUID(), "replica:bibtex", new dev.idiom.events.RecordImported(older,
                f.tools.file.kind(), f.tools.file.account(), now.remoteId(), now.version(), null, null, false))));
        f.engine.upload().upload(id, f.tools.zot);
        String file = java.nio.file.Files.readString(f.bibFile);
        int zoteroWrites = f.zotero.writeRequests();
        // when the entry, unchanged, is checked and synced by this version
        CheckReport c = f.engine.check("file");
        SyncReport s = f.engine.sync().sync("file", false, Progress.SILENT);
        // then the copy was read anew, nothing diverged, and neither the DE nor any library changed
        assertEquals(1, c.reread(), c.toString());
        assertEquals(0, c.divergent(), c.toString());
        assertEquals(0, s.pulled().count(ImportOutcome.Kind.UPDATED), s.toString());
        assertEquals(older, f.load(id).metadata(), "the DE keeps its content");
        assertEquals("article-journal", f.replica(id, "bibtex").synced().type(), "the copy is based on the new reading");
        assertNull(f.replica(id, "bibtex").synced().get(Field.LANGUAGE), "a value the DE has none of waits for the copy's next change");
        f.engine.pushes().drain(10);
        assertEquals(file, java.nio.file.Files.readString(f.bibFile), "the entry is not rewritten to the older reading");
        assertEquals(zoteroWrites, f.zotero.writeRequests(), "the Zotero copy is not retyped");
        assertEquals(0, f.engine.check("file").reread(), "read anew once");
        assertEquals(List.of(), f.engine.report().owed(10));

        // when the curator then edits the entry's title in the file
        java.nio.file.Files.writeString(f.bibFile, file.replace("{Epidemic algorithms}", "{Epidemic algorithms for replicated databases}"));
        f.engine.sync().sync("file", false, Progress.SILENT);
        // then that change comes in, with the language it brings, and the type the DE has stays as it was (no reading difference
        // passes for the curator's change)
        Metadata after = f.load(id).metadata();
        assertEquals("Epidemic algorithms for replicated databases", after.title());
        assertEquals("document", after.type());
        assertEquals("english", after.get(Field.LANGUAGE));
        f.engine.pushes().drain(10);
        assertTrue(java.nio.file.Files.readString(f.bibFile).startsWith("@article{demers87,"), "still the entry the curator typed");

        // and when the DE's type changes in Idiom, the copy is written that change
        f.editedInIdiom(id, Field.TYPE, "book");
        f.engine.pushes().drain(10);
        assertTrue(java.nio.file.Files.readString(f.bibFile).startsWith("@book{demers87,"), java.nio.file.Files.readString(f.bibFile));
    }

    @Test
    void untitledEntriesAreRecordsThatReachZoteroAndAnEntryWithNothingInItIsSkippedByName() throws Exception {
        // given a file with a letter, a web page known by its address (neither titled) and an entry with no field at all
        java.nio.file.Files.writeString(f.bibFile, "@letter{darwin1859,\n  author = {Darwin, Charles},\n  year = {1859},\n  note = {To J. D. Hooker},\n}\n\n"
                + "@online{site,\n  url = {https://example.org/notes},\n  urldate = {2024-05-01},\n}\n\n@misc{nothing,\n}\n");
        String file = java.nio.file.Files.readString(f.bibFile);
        // when the file is synced
        SyncReport s = f.engine.sync().sync("file", false, Progress.SILENT);
        // then both untitled entries are DEs, found by their other fields, and only the empty entry is skipped, with why
        assertEquals(2, s.pulled().count(ImportOutcome.Kind.CREATED), s.toString());
        assertEquals(1, s.pulled().count(ImportOutcome.Kind.SKIPPED), s.toString());
        ImportOutcome skipped = s.pulled().skipped().getFirst();
        assertEquals("nothing", skipped.remoteId());
        assertEquals("entry has no field Idiom reads", skipped.reason(), skipped.toString());
        UUID letter = f.store.findReplica("bibtex", f.tools.file.account(), "darwin1859").orElseThrow();
        assertTrue(f.store.findReplica("bibtex", f.tools.file.account(), "site").isPresent());
        assertNull(f.load(letter).metadata().title());
        assertEquals("Darwin", f.load(letter).metadata().authors().getFirst().family());
        // and a DE without a title is copied to Zotero as Zotero holds one: an item with an empty title
        f.engine.upload().upload(letter, f.tools.zot);
        String key = f.replica(letter, "zotero").remoteId();
        assertEquals("", f.zotero.data(key).path("title").asText(""));
        assertEquals("Darwin", f.zotero.data(key).path("creators").get(0).path("lastName").asText());
        // and the next sync of the file reads them as unchanged and writes nothing
        SyncReport again = f.engine.sync().sync("file", false, Progress.SILENT);
        f.engine.pushes().drain(10);
        assertEquals(0, again.pulled().count(ImportOutcome.Kind.CREATED) + again.pulled().count(ImportOutcome.Kind.UPDATED), again.toString());
        assertEquals(file, java.nio.file.Files.readString(f.bibFile));
    }

    @Test
    void whatACopyIsMadeWithBeyondItsRecordIsOwedNothingAndAnEditOfTheEntryBringsOnlyTheEdit() throws Exception {
        // given a Zotero item whose extra asks for a journal and bookkeeping Better BibTeX writes, and has no journal of its own
        String key = f.zotero.addRemotely("{\"itemType\": \"journalArticle\", \"title\": \"Brain activation\", \"date\": \"2008\","
                + " \"extra\": \"tex.journaltitle= Psychophysiology\\ntex.owner: ada\", \"creators\": [], \"tags\": [], \"collections\": [],"
                + " \"relations\": {}}");
        dev.idiom.wrappers.RemoteRecord now = f.tools.zot.fetch(key).orElseThrow();
        UUID id = UUID.randomUUID();
        f.store.append(id, 0, List.of(new dev.idiom.events.NewEvent(UUID.randomUUID(), "replica:zotero", new dev.idiom.events.RecordImported(
                now.metadata(), f.tools.zot.kind(), f.tools.zot.account(), key, now.version(), null, now.shadow(), false))));
        // when its DE is copied to a file, and the file is then checked and synced
        f.engine.upload().upload(id, f.tools.file);
        String file = java.nio.file.Files.readString(f.bibFile);
        assertTrue(file.contains("journal = {Psychophysiology}") && file.contains("owner = {ada}"), file);
        CheckReport c = f.engine.check("file");
        f.engine.sync().sync("file", false, Progress.SILENT);
        f.engine.pushes().drain(10);
        // then nothing is owed, read anew or written
        assertEquals(0, c.reEnqueued() + c.divergent() + c.reread(), c.toString());
        assertEquals(file, java.nio.file.Files.readString(f.bibFile));
        int zoteroWrites = f.zotero.writeRequests();
        // when the curator edits the entry's title in the file
        java.nio.file.Files.writeString(f.bibFile, file.replace("{Brain activation}", "{Brain activation in spider phobia}"));
        f.engine.sync().sync("file", false, Progress.SILENT);
        f.engine.pushes().drain(10);
        // then the title comes in and goes to Zotero; the journal the item's extra gave is no change of the curator's
        assertEquals("Brain activation in spider phobia", f.load(id).metadata().title());
        assertNull(f.load(id).metadata().venue());
        assertEquals("Brain activation in spider phobia", f.zotero.data(key).path("title").asText());
        assertEquals("", f.zotero.data(key).path("publicationTitle").asText(""), "the Zotero item gets no journal it did not have");
        assertEquals(zoteroWrites + 1, f.zotero.writeRequests());
    }

    @Test
    void aValueAnEntryCannotHoldAsWrittenIsWrittenOnceNotOnEveryCheck() throws Exception {
        // given a DE whose title a .bib entry reads back otherwise than written (a LaTeX accent typed as text: the entry reads "Café")
        UUID id = f.uploaded(paper("The Caf\\'e rule"), "file");
        String file = java.nio.file.Files.readString(f.bibFile);
        // when the checks find the copy owed that title and its push writes it
        CheckReport first = f.engine.check("file");
        Map<PushOutcome, Integer> pushed = f.engine.pushes().drain(10);
        // then the write changed nothing, is reported so, and no later check owes it again
        assertEquals(1, first.reEnqueued(), first.toString());
        assertEquals(Map.of(PushOutcome.ALREADY_IN_SYNC, 1), pushed);
        assertEquals(file, java.nio.file.Files.readString(f.bibFile));
        CheckReport second = f.engine.check("file");
        assertEquals(0, second.reEnqueued() + second.divergent(), second.toString());
        assertEquals("The Caf\\'e rule", f.load(id).metadata().title(), "the DE keeps its title");
        // and a change of that title in Idiom is written as any change is
        f.editedInIdiom(id, Field.TITLE, "The one-half rule");
        f.engine.pushes().drain(10);
        assertTrue(java.nio.file.Files.readString(f.bibFile).contains("title = {The one-half rule}"), java.nio.file.Files.readString(f.bibFile));
        assertEquals(0, f.engine.check("file").reEnqueued());
    }

    @Test
    void aZoteroItemReadBetterAtItsVersionChangesNoLibraryAndItsNextEditBringsTheNewReadingWithIt() throws Exception {
        // given a Zotero item dated as typed "12/21/2011", read by an older version as the year alone, its DE copied to a file
        String key = f.zotero.addRemotely("{\"itemType\": \"journalArticle\", \"title\": \"Gossip\", \"date\": \"12/21/2011\", \"creators\": [],"
                + " \"tags\": [], \"collections\": [], \"relations\": {}}");
        dev.idiom.wrappers.RemoteRecord now = f.tools.zot.fetch(key).orElseThrow();
        assertEquals(12, now.metadata().month(), "this version reads the month, as Zotero does");
        Metadata older = now.metadata().with(Field.MONTH, null).with(Field.DAY, null);
        UUID id = UUID.randomUUID();
        f.store.append(id, 0, List.of(new dev.idiom.events.NewEvent(UUID.randomUUID(), "replica:zotero", new dev.idiom.events.RecordImported(older,
                f.tools.zot.kind(), f.tools.zot.account(), key, now.version(), null, now.shadow(), false))));
        f.engine.upload().upload(id, f.tools.file);
        String file = java.nio.file.Files.readString(f.bibFile);
        int zoteroWrites = f.zotero.writeRequests();
        // when the account is checked and synced
        CheckReport c = f.engine.check("zot");
        f.engine.sync().sync("zot", true, Progress.SILENT);
        f.engine.pushes().drain(10);
        // then nothing diverged and nothing was written anywhere: the DE has no month, and gets none from a reading alone
        assertEquals(0, c.divergent(), c.toString());
        assertEquals(older, f.load(id).metadata());
        assertEquals(file, java.nio.file.Files.readString(f.bibFile));
        assertEquals(zoteroWrites, f.zotero.writeRequests());
        // when someone then edits the item in Zotero
        f.zotero.editRemotely(key, "Gossip protocols");
        f.engine.sync().sync("zot", false, Progress.SILENT);
        // then the edit comes in, and the month the item has comes with it
        assertEquals("Gossip protocols", f.load(id).metadata().title());
        assertEquals(12, f.load(id).metadata().month());
    }
}
