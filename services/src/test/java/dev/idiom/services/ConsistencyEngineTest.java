package dev.idiom.services;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idiom.consistency.report.PushOutcome;
import dev.idiom.db.TestDatabase;
import dev.idiom.events.Author;
import dev.idiom.events.DigitalEntity;
import dev.idiom.events.Field;
import dev.idiom.events.InvalidValueException;
import dev.idiom.events.Metadata;
import dev.idiom.events.RecordedEvent;
import dev.idiom.events.Replica;
import dev.idiom.events.ReplicaUnlinked;
import dev.idiom.consistency.report.SyncRefusedException;
import dev.idiom.services.app.Application;
import dev.idiom.consistency.report.ImportOutcome;
import dev.idiom.services.app.ReplicaSync;
import dev.idiom.wrappers.FakeTime;
import dev.idiom.wrappers.StubServer;
import dev.idiom.wrappers.bibsonomy.BibSonomyStub;
import dev.idiom.wrappers.pinboard.PinboardStub;
import dev.idiom.wrappers.zotero.ZoteroStub;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The consistency engine end to end on the real store: every kind of replica (the strict Zotero,
 * Pinboard and BibSonomy stubs, a BibTeX file, a bookmark file, a second Idiom), tools that go down
 * and come back, two nodes on one database, the mass-delete hold, shadow round trips, echo
 * suppression, anti-entropy and an idle federation. Time is a fake clock that tool pacing moves, so
 * Pinboard's 3 s and 5 min rules hold without the test sleeping through them.
 */
class ConsistencyEngineTest {
    private static final ReplicaSyncProgress QUIET = new ReplicaSyncProgress();

    @TempDir
    Path dir;
    private final FakeTime time = new FakeTime();
    private final ZoteroStub zotero = new ZoteroStub();
    private final PinboardStub pinboard = new PinboardStub(time);
    private final BibSonomyStub bibsonomy = new BibSonomyStub();
    private final List<AutoCloseable> closing = new ArrayList<>();

    @AfterEach
    void stop() throws Exception {
        for (AutoCloseable c : closing.reversed()) {
            c.close();
        }
        zotero.close();
        pinboard.close();
        bibsonomy.close();
    }

    private static final class ReplicaSyncProgress implements dev.idiom.consistency.report.Progress {
        @Override
        public void step(dev.idiom.consistency.report.ImportSummary soFar, int doneInPage, int pageSize, boolean lastPage) {}
    }

    /** An Idiom on the fake clock, no background engine (the test runs rounds, so what happened when is certain). */
    private Idiom idiom(String dbUrl, Map<String, String> extra) {
        Map<String, String> flags = new HashMap<>(Map.of("db-url", dbUrl, "data", dir.resolve("data").toString(), "sync-interval-ms", "0",
                "local-tool-hosts", "true", "files-dir", dir.toString()));
        flags.putAll(extra);
        Idiom idiom = Idiom.start(IdiomConfig.from(flags, Map.of("IDIOM_SECRET_KEY", RunningIdiom.SECRET_KEY), k -> null), time, time);
        closing.add(idiom);
        return idiom;
    }

    private Idiom idiom() {
        return idiom(TestDatabase.freshUrl(), Map.of());
    }

    private void zoteroAccount(Application app) {
        app.tools().accounts().put("zot", "zotero", zotero.uri().toString(), ZoteroStub.LIBRARY, ZoteroStub.KEY);
    }

    private static Metadata paper(String title) {
        return Metadata.EMPTY.with(Field.TYPE, "article-journal").with(Field.TITLE, title).with(Field.AUTHORS, List.of(new Author("Demers", "Alan")))
                .with(Field.YEAR, 1987).with(Field.VENUE, "PODC").with(Field.URL, "https://example.org/" + Math.abs(title.hashCode()))
                .with(Field.ABSTRACT, "Anti-entropy and rumor mongering.").with(Field.TAGS, new TreeSet<>(Set.of("gossip")));
    }

    private static DigitalEntity load(Idiom idiom, UUID id) {
        return idiom.store().load(id).orElseThrow();
    }

    private static Replica replica(DigitalEntity de, String tool) {
        return de.replicas().stream().filter(r -> r.tool().equals(tool)).findFirst().orElseThrow(() -> new AssertionError("no " + tool + " replica"));
    }

    private static void retitle(Idiom idiom, UUID id, String title) {
        idiom.application().writes().patch(id, Map.of(Field.TITLE, title), load(idiom, id).version(), "test");
    }

    /** The writes the stub applied (2xx) to one path. */
    private static long applied(StubServer stub, String method, String pathEnd) {
        return stub.writes().stream().filter(l -> l.startsWith(method + " ") && l.contains(pathEnd + " 2")).count();
    }

    private static long writesApplied(StubServer stub) {
        return stub.writes().stream().filter(l -> l.matches(".* 2\\d\\d$")).count();
    }

    /** A curator's key on another Idiom, as its admin would hand one to this instance. */
    static String curatorKey(IdiomServer peer) {
        return peer.idiom().application().keys().create("peer-" + java.util.UUID.randomUUID().toString().substring(0, 8),
                dev.idiom.services.app.Role.CURATOR, "test").secret();
    }

    /** What the tool holds now for the DE's copy there, read through its adapter. */
    private static Metadata held(Idiom idiom, String account, Replica r) {
        return idiom.application().tools().open(account).fetch(r.remoteId()).orElseThrow(() -> new AssertionError(account + " lost " + r.remoteId()))
                .metadata();
    }

    @Test
    void aChangeInIdiomReachesEveryKindOfReplicaAndAChangeInOneToolReachesAllTheOthers() {
        IdiomServer peer = IdiomServer.start(IdiomConfig.from(Map.of("port", "0", "db-url", TestDatabase.freshUrl(), "data",
                dir.resolve("peer").toString(), "sync-interval-ms", "0"), Map.of("IDIOM_SECRET_KEY", RunningIdiom.SECRET_KEY), k -> null));
        closing.add(peer);
        Idiom idiom = idiom();
        Application app = idiom.application();
        zoteroAccount(app);
        app.tools().accounts().put("pin", "pinboard", pinboard.uri() + "/v1/", "", PinboardStub.TOKEN);
        app.tools().accounts().put("bib", "bibsonomy", bibsonomy.uri().toString(), BibSonomyStub.USER, BibSonomyStub.KEY);
        app.tools().accounts().put("bibfile", "bibtex", dir.resolve("refs.bib").toString(), "", null);
        app.tools().accounts().put("marks", "bookmarks", dir.resolve("bookmarks.html").toString(), "", null);
        app.tools().accounts().put("peer", "idiom", peer.url(), "", curatorKey(peer));
        Map<String, String> kinds = Map.of("zot", "zotero", "pin", "pinboard", "bib", "bibsonomy", "bibfile", "bibtex", "marks", "bookmarks",
                "peer", "idiom");

        UUID id = app.writes().create(paper("Epidemic algorithms"), "test").entity().id();
        kinds.keySet().forEach(account -> app.replicas().upload(id, account));
        assertEquals(6, load(idiom, id).replicas().size());
        assertEquals(Map.of(), app.sync().pushOwed(), "an upload owes nothing");

        retitle(idiom, id, "Epidemic algorithms for replicated database maintenance");
        Map<PushOutcome, Integer> pushed = app.sync().pushOwed();
        assertEquals(6, pushed.getOrDefault(PushOutcome.PUSHED, 0), "one push per replica: " + pushed);
        DigitalEntity de = load(idiom, id);
        kinds.forEach((account, kind) -> assertEquals("Epidemic algorithms for replicated database maintenance",
                held(idiom, account, replica(de, kind)).title(), "Idiom's change reached " + kind));

        // someone edits the title in Zotero: a sync of Zotero brings it in and pushes it to the five others
        zotero.editData(replica(de, "zotero").remoteId(), "{\"title\": \"Epidemic algorithms (Zotero edit)\"}");
        dev.idiom.consistency.report.SyncReport r = app.sync().sync("zot", false, QUIET);
        assertEquals(1, r.pulled().count(ImportOutcome.Kind.UPDATED), "the Zotero edit came in");
        assertEquals(5, r.pushedCount(), "and went to every other replica, not back to Zotero: " + r.pushed());
        DigitalEntity after = load(idiom, id);
        assertEquals("Epidemic algorithms (Zotero edit)", after.metadata().title());
        kinds.forEach((account, kind) -> assertEquals("Epidemic algorithms (Zotero edit)", held(idiom, account, replica(after, kind)).title(),
                "the Zotero edit reached " + kind));
        assertEquals(Map.of(), app.sync().pushOwed(), "converged");
    }

    @Test
    void aToolThatIsDownForAWhileGetsEveryPendingChangeExactlyOnceWhenItRecovers() {
        Idiom idiom = idiom();
        Application app = idiom.application();
        zoteroAccount(app);
        UUID first = app.writes().create(paper("Lazy replication"), "test").entity().id();
        UUID second = app.writes().create(paper("Bayou"), "test").entity().id();
        app.replicas().upload(first, "zot");
        app.replicas().upload(second, "zot");
        String firstKey = replica(load(idiom, first), "zotero").remoteId();
        String secondKey = replica(load(idiom, second), "zotero").remoteId();

        zotero.down(true); // connections dropped
        retitle(idiom, first, "Lazy replication (1)");
        retitle(idiom, first, "Lazy replication (2)");
        retitle(idiom, second, "Bayou (1)");
        Map<PushOutcome, Integer> down = app.sync().pushOwed();
        assertEquals(Set.of(PushOutcome.RETRY_LATER), down.keySet(), "both fail, and are tried again as their backoff passes: " + down);
        retitle(idiom, first, "Lazy replication (3)");
        assertEquals(Map.of(), app.sync().pushOwed(), "not due again before the backoff");

        zotero.down(false);
        for (int i = 0; i < 3; i++) { // then 500s, then 429 with Retry-After
            zotero.failNext(StubServer.Reply.of(500, "Internal Server Error"));
        }
        time.pause(Duration.ofMinutes(1));
        Map<PushOutcome, Integer> round = app.sync().pushOwed();
        assertEquals(1, round.getOrDefault(PushOutcome.RETRY_LATER, 0), "the 500s fail one push: " + round);
        for (int i = 0; i < 3; i++) {
            zotero.failNext(StubServer.Reply.of(429, "Too Many Requests", "Retry-After", "600"));
        }
        time.pause(Duration.ofMinutes(5));
        app.sync().pushOwed();
        var owed = app.sync().owed(10);
        assertFalse(owed.isEmpty(), "the 429 left a push owed");
        time.pause(Duration.ofMinutes(5)); // half of Retry-After: still not due
        assertEquals(Map.of(), app.sync().pushOwed(), "Retry-After is honoured");

        zotero.slow(Duration.ofSeconds(10)); // recovered, but answering slowly
        time.pause(Duration.ofMinutes(20));
        Map<PushOutcome, Integer> last = app.sync().pushOwed();
        zotero.slow(Duration.ZERO);
        assertEquals(Map.of(), app.sync().pushOwed(), "nothing left: " + last);
        assertEquals(1, applied(zotero, "PATCH", firstKey), "four edits of one DE: one write, exactly once: " + zotero.writes());
        assertEquals(1, applied(zotero, "PATCH", secondKey), "exactly once: " + zotero.writes());
        assertEquals("Lazy replication (3)", zotero.data(firstKey).path("title").asText());
        assertEquals("Bayou (1)", zotero.data(secondKey).path("title").asText());
        assertEquals(2, zotero.size(), "no second record");
    }

    @Test
    void twoNodesOnOneDatabasePushEachChangeOnce() throws Exception {
        String db = TestDatabase.freshUrl();
        Idiom a = idiom(db, Map.of());
        Idiom b = idiom(db, Map.of("data", dir.resolve("b").toString()));
        zoteroAccount(a.application());
        List<UUID> ids = new ArrayList<>();
        for (int i = 0; i < 24; i++) {
            UUID id = a.application().writes().create(paper("Paper " + i), "test").entity().id();
            a.application().replicas().upload(id, "zot");
            ids.add(id);
        }
        for (UUID id : ids) {
            retitle(a, id, "Paper retitled " + id);
        }
        CountDownLatch go = new CountDownLatch(1);
        ExecutorService two = Executors.newFixedThreadPool(2);
        try {
            List<Future<Map<PushOutcome, Integer>>> rounds = new ArrayList<>();
            for (Idiom node : List.of(a, b)) {
                rounds.add(two.submit(() -> {
                    go.await();
                    return node.application().sync().pushOwed();
                }));
            }
            go.countDown();
            int pushed = 0;
            for (Future<Map<PushOutcome, Integer>> f : rounds) {
                pushed += f.get().getOrDefault(PushOutcome.PUSHED, 0);
            }
            assertEquals(24, pushed, "every change pushed by one node or the other");
        } finally {
            two.shutdownNow();
        }
        for (UUID id : ids) {
            String key = replica(load(a, id), "zotero").remoteId();
            assertEquals(1, applied(zotero, "PATCH", key), "pushed once: " + key);
            assertEquals("Paper retitled " + id, zotero.data(key).path("title").asText());
        }
    }

    @Test
    void aPullThatWouldDeleteMoreThanTheShareIsHeldAndReportedNotApplied() {
        Idiom idiom = idiom();
        Application app = idiom.application();
        zoteroAccount(app);
        List<UUID> ids = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            UUID id = app.writes().create(paper("Replicated paper " + i), "test").entity().id();
            app.replicas().upload(id, "zot");
            ids.add(id);
        }
        app.sync().sync("zot", false, QUIET); // the cursor, from here on

        zotero.trash(replica(load(idiom, ids.get(0)), "zotero").remoteId()); // one of ten: 10%, not more
        dev.idiom.consistency.report.SyncReport one = app.sync().sync("zot", false, QUIET);
        assertNull(one.held());
        assertEquals(1, one.unlinked());
        assertTrue(load(idiom, ids.get(0)).replicas().isEmpty(), "the trashed copy is unlinked");
        assertTrue(idiom.store().history(ids.get(0)).stream().anyMatch(e -> e.event() instanceof ReplicaUnlinked), "as an event");
        assertEquals("Replicated paper 0", load(idiom, ids.get(0)).metadata().title(), "the DE stays");

        for (int i = 1; i <= 3; i++) { // three of nine: held
            zotero.trash(replica(load(idiom, ids.get(i)), "zotero").remoteId());
        }
        dev.idiom.consistency.report.SyncReport held = app.sync().sync("zot", false, QUIET);
        assertNotNull(held.held(), "held");
        assertTrue(held.held().contains("3 of the 9"), held.held());
        assertTrue(held.held().contains("Replicated paper"), "with sample items: " + held.held());
        for (int i = 1; i <= 3; i++) {
            assertEquals(1, load(idiom, ids.get(i)).replicas().size(), "not applied");
        }
        var report = app.sync().report().getFirst();
        assertTrue(report.paused() && report.held() != null, "reported: " + report);
        SyncRefusedException refused = assertThrows(SyncRefusedException.class, () -> app.sync().sync("zot", false, QUIET));
        assertTrue(refused.getMessage().contains("held"), refused.getMessage());
        assertThrows(SyncRefusedException.class, () -> app.sync().resume("zot", false), "a hold is released only by allowing it");

        app.sync().resume("zot", true); // the curator looked and agrees
        for (int i = 1; i <= 3; i++) {
            assertTrue(load(idiom, ids.get(i)).replicas().isEmpty());
        }
        assertFalse(app.sync().report().getFirst().paused());
        assertEquals(6, app.sync().report().getFirst().replicas());
    }

    @Test
    void aRejectedHoldPutsTheDeletedRecordsBackInTheTool() {
        Idiom idiom = idiom();
        Application app = idiom.application();
        zoteroAccount(app);
        List<UUID> ids = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            UUID id = app.writes().create(paper("Kept paper " + i), "test").entity().id();
            app.replicas().upload(id, "zot");
            ids.add(id);
        }
        app.sync().sync("zot", false, QUIET);
        List<String> trashed = new ArrayList<>();
        for (int i = 0; i < 3; i++) { // half: held
            trashed.add(replica(load(idiom, ids.get(i)), "zotero").remoteId());
            zotero.trash(trashed.getLast());
        }
        assertNotNull(app.sync().sync("zot", false, QUIET).held(), "held");

        assertEquals(3, app.sync().restoreHeld("zot")); // the curator looked: the deletions were a mistake
        for (int i = 0; i < 3; i++) {
            Replica back = replica(load(idiom, ids.get(i)), "zotero");
            // the copy is made again as every copy is, under the DE's own key: Zotero still has that item in its trash, and it is taken out
            // of the trash rather than a second item made, with whatever Zotero alone kept of it
            assertEquals(trashed.get(i), back.remoteId(), "the trashed item itself, back");
            assertFalse(zotero.data(back.remoteId()).path("deleted").asBoolean(false), "out of Zotero's trash");
            assertEquals("Kept paper " + i, zotero.data(back.remoteId()).path("title").asText(), "put back from the DE");
            assertTrue(idiom.store().history(ids.get(i)).stream().anyMatch(e -> e.event() instanceof ReplicaUnlinked), "the gone copy unlinked, as an event");
        }
        var report = app.sync().report().getFirst();
        assertFalse(report.paused(), "resumed");
        assertNull(report.held());
        assertEquals(6, report.replicas());
        assertNull(app.sync().sync("zot", false, QUIET).held(), "the next pull holds nothing");
        assertThrows(SyncRefusedException.class, () -> app.sync().restoreHeld("zot"), "nothing held, nothing to restore");
    }

    @Test
    void aZoteroItemsFieldsSurviveARoundTripThroughPinboard() {
        Idiom idiom = idiom();
        Application app = idiom.application();
        zoteroAccount(app);
        app.tools().accounts().put("pin", "pinboard", pinboard.uri() + "/v1/", "", PinboardStub.TOKEN);
        String key = zotero.addRemotely("{\"itemType\": \"journalArticle\", \"title\": \"Managing update conflicts in Bayou\", \"creators\": "
                + "[{\"creatorType\": \"author\", \"lastName\": \"Terry\", \"firstName\": \"Douglas\"}], \"abstractNote\": \"Bayou is a replicated, "
                + "weakly consistent storage system.\", \"date\": \"December 3, 1995\", \"url\": \"https://example.org/bayou\", "
                + "\"collections\": [\"ABCD2345\"], \"extra\": \"kept as is\", \"tags\": [{\"tag\": \"replication\"}]}");
        app.sync().sync("zot", false, QUIET);
        UUID id = idiom.store().findReplica("zotero", ZoteroStub.LIBRARY, key).orElseThrow();
        app.replicas().upload(id, "pin");

        pinboard.retitle("https://example.org/bayou", "Managing update conflicts in Bayou, a weakly connected replicated storage system");
        time.pause(Duration.ofMinutes(6)); // Pinboard's posts/all gate
        dev.idiom.consistency.report.SyncReport r = app.sync().sync("pin", false, QUIET);
        assertEquals(1, r.pushedCount(), "the Pinboard edit went to Zotero: " + r.pushed());

        var data = zotero.data(key);
        assertEquals("Managing update conflicts in Bayou, a weakly connected replicated storage system", data.path("title").asText());
        assertEquals("Bayou is a replicated, weakly consistent storage system.", data.path("abstractNote").asText(), "Pinboard has no abstract");
        assertEquals("December 3, 1995", data.path("date").asText(), "the full date");
        assertEquals("ABCD2345", data.path("collections").path(0).asText());
        assertEquals("kept as is", data.path("extra").asText());
        assertEquals("Douglas", data.path("creators").path(0).path("firstName").asText());
        assertEquals("Bayou is a replicated, weakly consistent storage system.", load(idiom, id).metadata().abstractText());
    }

    @Test
    void idiomRecognisesItsOwnWritesWhenItReadsThemBack() {
        Idiom idiom = idiom();
        Application app = idiom.application();
        zoteroAccount(app);
        app.tools().accounts().put("bib", "bibsonomy", bibsonomy.uri().toString(), BibSonomyStub.USER, BibSonomyStub.KEY);
        UUID id = app.writes().create(paper("Echo"), "test").entity().id();
        app.replicas().upload(id, "zot");
        app.replicas().upload(id, "bib");
        app.sync().sync("zot", false, QUIET);
        app.sync().sync("bib", false, QUIET);
        retitle(idiom, id, "Echo, pushed");
        assertEquals(2, app.sync().pushOwed().get(PushOutcome.PUSHED));
        long head = idiom.store().headPosition();
        long zoteroWrites = writesApplied(zotero);
        long bibsonomyWrites = writesApplied(bibsonomy);

        dev.idiom.consistency.report.SyncReport z = app.sync().sync("zot", false, QUIET);
        dev.idiom.consistency.report.SyncReport b = app.sync().sync("bib", false, QUIET);
        assertEquals(0, z.pulled().count(ImportOutcome.Kind.UPDATED), "Idiom's own write read back is no remote change");
        assertEquals(0, b.pulled().count(ImportOutcome.Kind.UPDATED) + b.pulled().count(ImportOutcome.Kind.CREATED));
        assertEquals(head, idiom.store().headPosition(), "no event recorded");
        assertEquals(zoteroWrites, writesApplied(zotero), "nothing pushed back");
        assertEquals(bibsonomyWrites, writesApplied(bibsonomy));
    }

    @Test
    void anIdleFederationMakesNoRemoteWriteOverAMinuteOfPolling() {
        Idiom idiom = idiom(TestDatabase.freshUrl(), Map.of("pull-interval-ms", "5000", "check-interval-ms", "30000"));
        Application app = idiom.application();
        zoteroAccount(app);
        app.tools().accounts().put("pin", "pinboard", pinboard.uri() + "/v1/", "", PinboardStub.TOKEN);
        app.tools().accounts().put("bib", "bibsonomy", bibsonomy.uri().toString(), BibSonomyStub.USER, BibSonomyStub.KEY);
        for (int i = 0; i < 3; i++) {
            UUID id = app.writes().create(paper("Idle " + i), "test").entity().id();
            List.of("zot", "pin", "bib").forEach(a -> app.replicas().upload(id, a));
        }
        List.of("zot", "pin", "bib").forEach(a -> app.sync().sync(a, false, QUIET));
        long head = idiom.store().headPosition();
        List<StubServer> stubs = List.of(zotero, pinboard, bibsonomy);
        List<Long> writes = stubs.stream().map(ConsistencyEngineTest::writesApplied).toList();
        List<Integer> calls = stubs.stream().map(StubServer::requests).toList();

        Duration polled = Duration.ZERO;
        while (polled.compareTo(Duration.ofMinutes(1)) < 0) {
            time.pause(Duration.ofSeconds(5));
            polled = polled.plusSeconds(5);
            app.sync().runDue();
            app.sync().pushOwed();
        }
        for (int i = 0; i < stubs.size(); i++) {
            assertTrue(stubs.get(i).requests() > calls.get(i), "the minute was polled: " + stubs.get(i).log());
            assertEquals(writes.get(i), writesApplied(stubs.get(i)), "no write: " + stubs.get(i).writes());
        }
        assertEquals(head, idiom.store().headPosition(), "no event recorded");
        app.sync().report().forEach(a -> assertEquals(0, a.divergent(), a.toString()));
        app.sync().report().forEach(a -> assertEquals(3, a.inSync(), a.toString()));
    }

    @Test
    void anUploadSentAgainAfterItsAnswerWasLostMakesOneZoteroItem() {
        Idiom idiom = idiom();
        Application app = idiom.application();
        zoteroAccount(app);
        UUID id = app.writes().create(paper("Lost answer"), "test").entity().id();
        int before = zotero.size();
        zotero.beforeReply(line -> { // the item is made; no answer to this upload (nor to its own retries) reaches Idiom
            if (line.startsWith("POST ") && line.contains("/items ")) {
                throw new IllegalStateException("the answer is lost on the way");
            }
        });
        assertThrows(RuntimeException.class, () -> app.replicas().upload(id, "zot"), "the upload saw no answer");
        zotero.beforeReply(null);
        assertEquals(before + 1, zotero.size(), "Zotero made the item all the same");
        dev.idiom.events.Replica copy = app.replicas().upload(id, "zot"); // the curator tries again
        assertEquals(before + 1, zotero.size(), "sent again, the upload found the item it made: one item, not two");
        assertEquals("Lost answer", zotero.data(copy.remoteId()).path("title").asText());
        assertEquals(1, load(idiom, id).replicas().size());
    }

    @Test
    void anImportOfAnAccountAppliesTheDeletionsItMeetsAsASyncDoes() {
        Idiom idiom = idiom();
        Application app = idiom.application();
        zoteroAccount(app);
        List<String> keys = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            keys.add(zotero.addRemotely("{\"itemType\": \"journalArticle\", \"title\": \"Imported paper " + i + "\"}"));
        }
        app.imports().importAccount("zot", true, dev.idiom.consistency.report.Progress.SILENT);
        UUID gone = idiom.store().findReplica("zotero", ZoteroStub.LIBRARY, keys.getFirst()).orElseThrow();
        zotero.trash(keys.getFirst()); // deleted in Zotero between two imports: one of twelve, under the mass-delete share
        zotero.addRemotely("{\"itemType\": \"journalArticle\", \"title\": \"Imported paper 12\"}");
        var second = app.imports().importAccount("zot", false, dev.idiom.consistency.report.Progress.SILENT);
        assertEquals(1, second.count(ImportOutcome.Kind.CREATED));
        assertTrue(load(idiom, gone).replicas().isEmpty(), "the import applied the deletion, as a sync would have");
        assertEquals(0, app.sync().sync("zot", false, QUIET).unlinked(), "and the next sync has nothing left over");
    }

    @Test
    void aPreferRemotePolicySetOnAPinboardAccountLetsPinboardsValueWin() {
        Idiom idiom = idiom();
        Application app = idiom.application();
        app.tools().accounts().put("pin", "pinboard", pinboard.uri() + "/v1/", "", PinboardStub.TOKEN, null, "prefer-remote");
        UUID id = app.writes().create(paper("Bayou"), "test").entity().id();
        app.replicas().upload(id, "pin");
        time.pause(Duration.ofMinutes(6)); // Pinboard's posts/all gate
        app.sync().sync("pin", false, QUIET);
        String url = load(idiom, id).metadata().url();
        retitle(idiom, id, "Bayou, edited in Idiom");
        pinboard.retitle(url, "Bayou, edited on Pinboard");
        time.pause(Duration.ofMinutes(6));
        app.sync().sync("pin", false, QUIET);
        assertEquals("Bayou, edited on Pinboard", load(idiom, id).metadata().title(), "the Pinboard account's own policy decided");
    }

    @Test
    void anAccountWhoseScheduledPullsFailIsTriedLessOftenUntilItAnswersAgain() {
        Idiom idiom = idiom(TestDatabase.freshUrl(), Map.of("pull-interval-ms", "60000"));
        Application app = idiom.application();
        zoteroAccount(app);
        app.sync().sync("zot", false, QUIET);
        zotero.down(true);
        int before = zotero.dropped();
        time.pause(Duration.ofMinutes(1));
        app.sync().runDue();
        int perTry = zotero.dropped() - before;
        assertTrue(perTry > 0, "the first scheduled pull tried");
        for (int minute = 2; minute <= 16; minute++) {
            time.pause(Duration.ofMinutes(1));
            app.sync().runDue();
        }
        int tries = (zotero.dropped() - before) / perTry;
        // every minute would be 16 tries; after failures in a row the waits double: minutes 1, 2, 4, 8, 16
        assertTrue(tries >= 3 && tries <= 5, tries + " tries in 16 minutes of a service that was down");
        zotero.down(false);
        time.pause(Duration.ofMinutes(20));
        app.sync().runDue();
        int back = zotero.requests();
        time.pause(Duration.ofMinutes(1));
        app.sync().runDue();
        assertTrue(zotero.requests() > back, "once it answers, the account is pulled every interval again");
    }

    @Test
    void aCopyAnOlderVersionReadOtherwiseIsReadAnewOverTheDatabaseAndStaysSoAfterARestart() throws Exception {
        // given a film's entry as Better BibTeX writes it, imported, and then as an older version of Idiom had read it: a document
        Path refs = java.nio.file.Files.writeString(dir.resolve("films.bib"), """
                @video{forman1975,
                  entrysubtype = {film},
                  title = {One Flew over the Cuckoo's Nest},
                  editor = {Forman, Miloš},
                  editortype = {director},
                  date = {1975}
                }
                """);
        String db = TestDatabase.freshUrl();
        Idiom idiom = idiom(db, Map.of());
        Application app = idiom.application();
        app.tools().accounts().put("films", "bibtex", refs.toString(), "", null);
        app.sync().sync("films", false, QUIET);
        UUID id = idiom.store().findMatch(Metadata.EMPTY.with(Field.TITLE, "One Flew over the Cuckoo's Nest").with(Field.YEAR, 1975)
                .with(Field.AUTHORS, List.of(new Author("Forman", "Miloš")))).orElseThrow();
        DigitalEntity imported = load(idiom, id);
        Replica copy = imported.replicas().getFirst();
        assertEquals("motion_picture", imported.metadata().type());
        Metadata older = copy.synced().with(Field.TYPE, "document");
        idiom.store().append(id, imported.version(), List.of(
                new dev.idiom.events.NewEvent(UUID.randomUUID(), "test", new dev.idiom.events.FieldChanged(Field.TYPE, "document")),
                new dev.idiom.events.NewEvent(UUID.randomUUID(), "test", new dev.idiom.events.ReplicaLinked(copy.tool(), copy.account(), copy.remoteId(),
                        copy.remoteVersion(), older))));
        String text = java.nio.file.Files.readString(refs);

        // when this version checks the account, and again after a restart on the same database
        dev.idiom.consistency.report.CheckReport first = app.sync().check("films");
        closing.remove(idiom);
        idiom.close();
        Idiom again = idiom(db, Map.of());
        dev.idiom.consistency.report.CheckReport second = again.application().sync().check("films");
        again.application().sync().sync("films", false, QUIET);

        // then the copy was read anew once, the DE kept its type, and the file was not written
        assertEquals(1, first.reread(), first.toString());
        assertEquals(0, first.divergent() + first.reEnqueued(), first.toString());
        assertEquals(0, second.reread() + second.divergent() + second.reEnqueued(), second.toString());
        DigitalEntity de = load(again, id);
        assertEquals("document", de.metadata().type());
        assertEquals("motion_picture", de.replicas().getFirst().synced().type());
        assertEquals("document", de.replicas().getFirst().ownFields().type(), "the copy keeps its type as its own, stored with the DE");
        assertEquals(text, java.nio.file.Files.readString(refs));
    }

    @Test
    void antiEntropyRepairsAReplicaThatDivergedUnseenAndASecondPassRepairsNothing() {
        Idiom idiom = idiom();
        Application app = idiom.application();
        zoteroAccount(app);
        UUID id = app.writes().create(paper("Anti-entropy"), "test").entity().id();
        app.replicas().upload(id, "zot");
        app.sync().sync("zot", false, QUIET);
        String key = replica(load(idiom, id), "zotero").remoteId();
        zotero.editData(key, "{\"pages\": \"1--12\", \"title\": \"  Anti-entropy  \"}"); // a real edit and a whitespace-only one
        // the edit is missed: the cursor moves past it (a lost notification, a restored backup)
        dev.idiom.consistency.report.SyncReport skipped = app.sync().sync("zot", false, QUIET);
        assertEquals(1, skipped.pulled().count(ImportOutcome.Kind.UPDATED), "normally a pull sees it");
        zotero.editData(key, "{\"pages\": \"13--20\"}");
        idiom.application().tools().accounts().saveCursor("zotero", ZoteroStub.LIBRARY,
                Integer.toString(Integer.parseInt(app.tools().accounts().cursor("zotero", ZoteroStub.LIBRARY).orElseThrow()) + 1));

        dev.idiom.consistency.report.CheckReport first = app.sync().check("zot");
        assertEquals(1, first.divergent(), first.toString());
        assertEquals(1, first.repaired());
        assertEquals("13--20", load(idiom, id).metadata().pages(), "repaired through the merge");
        assertEquals("Anti-entropy", load(idiom, id).metadata().title(), "whitespace is no divergence");
        dev.idiom.consistency.report.CheckReport second = app.sync().check("zot");
        assertEquals(0, second.divergent(), second.toString());
        assertEquals(0, second.repaired() + second.reEnqueued());
        assertEquals(0, app.sync().report().getFirst().divergent());
    }

    @Test
    void theConflictListingKeepsBothValuesAcrossAllEntities() {
        Idiom idiom = idiom();
        Application app = idiom.application();
        zoteroAccount(app);
        UUID id = app.writes().create(paper("Conflicted"), "test").entity().id();
        app.replicas().upload(id, "zot");
        app.sync().sync("zot", false, QUIET);
        zotero.editData(replica(load(idiom, id), "zotero").remoteId(), "{\"title\": \"Conflicted (Zotero)\", \"pages\": \"5\"}");
        app.writes().patch(id, Map.of(Field.TITLE, "Conflicted (Idiom)", Field.VOLUME, "7"), load(idiom, id).version(), "test");
        dev.idiom.consistency.report.SyncReport r = app.sync().sync("zot", false, QUIET);
        assertEquals(1, r.pulled().conflicts());
        List<RecordedEvent> conflicts = app.sync().conflicts(0, 10);
        assertEquals(1, conflicts.size());
        var c = (dev.idiom.events.ConflictResolved) conflicts.getFirst().event();
        assertEquals("Conflicted (Zotero)", c.remoteValue());
        assertEquals("Conflicted (Idiom)", c.idiomValue());
        assertEquals("Conflicted", c.base());
        assertEquals("Conflicted (Idiom)", c.winner(), "prefer-idiom, the default");
        DigitalEntity de = load(idiom, id);
        assertEquals("5", de.metadata().pages(), "different fields: both survive");
        assertEquals("7", de.metadata().volume());
        var data = zotero.data(replica(de, "zotero").remoteId());
        assertEquals("Conflicted (Idiom)", data.path("title").asText());
        assertEquals("5", data.path("pages").asText());
        assertEquals("7", data.path("volume").asText());
    }

    @Test
    void aPeerThatIsANewInstanceAtTheSameAddressIsHeldAndReportedNotReimported() throws Exception {
        int port;
        try (java.net.ServerSocket free = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            port = free.getLocalPort();
        }
        // the operator gives both instances the same admin key from the environment: the second must
        // be refused for what it is (another library), not for a key it never issued
        Map<String, String> env = Map.of("IDIOM_SECRET_KEY", RunningIdiom.SECRET_KEY, "IDIOM_ADMIN_TOKEN", RunningIdiom.ADMIN_TOKEN);
        Idiom idiom = idiom();
        Application app = idiom.application();
        String url;
        try (IdiomServer before = IdiomServer.start(IdiomConfig.from(Map.of("port", Integer.toString(port), "db-url", TestDatabase.freshUrl(),
                "data", dir.resolve("p1").toString(), "sync-interval-ms", "0"), env, k -> null))) {
            url = before.url();
            for (int i = 0; i < 3; i++) {
                before.idiom().application().writes().create(paper("Peer paper " + i), "test");
            }
            app.tools().accounts().put("peer", "idiom", url, "", RunningIdiom.ADMIN_TOKEN);
            assertEquals(3, app.sync().sync("peer", false, QUIET).pulled().count(ImportOutcome.Kind.CREATED));
        }
        try (IdiomServer after = IdiomServer.start(IdiomConfig.from(Map.of("port", Integer.toString(port), "db-url", TestDatabase.freshUrl(),
                "data", dir.resolve("p2").toString(), "sync-interval-ms", "0"), env, k -> null))) {
            after.idiom().application().writes().create(paper("Another library's paper"), "test");
            SyncRefusedException held = assertThrows(SyncRefusedException.class, () -> app.sync().sync("peer", false, QUIET));
            assertTrue(held.getMessage().contains("new instance"), held.getMessage());
            var report = app.sync().report().getFirst();
            assertTrue(report.paused(), "held: " + report);
            assertTrue(report.held().contains("new instance"), report.held());
            assertEquals(3, report.replicas(), "nothing re-imported, nothing unlinked");
        }
    }

    @Test
    void underLastWriterWinsTheSideChangedLaterWinsAndBothValuesAreKept() {
        Idiom idiom = idiom();
        Application app = idiom.application();
        app.tools().accounts().put("zot", "zotero", zotero.uri().toString(), ZoteroStub.LIBRARY, ZoteroStub.KEY, null, "last-writer-wins");
        UUID id = app.writes().create(paper("Last writer"), "test").entity().id();
        app.replicas().upload(id, "zot");
        app.sync().sync("zot", false, QUIET);
        String key = replica(load(idiom, id), "zotero").remoteId();

        // Idiom's clock (the fake time) is months behind the stub's stamps: Zotero's edit is the later one
        retitle(idiom, id, "Last writer (Idiom)");
        zotero.editData(key, "{\"title\": \"Last writer (Zotero)\"}");
        app.sync().sync("zot", false, QUIET);
        assertEquals("Last writer (Zotero)", load(idiom, id).metadata().title());
        var first = (dev.idiom.events.ConflictResolved) app.sync().conflicts(0, 1).getFirst().event();
        assertEquals("last-writer-wins", first.policy());
        assertEquals("Last writer (Idiom)", first.idiomValue(), "the losing value is kept");

        // a year on, Idiom's edit is the later one
        time.pause(Duration.ofDays(400));
        zotero.editData(key, "{\"title\": \"Last writer 2 (Zotero)\"}");
        retitle(idiom, id, "Last writer 2 (Idiom)");
        app.sync().sync("zot", false, QUIET);
        assertEquals("Last writer 2 (Idiom)", load(idiom, id).metadata().title());
        assertEquals("Last writer 2 (Idiom)", zotero.data(key).path("title").asText(), "and it reached Zotero");
        assertEquals("Last writer 2 (Zotero)", ((dev.idiom.events.ConflictResolved) app.sync().conflicts(0, 1).getFirst().event()).remoteValue());
    }
}
