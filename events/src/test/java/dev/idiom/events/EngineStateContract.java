package dev.idiom.events;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idiom.events.accounts.MirrorPlan;
import dev.idiom.events.accounts.StoredToolAccount;
import dev.idiom.events.accounts.SyncState;
import dev.idiom.events.accounts.ToolAccountRepository;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/**
 * The contract of the engine's other state, for every adapter: the outbox (claims under a lease,
 * paused accounts left, a newer change kept owed) and the tool accounts (their engine state updated
 * under a lock, secrets resealed all or none, a mirror plan that never goes back). The MariaDB
 * adapters and the in-memory ones the engine's decision tests use both pass it.
 */
public abstract class EngineStateContract {
    protected final TestClock clock = new TestClock(Instant.parse("2026-03-01T10:00:00.123456Z"));

    protected abstract Outbox outbox();

    protected abstract ToolAccountRepository accounts();

    private static Outbox.Owed owed(UUID id, String tool, String account, int version) {
        return new Outbox.Owed(id, tool, account, "r-" + id, version);
    }

    @Test
    void aClaimLeasesDueRowsOnceLeavesPausedAccountsAndTheLeaseRunsOut() {
        UUID a = UUID.randomUUID();
        UUID b = UUID.randomUUID();
        outbox().owe(List.of(owed(a, "zotero", "users/1", 3), owed(b, "pinboard", "me", 2)));
        accounts().updateSyncState("pinboard", "me", s -> s.paused(true), clock.instant());

        assertEquals(List.of("zotero users/1"), outbox().dueAccounts().stream().map(x -> x[0] + " " + x[1]).toList(), "a paused account is not due");
        List<Outbox.Entry> claimed = outbox().claim("node-1", 10, Duration.ofSeconds(30), null, null);
        assertEquals(List.of(a), claimed.stream().map(Outbox.Entry::entityId).toList());
        assertEquals(3, claimed.getFirst().entityVersion());
        assertTrue(outbox().claim("node-2", 10, Duration.ofSeconds(30), "zotero", "users/1").isEmpty(), "leased to node-1");
        assertTrue(outbox().dueAccounts().isEmpty());

        clock.advance(Duration.ofSeconds(31));
        assertEquals(1, outbox().claim("node-2", 10, Duration.ofSeconds(30), "zotero", "users/1").size(), "a node that died holding it delays it by the lease");
        accounts().updateSyncState("pinboard", "me", s -> s.paused(false), clock.instant());
        assertEquals(List.of(b), outbox().claim("node-2", 10, Duration.ofSeconds(30), null, null).stream().map(Outbox.Entry::entityId).toList());
    }

    @Test
    void aCopyIsTriedOnceItsRowWasClaimedOrFailedAndOnlyCopiesOfThatAccountCount() {
        UUID claimedThenDied = UUID.randomUUID();
        UUID failed = UUID.randomUUID();
        UUID untouched = UUID.randomUUID();
        UUID push = UUID.randomUUID();
        outbox().owe(List.of(new Outbox.Owed(claimedThenDied, "bibtex", "library.bib", Outbox.NEW_COPY, 1),
                new Outbox.Owed(push, "bibtex", "library.bib", "demers1987", 1)));
        assertEquals(java.util.Set.of(), outbox().copiesTried("bibtex", "library.bib"), "nothing claimed yet");
        outbox().claim("node-1", 10, Duration.ofSeconds(30), "bibtex", "library.bib"); // node-1 dies holding both
        outbox().owe(List.of(new Outbox.Owed(failed, "bibtex", "library.bib", Outbox.NEW_COPY, 1),
                new Outbox.Owed(untouched, "bibtex", "library.bib", Outbox.NEW_COPY, 1), new Outbox.Owed(failed, "zotero", "users/1", Outbox.NEW_COPY, 1)));
        clock.advance(Duration.ofSeconds(31));
        Outbox.Entry f = outbox().claim("node-2", 10, Duration.ofSeconds(30), "bibtex", "library.bib").stream()
                .filter(e -> e.entityId().equals(failed)).findFirst().orElseThrow();
        outbox().retryAt(f, clock.instant().plusSeconds(5), "answer lost");
        outbox().claim("node-3", 0, Duration.ofSeconds(30), "bibtex", "library.bib");
        assertTrue(outbox().copiesTried("bibtex", "library.bib").containsAll(java.util.Set.of(claimedThenDied, failed)));
        assertFalse(outbox().copiesTried("bibtex", "library.bib").contains(push), "a push to an existing copy is no copy");
        assertEquals(java.util.Set.of(), outbox().copiesTried("zotero", "users/1"), "another account's copy was not tried");
    }

    @Test
    void anAcknowledgementOfAnOlderVersionKeepsTheRowOwedAndDueAtOnce() {
        UUID a = UUID.randomUUID();
        outbox().owe(List.of(owed(a, "zotero", "users/1", 1)));
        Outbox.Entry pushing = outbox().claim("n", 1, Duration.ofMinutes(5), null, null).getFirst();
        outbox().owe(List.of(owed(a, "zotero", "users/1", 2))); // a newer change while the push of version 1 runs
        outbox().acknowledged(pushing, 1);
        List<Outbox.Entry> again = outbox().claim("n", 1, Duration.ofMinutes(5), null, null);
        assertEquals(1, again.size(), "still owed for version 2, and no longer leased");
        assertEquals(2, again.getFirst().entityVersion());
        outbox().acknowledged(again.getFirst(), 2);
        assertEquals(List.of(), outbox().list(null, null, 10));
    }

    @Test
    void aRetryWaitsAndCountsAParkedRowWaitsForACuratorAndTheListShowsParkedFirst() {
        UUID a = UUID.randomUUID();
        UUID b = UUID.randomUUID();
        outbox().owe(List.of(owed(a, "zotero", "users/1", 1)));
        clock.advance(Duration.ofSeconds(1));
        outbox().owe(List.of(owed(b, "zotero", "users/1", 1)));
        List<Outbox.Entry> claimed = outbox().claim("n", 10, Duration.ofMinutes(5), null, null);
        Outbox.Entry first = claimed.stream().filter(e -> e.entityId().equals(a)).findFirst().orElseThrow();
        Outbox.Entry second = claimed.stream().filter(e -> e.entityId().equals(b)).findFirst().orElseThrow();
        outbox().retryAt(first, clock.instant().plusSeconds(60), "503 from the tool");
        outbox().park(second, "the tool refused: a title is required");

        List<Outbox.Entry> listed = outbox().list("zotero", "users/1", 10);
        assertEquals(List.of(b, a), listed.stream().map(Outbox.Entry::entityId).toList(), "parked first, then by when they were enqueued");
        assertTrue(listed.getFirst().parked());
        assertEquals("the tool refused: a title is required", listed.getFirst().lastError());
        assertEquals(1, listed.get(1).attempts());
        assertEquals(new Outbox.Depth(1, 1, listed.get(1).enqueuedAt()), outbox().depth().get("zotero:users/1"));
        assertTrue(outbox().claim("n", 10, Duration.ofMinutes(5), null, null).isEmpty(), "the retry is not due yet, the parked row never");

        assertEquals(1, outbox().unpark("zotero", "users/1"));
        Outbox.Entry retried = outbox().claim("n", 10, Duration.ofMinutes(5), null, null).getFirst();
        assertEquals(b, retried.entityId());
        assertEquals(0, retried.attempts(), "a curator's retry starts the count again");
        clock.advance(Duration.ofSeconds(61));
        assertEquals(List.of(a), outbox().claim("n", 10, Duration.ofMinutes(5), null, null).stream().map(Outbox.Entry::entityId).toList());
    }

    @Test
    void rowsDoneForGoodGoWhateverTheirVersionAndForgettingAnAccountTakesOnlyItsRows() {
        UUID a = UUID.randomUUID();
        UUID b = UUID.randomUUID();
        outbox().owe(List.of(owed(a, "zotero", "users/1", 5), owed(b, "zotero", "users/1", 1), owed(a, "bibtex", "refs.bib", 1)));
        outbox().doneAll(outbox().list("zotero", "users/1", 10).stream().filter(e -> e.entityId().equals(a)).toList());
        assertEquals(List.of(b), outbox().list("zotero", "users/1", 10).stream().map(Outbox.Entry::entityId).toList());
        assertEquals(1, outbox().forget("zotero", "users/1"));
        assertEquals(List.of("bibtex"), outbox().list(null, null, 10).stream().map(Outbox.Entry::tool).toList());
    }

    private static StoredToolAccount account(String name, String secret, Instant at) {
        return new StoredToolAccount(name, "zotero", "https://api.zotero.org", "users/" + name.length(), secret, "private", "prefer-idiom", at, false);
    }

    @Test
    void accountsListByNameASaveReplacesAndRemovingForgetsTheirState() {
        accounts().save(account("zeta", null, clock.instant()));
        accounts().save(account("alpha", "sealed-1", clock.instant()));
        accounts().save(account("alpha", "sealed-2", clock.instant()));
        assertEquals(List.of("alpha", "zeta"), accounts().list().stream().map(StoredToolAccount::name).toList());
        assertEquals("sealed-2", accounts().find("alpha").orElseThrow().sealedSecret());

        accounts().saveCursor("zotero", "users/5", "v42", clock.instant());
        accounts().updateSyncState("zotero", "users/5", s -> s.held("a mass deletion"), clock.instant());
        accounts().saveMirrorPlan("zotero", "users/5", new MirrorPlan("rule-1", 10, 20), clock.instant());
        assertTrue(accounts().remove("alpha", "zotero", "users/5"));
        assertTrue(accounts().find("alpha").isEmpty());
        assertTrue(accounts().cursor("zotero", "users/5").isEmpty());
        assertEquals(SyncState.initial("zotero", "users/5"), accounts().syncState("zotero", "users/5"));
        assertTrue(accounts().mirrorPlan("zotero", "users/5").isEmpty());
        assertFalse(accounts().remove("alpha", "zotero", "users/5"));
    }

    @Test
    void concurrentUpdatesOfAnAccountsStateLoseNone() throws Exception {
        int writers = 8;
        try (ExecutorService pool = Executors.newFixedThreadPool(writers)) {
            List<Future<?>> done = new java.util.ArrayList<>();
            for (int i = 0; i < writers; i++) {
                done.add(pool.submit(() -> accounts().updateSyncState("pinboard", "me", s -> s.checked(clock.instant(), s.divergent() + 1), clock.instant())));
            }
            for (Future<?> f : done) {
                f.get();
            }
        }
        assertEquals(writers, accounts().syncState("pinboard", "me").divergent());
        assertEquals(List.of("pinboard"), accounts().syncStates().stream().map(SyncState::kind).toList());
    }

    @Test
    void secretsAreResealedAllOrNone() {
        accounts().save(account("one", "s1", clock.instant()));
        accounts().save(account("two", "s2", clock.instant()));
        accounts().save(account("none", null, clock.instant()));
        assertThrows(IllegalStateException.class, () -> accounts().resealSecrets(a -> {
            if (a.name().equals("two")) {
                throw new IllegalStateException("the old key does not open it");
            }
            return "new-" + a.sealedSecret();
        }, clock.instant()));
        assertEquals(List.of("s1", "s2"), List.of(accounts().find("one").orElseThrow().sealedSecret(), accounts().find("two").orElseThrow().sealedSecret()));
        assertEquals(2, accounts().resealSecrets(a -> "new-" + a.sealedSecret(), clock.instant()));
        assertEquals("new-s2", accounts().find("two").orElseThrow().sealedSecret());
        assertEquals(null, accounts().find("none").orElseThrow().sealedSecret());
    }

    @Test
    void aMirrorPlanNeverGoesBackUnderOneRuleAndANewRuleStartsAgain() {
        accounts().saveMirrorPlan("bibtex", "refs.bib", new MirrorPlan("rule-1", 50, 100), clock.instant());
        accounts().saveMirrorPlan("bibtex", "refs.bib", new MirrorPlan("rule-1", 30, 200, 40), clock.instant()); // a node behind
        assertEquals(new MirrorPlan("rule-1", 50, 100, 40), accounts().mirrorPlan("bibtex", "refs.bib").orElseThrow());
        accounts().saveMirrorPlan("bibtex", "refs.bib", new MirrorPlan("rule-2", 0, 300), clock.instant());
        assertEquals(new MirrorPlan("rule-2", 0, 300, 0), accounts().mirrorPlan("bibtex", "refs.bib").orElseThrow());
    }
}
