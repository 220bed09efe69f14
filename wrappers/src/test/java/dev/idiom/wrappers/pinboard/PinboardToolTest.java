package dev.idiom.wrappers.pinboard;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idiom.events.Field;
import dev.idiom.events.Metadata;
import dev.idiom.wrappers.AnnotationTool;
import dev.idiom.wrappers.AnnotationToolContract;
import dev.idiom.wrappers.FakeTime;
import dev.idiom.wrappers.RemoteChangedException;
import dev.idiom.wrappers.RemoteRecord;
import dev.idiom.wrappers.StubServer.Reply;
import dev.idiom.wrappers.ToolAuthException;
import dev.idiom.wrappers.ToolException;
import dev.idiom.wrappers.ChangePage;
import dev.idiom.wrappers.http.CallBounds;
import dev.idiom.wrappers.http.CallGate;
import dev.idiom.wrappers.http.ToolHosts;
import dev.idiom.wrappers.http.ToolHttp;
import java.time.Instant;
import java.util.TreeSet;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class PinboardToolTest extends AnnotationToolContract {
    private final FakeTime time = new FakeTime();
    private final PinboardStub stub = new PinboardStub(time);
    private final List<Duration> waits = time.waits;

    @AfterEach
    void stop() {
        stub.close();
    }

    private PinboardTool pinboard(String token) {
        // waits are recorded, not slept, so the test sees Pinboard's pacing without taking minutes
        return new PinboardTool(stub.uri().resolve("/v1/"), token, new ToolHttp("Pinboard", PinboardTool.LIMITS, time, time, 4), time, time);
    }

    @Override
    protected AnnotationTool tool() {
        return pinboard(PinboardStub.TOKEN);
    }

    @Override
    protected Set<Field> fieldsKept() {
        return EnumSet.of(Field.TYPE, Field.TITLE, Field.URL, Field.TAGS, Field.NOTES);
    }

    @Override
    protected boolean preciseChanges() {
        return false;
    }

    @Override
    protected Metadata sample(int i) {
        return super.sample(i).with(Field.TYPE, "webpage");
    }

    @Test
    void callsAreSpacedThreeSecondsAndPostsAllFiveMinutes() {
        PinboardTool p = pinboard(PinboardStub.TOKEN);
        p.create(sample(1));
        String cursor = p.changedSince(null).cursor();
        p.create(sample(2));
        p.changedSince(cursor);
        assertTrue(waits.stream().filter(w -> w.equals(Duration.ofSeconds(3))).count() >= 5, "3 s between calls: " + waits);
        assertTrue(waits.stream().allMatch(w -> w.compareTo(Duration.ofSeconds(3)) >= 0), "never closer than 3 s: " + waits);
        assertTrue(waits.stream().anyMatch(w -> w.toSeconds() > 200), "posts/all at most every 5 minutes: " + waits);
    }

    @Test
    void aRemoteEditIsDetectedBeforeOverwriting() {
        PinboardTool p = pinboard(PinboardStub.TOKEN);
        RemoteRecord r = p.create(sample(1));
        stub.retitle(r.remoteId(), "Edited on Pinboard");
        assertThrows(RemoteChangedException.class, () -> p.update(r, sample(1)));
    }

    @Test
    void tooManyRequestsIsBackedOffAndABadTokenStops() {
        stub.failNext(Reply.of(429, "Too Many Requests"));
        assertTrue(pinboard(PinboardStub.TOKEN).fetch("https://example.org/none").isEmpty());
        assertTrue(waits.stream().anyMatch(w -> w.toMillis() >= 1_000), "backed off: " + waits);
        assertThrows(ToolAuthException.class, () -> pinboard("curator:WRONG").changedSince(null));
    }

    private static final String URL = "https://example.org/crdt";

    @Test
    void aPrivateBookmarkMarkedToReadKeepsPrivacyToReadAndDateThroughAnUpdate() {
        PinboardTool p = pinboard(PinboardStub.TOKEN);
        stub.put(URL, "CRDTs", "", "crdt", Instant.parse("2019-05-04T10:00:00Z"), "no", "yes");
        RemoteRecord read = p.fetch(URL).orElseThrow();
        p.update(read, read.metadata().with(Field.TITLE, "CRDTs, annotated").withTag("replication"));
        var post = stub.post(URL);
        assertEquals("CRDTs, annotated", post.path("description").asText());
        assertEquals("no", post.path("shared").asText(), "still private");
        assertEquals("yes", post.path("toread").asText(), "still to read");
        assertEquals("2019-05-04T10:00:00Z", post.path("time").asText(), "its date kept");
        assertEquals("crdt replication", post.path("tags").asText());
    }

    @Test
    void newBookmarksArePrivateUnlessTheAccountSaysOtherwise() {
        pinboard(PinboardStub.TOKEN).create(sample(1));
        assertEquals("no", stub.post(sample(1).url()).path("shared").asText());
        new PinboardTool(stub.uri().resolve("/v1/"), PinboardStub.TOKEN, new ToolHttp("Pinboard", PinboardTool.LIMITS, time, time, 4), time, time,
                false).create(sample(2));
        assertEquals("yes", stub.post(sample(2).url()).path("shared").asText());
    }

    @Test
    void aSpaceInATagTravelsAsAnUnderscoreAndComesBackAsASpaceThroughTheSyncedTagsWhileAnUnderscoreOfItsOwnStays() {
        PinboardTool p = pinboard(PinboardStub.TOKEN);
        Metadata sent = sample(1).with(Field.TAGS, new TreeSet<>(Set.of("machine learning", ".private", "to_read")));
        RemoteRecord r = p.create(sent);
        assertEquals(".private machine_learning to_read", stub.post(r.remoteId()).path("tags").asText());
        Metadata read = p.fetch(r.remoteId()).orElseThrow().metadata();
        assertEquals(new TreeSet<>(Set.of("machine_learning", ".private", "to_read")), read.tags(), "as Pinboard has them");
        assertEquals(sent.tags(), p.tagsAsRead(read, sent).tags(), "in Idiom's words, through what was written");
        assertEquals(read.tags(), p.tagsAsRead(read, null).tags(), "a bookmark Idiom never wrote: its tags as they are");
    }

    @Test
    void tagsPinboardCannotHoldAreLeftOutOfTheCopyNotTheReasonToRefuseIt() {
        PinboardTool p = pinboard(PinboardStub.TOKEN);
        java.util.SortedSet<String> many = new TreeSet<>();
        for (int i = 0; i < 120; i++) {
            many.add(String.format("t%03d", i));
        }
        many.add("Neoplasms, Experimental");
        Metadata held = p.writable(sample(1).with(Field.TAGS, many), null);
        assertEquals(100, held.tags().size());
        assertTrue(held.tags().stream().noneMatch(t -> t.contains(",")));
        assertTrue(held.tags().contains("t000") && !held.tags().contains("t119"));
        Metadata known = sample(1).with(Field.TAGS, new TreeSet<>(Set.of("t119")));
        assertTrue(p.writable(sample(1).with(Field.TAGS, many), known).tags().contains("t119"), "the tags the copy has are kept first");
    }

    @Test
    void whatPinboardWouldRefuseIsRefusedBeforeSendingWithTheRule() {
        PinboardTool p = pinboard(PinboardStub.TOKEN);
        assertTrue(assertThrows(ToolException.class, () -> p.create(sample(1).withTag("a,b"))).getMessage().contains("commas"));
        assertTrue(assertThrows(ToolException.class, () -> p.create(sample(1).with(Field.TITLE, "t".repeat(256)))).getMessage().contains("255"));
        TreeSet<String> many = new TreeSet<>();
        for (int i = 0; i < 101; i++) {
            many.add("tag" + i);
        }
        assertTrue(assertThrows(ToolException.class, () -> p.create(sample(1).with(Field.TAGS, many))).getMessage().contains("100"));
        assertTrue(assertThrows(ToolException.class, () -> p.create(sample(1).with(Field.URL, "gopher://old.example/"))).getMessage().contains("schemes"));
        assertTrue(p.fetch(sample(1).url()).isEmpty(), "nothing was sent");
    }

    @Test
    void aChangedUrlMovesTheBookmarkKeepingItsDateAndPrivacy() {
        PinboardTool p = pinboard(PinboardStub.TOKEN);
        stub.put(URL, "CRDTs", "notes", "crdt", Instant.parse("2019-05-04T10:00:00Z"), "no", "no");
        RemoteRecord read = p.fetch(URL).orElseThrow();
        RemoteRecord moved = p.update(read, read.metadata().with(Field.URL, "https://example.org/crdt-v2"));
        assertEquals("https://example.org/crdt-v2", moved.remoteId());
        assertTrue(p.fetch(URL).isEmpty(), "the old URL is gone, not left behind");
        var post = stub.post("https://example.org/crdt-v2");
        assertEquals("2019-05-04T10:00:00Z", post.path("time").asText());
        assertEquals("no", post.path("shared").asText());
        assertEquals("notes", post.path("extended").asText());
    }

    @Test
    void postsAllIsAFullSnapshotSoADeletedBookmarkIsMissingFromACompletePage() {
        PinboardTool p = pinboard(PinboardStub.TOKEN);
        p.create(sample(1));
        p.create(sample(2));
        ChangePage first = p.changedSince(null);
        assertTrue(first.complete());
        stub.remove(sample(1).url());
        ChangePage second = p.changedSince(first.cursor());
        assertTrue(second.complete());
        assertEquals(List.of(sample(2).url()), second.records().stream().map(RemoteRecord::remoteId).toList());
    }

    @Test
    void theFiveMinuteGateTravelsInTheCursorAcrossRestarts() {
        PinboardTool p = pinboard(PinboardStub.TOKEN);
        p.create(sample(1));
        String cursor = p.changedSince(null).cursor();
        p.create(sample(2));
        waits.clear();
        pinboard(PinboardStub.TOKEN).changedSince(cursor); // a new client, as after a restart: only the cursor knows
        assertTrue(waits.stream().anyMatch(w -> w.toSeconds() > 200), "the gate was kept: " + waits);
    }

    /** A node of the service: its own HTTP client (its own spacing), the gate it shares with the other nodes (the database's, in the service). */
    private PinboardTool node(CallGate shared) {
        return new PinboardTool(stub.uri().resolve("/v1/"), PinboardStub.TOKEN, new ToolHttp("Pinboard", PinboardTool.LIMITS, time, time, 4,
                ToolHosts.ANY, CallBounds.DEFAULTS, shared), time, time);
    }

    @Test
    void twoNodesSyncingOneAccountCallASlowPostsAllNoMoreOftenThanPinboardAllowsAndNeverRetryIt() {
        CallGate database = CallGate.inMemory();
        PinboardTool a = node(database);
        PinboardTool b = node(database);
        stub.postsAllTakes(Duration.ofMillis(300));
        String cursorA = null;
        String cursorB = null;
        for (int round = 0; round < 3; round++) {
            a.create(sample(10 + round)); // the bookmarks move, so each sync wants a snapshot
            cursorA = a.changedSince(cursorA).cursor();
            cursorB = b.changedSince(cursorB).cursor();
        }
        List<String> calls = stub.postsAllCalls();
        assertEquals(6, calls.size(), "one snapshot per sync: " + calls);
        assertTrue(calls.stream().allMatch(c -> c.endsWith(" 200")), "never refused: " + calls);
        for (int i = 1; i < calls.size(); i++) {
            Duration apart = Duration.between(Instant.parse(calls.get(i - 1).split(" ")[0]), Instant.parse(calls.get(i).split(" ")[0]));
            assertTrue(apart.compareTo(Duration.ofMinutes(5)) >= 0, "five minutes apart: " + calls);
        }
    }

    @Test
    void afterA429ThePostsAllWaitDoublesForEveryNodeAndNoCallIsMadeBeforeIt() throws Exception {
        CallGate database = CallGate.inMemory();
        PinboardTool a = node(database);
        PinboardTool b = node(database);
        a.create(sample(1));
        a.changedSince(null);
        time.pause(Duration.ofMinutes(6));
        // someone else (the curator's own script) reads posts/all outside Idiom: Pinboard's window restarts there
        var http = java.net.http.HttpClient.newHttpClient();
        http.send(java.net.http.HttpRequest.newBuilder(stub.uri().resolve("/v1/posts/all?format=json&meta=yes&auth_token=" + PinboardStub.TOKEN))
                .build(), java.net.http.HttpResponse.BodyHandlers.ofString());
        a.create(sample(2));

        ToolException refused = assertThrows(ToolException.class, () -> a.changedSince("x|0"));
        assertTrue(refused.getMessage().contains("429"), refused.getMessage());
        int calls = stub.postsAllCalls().size();
        ToolException waiting = assertThrows(ToolException.class, () -> b.changedSince("x|0")); // the other node, at once
        assertTrue(waiting.getMessage().contains("may be called again at"), waiting.getMessage());
        assertEquals(calls, stub.postsAllCalls().size(), "the other node did not call: " + stub.postsAllCalls());

        time.pause(Duration.ofMinutes(10)); // twice five minutes after the refusal
        assertEquals(2, b.changedSince("x|0").records().size());
        List<String> all = stub.postsAllCalls();
        assertEquals(1, all.stream().filter(c -> c.endsWith(" 429")).count(), "one refusal, never retried: " + all);
    }

    @Test
    void theStubAppliesPinboardsDefaultsAndLimits() throws Exception {
        var http = java.net.http.HttpClient.newHttpClient();
        java.util.function.Function<String, String> get = q -> {
            try {
                return http.send(java.net.http.HttpRequest.newBuilder(stub.uri().resolve("/v1/" + q + "&format=json&auth_token="
                        + PinboardStub.TOKEN)).build(), java.net.http.HttpResponse.BodyHandlers.ofString()).statusCode() + "";
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        };
        get.apply("posts/add?url=https%3A%2F%2Fexample.org%2Fa&description=A");
        assertEquals("yes", stub.post("https://example.org/a").path("shared").asText(), "Pinboard's default is public");
        assertEquals("200", get.apply("posts/all?meta=yes"));
        assertEquals("429", get.apply("posts/all?meta=yes"), "posts/all once per five minutes");
    }
}
