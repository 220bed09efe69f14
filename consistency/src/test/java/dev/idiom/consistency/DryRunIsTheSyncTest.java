package dev.idiom.consistency;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.idiom.consistency.report.Progress;
import dev.idiom.consistency.report.SyncPlan;
import dev.idiom.consistency.report.SyncRefusedException;
import dev.idiom.events.Author;
import dev.idiom.events.Field;
import dev.idiom.events.Metadata;
import dev.idiom.events.Outbox;
import dev.idiom.events.RecordedEvent;
import dev.idiom.events.ReplicaEvent;
import dev.idiom.events.ReplicaLinked;
import dev.idiom.events.ReplicaPushed;
import dev.idiom.events.ReplicaReread;
import dev.idiom.events.ReplicaUnlinked;
import java.nio.file.Files;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A dry run is the push decision without the run: after each curator's dry run the sync it plans
 * runs, and every account is written exactly what the plan said (the copies, the changes, the
 * removals, the refusals), or, where the plan said the account would be held, no removal.
 */
final class DryRunIsTheSyncTest {
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

    private static MirrorRule rule(String mirror) throws Exception {
        return MirrorRule.of(JSON.readTree(mirror), null);
    }

    private static String zoteroItem(String title) {
        return "{\"itemType\":\"journalArticle\",\"title\":\"" + title + "\",\"creators\":[{\"creatorType\":\"author\",\"firstName\":\"Alan\","
                + "\"lastName\":\"Demers\"}],\"date\":\"1987\",\"url\":\"https://example.org/" + title.hashCode() + "\",\"tags\":[],\"collections\":[],\"relations\":{}}";
    }

    /** What one account was written, by DE. */
    private record Written(Set<UUID> copies, Set<UUID> updates, Set<UUID> removals, Set<UUID> refused) {
        Written() {
            this(new HashSet<>(), new HashSet<>(), new HashSet<>(), new HashSet<>());
        }
    }

    /**
     * When a curator asks for a dry run of {@code account}'s sync and then syncs it, expect every
     * account written what the plan said. Returns the plan.
     */
    private SyncPlan planThenSync(String account) {
        SyncPlan plan = f.engine.dryRun().plan(account);
        long head = f.store.headPosition();
        Set<String> parkedBefore = parked();
        try {
            f.engine.sync().sync(account, false, Progress.SILENT);
        } catch (SyncRefusedException held) {
            assertNotNull(plan.writes().stream().filter(w -> w.name().equals(account)).findFirst().orElseThrow().held,
                    "the sync was refused (" + held.getMessage() + ") where the plan said nothing would be held");
        }
        Map<String, Written> written = writtenSince(head);
        for (String row : parked()) {
            if (!parkedBefore.contains(row)) {
                String[] parts = row.split("\\|");
                written.computeIfAbsent(parts[0], k -> new Written()).refused().add(UUID.fromString(parts[1]));
            }
        }
        for (SyncPlan.Writes w : plan.writes()) {
            Written got = written.getOrDefault(w.name(), new Written());
            assertEquals(w.copies.count(), got.copies().size(), w.name() + ": copies planned " + w.copies.samples() + ", made " + titles(got.copies()));
            assertEquals(w.updates.count(), got.updates().size(), w.name() + ": changes planned " + w.updates.samples() + ", written " + titles(got.updates()));
            assertEquals(w.held == null ? w.removals.count() : 0, got.removals().size(), w.name() + ": removals planned " + w.removals.samples()
                    + (w.held == null ? "" : " (held: " + w.held + ")") + ", made " + titles(got.removals()));
            assertEquals(w.refused.count(), got.refused().size(), w.name() + ": refusals planned " + w.refused.samples() + ", parked " + titles(got.refused()));
        }
        return plan;
    }

    private Map<String, Written> writtenSince(long head) {
        Map<String, String> names = new HashMap<>();
        f.tools.configured().forEach(a -> names.put(a.kind() + "|" + a.account(), a.name()));
        Map<String, Written> out = new HashMap<>();
        for (RecordedEvent e : f.store.after(head, Integer.MAX_VALUE)) {
            if (!(e.event() instanceof ReplicaEvent r)) {
                continue;
            }
            Written w = out.computeIfAbsent(names.get(r.tool() + "|" + (r.account() == null ? "" : r.account())), k -> new Written());
            boolean byRuleOrDeletion = e.source().startsWith("mirror:") || e.source().startsWith("deleted:");
            switch (e.event()) {
                case ReplicaLinked l when byRuleOrDeletion -> w.copies().add(e.entityId());
                case ReplicaPushed p -> w.updates().add(e.entityId());
                case ReplicaReread rr when e.source().startsWith("sync:push:") -> w.updates().add(e.entityId());
                case ReplicaUnlinked u when byRuleOrDeletion -> w.removals().add(e.entityId());
                default -> { }
            }
        }
        return out;
    }

    /** The parked rows, as "account name|entity|the DE's version owed" (a row parked again after its DE changed is a new refusal). */
    private Set<String> parked() {
        Map<String, String> names = new HashMap<>();
        f.tools.configured().forEach(a -> names.put(a.kind() + "|" + a.account(), a.name()));
        Set<String> out = new HashSet<>();
        for (Outbox.Entry e : f.outbox.list(null, null, Integer.MAX_VALUE)) {
            if (e.parked()) {
                out.add(names.get(e.tool() + "|" + e.account()) + "|" + e.entityId() + "|" + e.entityVersion());
            }
        }
        return out;
    }

    private List<String> titles(Set<UUID> ids) {
        return ids.stream().map(id -> f.load(id).metadata().title()).sorted().toList();
    }

    private UUID byTitle(String title) {
        List<UUID> found = new java.util.ArrayList<>();
        f.store.foldAll(de -> {
            if (title.equals(de.metadata().title())) {
                found.add(de.id());
            }
        });
        return found.getFirst();
    }

    private static SyncPlan.Writes of(SyncPlan plan, String name) {
        return plan.writes().stream().filter(w -> w.name().equals(name)).findFirst().orElseThrow();
    }

    @Test
    void everyDryRunPlansExactlyWhatTheSyncThenWrites() throws Exception {
        // given a Zotero library, Pinboard mirroring everything (it refuses a record without a URL), BibSonomy the DEs tagged "ml",
        // the file what comes from Zotero
        f.tools.rules.put("pin", rule("\"all\""));
        f.tools.rules.put("bib", rule("{\"tags\": [\"ml\"]}"));
        f.tools.rules.put("file", rule("{\"from\": [\"zot\"]}"));
        for (String t : List.of("Epidemic algorithms", "Bayou", "Coda")) {
            f.zotero.addRemotely(zoteroItem(t));
        }
        UUID noUrl = f.entered(paper("A paper without a URL", "ml"));
        UUID leaving = f.entered(paper("Learning to rank", "ml").with(Field.URL, "https://example.org/rank"));
        for (int i = 0; i < 10; i++) { // enough BibSonomy copies that one removal is within the mass-delete share
            f.entered(paper("Ranking, part " + i, "ml").with(Field.URL, "https://example.org/rank/" + i));
        }
        // when: the first sync (copies everywhere, one refused by Pinboard)
        SyncPlan first = planThenSync("zot");
        assertEquals(3, first.pulled().created.count());
        assertEquals(1, of(first, "pin").refused.count(), of(first, "pin").refused.samples().toString());
        assertTrue(of(first, "bib").copies.count() >= 12, "the DEs tagged ml go to BibSonomy");
        assertTrue(f.outbox.list(null, null, 1000).stream().anyMatch(e -> e.parked() && e.entityId().equals(noUrl)), "refused and parked");

        // when: a rule that adds and removes copies (one DE leaves "ml", another joins), a change in Idiom, a change in Zotero
        f.editedInIdiom(leaving, Field.TAGS, new TreeSet<>(Set.of("ranking")));
        UUID bayou = byTitle("Bayou");
        f.editedInIdiom(bayou, Field.TAGS, new TreeSet<>(Set.of("ml")));
        f.editedInIdiom(noUrl, Field.VOLUME, "9");
        String coda = f.replica(byTitle("Coda"), "zotero").remoteId();
        f.zotero.editRemotely(coda, "Coda, revised");
        UUID epidemic = byTitle("Epidemic algorithms");
        f.zotero.editRemotely(f.replica(epidemic, "zotero").remoteId(), "volume", "12"); // a field the file keeps and Pinboard does not
        SyncPlan second = planThenSync("zot");
        assertEquals(1, of(second, "bib").removals.count(), "the DE that left ml leaves BibSonomy");
        assertEquals(1, of(second, "bib").copies.count(), "the DE that joined ml comes to BibSonomy");
        assertEquals(Set.of("Bayou", "Coda, revised", "Epidemic algorithms"), Set.copyOf(of(second, "file").updates.samples()), "the changes go on to the file");
        assertEquals(Set.of("Bayou", "Coda, revised", "Learning to rank"), Set.copyOf(of(second, "pin").updates.samples()),
                "Pinboard keeps no volume: the change of Epidemic algorithms is not owed there");

        // when: a rule that would remove too many copies (the mass-delete guard holds the account)
        f.tools.rules.put("bib", rule("{\"tags\": [\"nothing-has-this\"]}"));
        SyncPlan third = planThenSync("bib");
        assertNotNull(of(third, "bib").held, "the plan says BibSonomy would be held");
        f.tools.rules.put("bib", rule("{\"tags\": [\"ml\"]}"));

        // when: nothing changed anywhere, the file is read and written not at all
        String bytes = Files.readString(f.bibFile);
        SyncPlan idle = planThenSync("file");
        for (SyncPlan.Writes w : idle.writes()) {
            assertEquals(List.of(0, 0, 0), List.of(w.copies.count(), w.updates.count(), w.removals.count()), w.name() + " is owed nothing");
        }
        assertEquals(bytes, Files.readString(f.bibFile), "an idle sync leaves the file byte for byte");
    }
}
