package dev.idiom.services;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idiom.consistency.report.PushOutcome;
import dev.idiom.db.TestDatabase;
import dev.idiom.events.Author;
import dev.idiom.events.DigitalEntity;
import dev.idiom.events.Field;
import dev.idiom.events.Metadata;
import dev.idiom.events.Replica;
import dev.idiom.services.app.Application;
import dev.idiom.wrappers.bibsonomy.BibSonomyStub;
import dev.idiom.wrappers.zotero.ZoteroStub;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The consistency engine's push side on the real store, against the strict Zotero and BibSonomy stubs. */
class ReplicaSyncTest {
    @TempDir
    Path dir;
    private final ZoteroStub zotero = new ZoteroStub();
    private final BibSonomyStub bibsonomy = new BibSonomyStub();

    @AfterEach
    void stop() {
        zotero.close();
        bibsonomy.close();
    }

    private Idiom idiom() {
        // no background rounds: the test runs them, so what happened when is certain
        Idiom idiom = Idiom.start(IdiomConfig.from(Map.of("db-url", TestDatabase.freshUrl(), "data", dir.toString(), "sync-interval-ms", "0",
                "local-tool-hosts", "true"),
                Map.of("IDIOM_SECRET_KEY", RunningIdiom.SECRET_KEY), k -> null));
        idiom.application().tools().accounts().put("zot", "zotero", zotero.uri().toString(), ZoteroStub.LIBRARY, ZoteroStub.KEY);
        idiom.application().tools().accounts().put("bib", "bibsonomy", bibsonomy.uri().toString(), BibSonomyStub.USER, BibSonomyStub.KEY);
        return idiom;
    }

    private static final Metadata PAPER = Metadata.EMPTY.with(Field.TYPE, "article-journal").with(Field.TITLE, "Epidemic algorithms")
            .with(Field.AUTHORS, List.of(new Author("Demers", "Alan"))).with(Field.YEAR, 1987).with(Field.VENUE, "PODC")
            .with(Field.ABSTRACT, "Anti-entropy and rumor mongering.").with(Field.TAGS, new TreeSet<>(Set.of("gossip")));

    private static UUID uploaded(Application app) {
        UUID id = app.writes().create(PAPER, "test").entity().id();
        app.replicas().upload(id, "zot");
        app.replicas().upload(id, "bib");
        return id;
    }

    private static DigitalEntity load(Idiom idiom, UUID id) {
        return idiom.store().load(id).orElseThrow();
    }

    private static Replica replica(DigitalEntity de, String tool) {
        return de.replicas().stream().filter(r -> r.tool().equals(tool)).findFirst().orElseThrow();
    }

    @Test
    void aChangeInIdiomReachesEveryReplicaOnceAndAnIdleRoundMakesNoRemoteCall() {
        try (Idiom idiom = idiom()) {
            Application app = idiom.application();
            UUID id = uploaded(app);
            assertEquals(Map.of(), app.sync().pushOwed(), "an upload owes nothing: the replicas hold the DE");

            app.writes().patch(id, Map.of(Field.TITLE, "Epidemic algorithms for replicated database maintenance"), load(idiom, id).version(), "test");
            app.writes().patch(id, Map.of(Field.VOLUME, "6"), load(idiom, id).version(), "test");
            assertEquals(Map.of(PushOutcome.PUSHED, 2), app.sync().pushOwed(), "two edits, one push per replica");

            DigitalEntity de = load(idiom, id);
            String key = replica(de, "zotero").remoteId();
            assertEquals("Epidemic algorithms for replicated database maintenance", zotero.data(key).path("title").asText());
            assertEquals("6", zotero.data(key).path("volume").asText());
            Metadata atBibSonomy = app.tools().open("bib").fetch(replica(de, "bibsonomy").remoteId()).orElseThrow().metadata();
            assertEquals("Epidemic algorithms for replicated database maintenance", atBibSonomy.title(), "re-keyed and found under its new hash");
            assertEquals(1, de.replicas().stream().filter(r -> r.tool().equals("bibsonomy")).count(), "the old hash was replaced, not kept beside");

            int zoteroCalls = zotero.requests();
            int bibsonomyCalls = bibsonomy.requests();
            assertEquals(Map.of(), app.sync().pushOwed());
            assertEquals(zoteroCalls, zotero.requests(), "idle: no call to Zotero");
            assertEquals(bibsonomyCalls, bibsonomy.requests(), "idle: no call to BibSonomy");
        }
    }

    @Test
    void aRemoteEditMetDuringAPushIsMergedFirstAndBothEditsReachEveryReplica() {
        try (Idiom idiom = idiom()) {
            Application app = idiom.application();
            UUID id = uploaded(app);
            String key = replica(load(idiom, id), "zotero").remoteId();
            zotero.editData(key, "{\"pages\": \"1--12\"}"); // someone edits the item in Zotero
            app.writes().patch(id, Map.of(Field.TITLE, "Epidemic algorithms (revised)"), load(idiom, id).version(), "test");

            Map<PushOutcome, Integer> outcomes = new HashMap<>(app.sync().pushOwed());
            assertEquals(1, outcomes.get(PushOutcome.MERGED_REMOTE_CHANGES), outcomes.toString());

            DigitalEntity de = load(idiom, id);
            assertEquals("1--12", de.metadata().pages(), "Zotero's edit came into the DE");
            assertEquals("Epidemic algorithms (revised)", zotero.data(key).path("title").asText(), "Idiom's edit reached Zotero");
            assertEquals("1--12", zotero.data(key).path("pages").asText(), "and did not undo Zotero's");
            Metadata atBibSonomy = app.tools().open("bib").fetch(replica(de, "bibsonomy").remoteId()).orElseThrow().metadata();
            assertEquals("1--12", atBibSonomy.pages(), "Zotero's edit reached BibSonomy through Idiom");
            assertEquals("Epidemic algorithms (revised)", atBibSonomy.title());
            assertEquals(Map.of(), app.sync().pushOwed(), "converged: nothing more owed");
        }
    }

    @Test
    void aRecordTheToolRefusesIsParkedWithTheReasonAndTheOthersStillGo() {
        try (Idiom idiom = idiom()) {
            Application app = idiom.application();
            UUID id = uploaded(app);
            Map<Field, Object> noYear = new HashMap<>();
            noYear.put(Field.YEAR, null); // cleared
            app.writes().patch(id, noYear, load(idiom, id).version(), "test");
            Map<PushOutcome, Integer> outcomes = app.sync().pushOwed();
            assertEquals(1, outcomes.get(PushOutcome.PARKED), outcomes.toString());
            assertEquals(1, outcomes.get(PushOutcome.PUSHED), "Zotero takes a record without a year");
            var parked = app.sync().owed(10).stream().filter(e -> e.parked()).toList();
            assertEquals(1, parked.size());
            assertEquals("bibsonomy", parked.getFirst().tool());
            assertTrue(parked.getFirst().lastError().contains("year"), parked.getFirst().lastError());
            assertEquals(Map.of(), app.sync().pushOwed(), "a parked push is not retried by itself");

            app.writes().patch(id, Map.of(Field.YEAR, 1988), load(idiom, id).version(), "test");
            assertEquals(Map.of(PushOutcome.PUSHED, 2), app.sync().pushOwed(), "a new change un-parks it");
        }
    }
}
