package dev.idiom.events;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idiom.db.Database;
import dev.idiom.db.TestDatabase;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The event-store contract every adapter passes, on the real embedded MariaDB through
 * Connector/J (STYLE.md §3: one contract test for all adapters).
 */
public abstract class EventStoreContract {
    protected final TestClock clock = new TestClock(Instant.parse("2026-03-01T10:00:00.123456Z"));
    private final List<AutoCloseable> opened = new ArrayList<>();
    /** The test's own database (null for an adapter that needs none). */
    protected Database db;
    protected EventStore store;

    /** The adapter under test: one node on the test's database ({@code dataSource} is null for an adapter that needs none). */
    protected abstract EventStore storeOn(DataSource dataSource, Clock clock);

    /** Whether the adapter keeps its data in the test's MariaDB. */
    protected boolean needsDatabase() {
        return true;
    }

    /** The outbox the store's appends write owed pushes into. */
    protected Outbox outbox() {
        return new dev.idiom.events.sql.SqlOutbox(db.dataSource(), clock);
    }

    /** How many events the store holds, read past the adapter (another connection sees only what is committed). */
    protected long storedEvents() throws Exception {
        try (Connection c = db.connection(); Statement s = c.createStatement(); var rs = s.executeQuery("SELECT COUNT(*) FROM event")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    /** Changes one entity's stored projection behind the adapter's back: a drift its check must see. */
    protected void spoilProjection(UUID id) throws Exception {
        try (Connection c = db.connection(); Statement s = c.createStatement()) {
            s.executeUpdate("UPDATE entity SET state = REPLACE(state, '\"version\"', '\"version\" ') WHERE entity_id = '" + id + "'");
        }
    }

    protected EventStore open(DataSource dataSource) {
        EventStore s = storeOn(dataSource, clock);
        if (s instanceof AutoCloseable c) {
            opened.add(c);
        }
        return s;
    }

    @BeforeEach
    void open() {
        db = needsDatabase() ? TestDatabase.fresh() : null;
        store = open(db == null ? null : db.dataSource());
    }

    @AfterEach
    void close() throws Exception {
        for (AutoCloseable c : opened) {
            c.close();
        }
        if (db != null) {
            db.close();
        }
    }

    private static Metadata paper(String title) {
        return Changes.forNewRecord(Metadata.EMPTY.with(Field.TITLE, title).with(Field.YEAR, 2005));
    }

    protected UUID create(String title) {
        UUID id = UUID.randomUUID();
        store.append(id, 0, List.of(new NewEvent(UUID.randomUUID(), "test", new RecordImported(paper(title), "idiom", id.toString()))));
        return id;
    }

    protected static NewEvent set(Field f, Object v) {
        return new NewEvent(UUID.randomUUID(), "user:test", new FieldChanged(f, v));
    }

    @Test
    void eachCommitIsAnnouncedOnceAfterItIsDurableAndARefusedAppendIsNot() throws Exception {
        List<AppendResult> heard = new java.util.concurrent.CopyOnWriteArrayList<>();
        List<Long> storedWhenHeard = new java.util.concurrent.CopyOnWriteArrayList<>();
        store.onCommit(r -> {
            heard.add(r);
            try {
                storedWhenHeard.add(storedEvents()); // another connection: sees only what is committed
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        UUID id = create("Announced");
        assertEquals(1, heard.size());
        assertEquals(id, heard.getFirst().entity().id());
        assertEquals(List.of(1L), storedWhenHeard, "the listener hears of the commit once it is visible to every reader");
        assertThrows(StaleVersionException.class, () -> store.append(id, 0, List.of(set(Field.VOLUME, "1"))));
        assertEquals(1, heard.size(), "a refused append is not announced");
        List<AppendOutcome> out = store.appendAll(List.of(new Append(id, 7, List.of(set(Field.VOLUME, "2"))),
                new Append(id, 1, List.of(set(Field.VOLUME, "3")))));
        assertFalse(out.getFirst().succeeded());
        assertEquals(2, heard.size(), "of a batch, only what went in is announced");
        assertEquals(2, heard.getLast().entity().version());
    }

    @Test
    void staleExpectedVersionIsRejectedAndNothingIsWritten() throws Exception {
        UUID id = create("Replication");
        store.append(id, 1, List.of(set(Field.VENUE, "ACM Computing Surveys")));
        long before = storedEvents();

        StaleVersionException e = assertThrows(StaleVersionException.class, () -> store.append(id, 1, List.of(set(Field.VENUE, "stale"))));
        assertEquals(2, e.actual());
        assertEquals(before, storedEvents());
        assertEquals("ACM Computing Surveys", store.load(id).orElseThrow().metadata().venue());
        assertThrows(StaleVersionException.class, () -> store.append(UUID.randomUUID(), 3, List.of(set(Field.VENUE, "x"))));
    }

    @Test
    void twoNodesOnOneDatabaseDecideOnWhatIsStoredNotOnWhatTheyLastWrote() throws Exception {
        EventStore other = open(db == null ? null : db.dataSource()); // a second node: its own store over the same database
        UUID id = create("Two nodes");
        UUID quiet = create("Untouched by the other node");
        other.append(id, 1, List.of(set(Field.VENUE, "from the other node"))); // version 2, written where this node cannot see
        long before = storedEvents();

        // a caller that read version 1 here is stale, although this node last wrote version 1
        StaleVersionException stale = assertThrows(StaleVersionException.class, () -> store.append(id, 1, List.of(set(Field.VENUE, "stale"))));
        assertEquals(2, stale.actual());
        assertEquals(before, storedEvents());

        // a caller that read version 2 on the other node is not, also batched with an append this node knows all about
        other.append(id, 2, List.of(set(Field.VOLUME, "7"))); // version 3
        List<AppendOutcome> out = store.appendAll(List.of(new Append(id, 3, List.of(set(Field.YEAR, 1999))), new Append(quiet, 1,
                List.of(set(Field.YEAR, 2001)))));
        assertEquals(4, out.get(0).get().entity().version());
        assertEquals("from the other node", out.get(0).get().entity().metadata().venue());
        assertEquals("7", out.get(0).get().entity().metadata().volume());
        assertEquals(2001, out.get(1).get().entity().metadata().year());

        // and the other node, whose last write was version 3, accepts a caller that read version 4
        assertEquals(5, other.append(id, 4, List.of(set(Field.PAGES, "1-9"))).entity().version());
        assertEquals(other.load(id), store.load(id));
        assertEquals(before + 4, storedEvents());

        // a creation of an entity the other node created is stale, alone: its batch-mate is created
        UUID theirs = UUID.randomUUID();
        other.append(theirs, 0, List.of(new NewEvent(UUID.randomUUID(), "test", new RecordImported(paper("Theirs"), "idiom", theirs.toString()))));
        UUID mine = UUID.randomUUID();
        List<AppendOutcome> creations = store.appendAll(List.of(
                new Append(theirs, 0, List.of(new NewEvent(UUID.randomUUID(), "test", new RecordImported(paper("Mine too"), "idiom", "x")))),
                new Append(mine, 0, List.of(new NewEvent(UUID.randomUUID(), "test", new RecordImported(paper("Mine"), "idiom", "y"))))));
        assertEquals(1, ((StaleVersionException) creations.get(0).failure()).actual());
        assertEquals("Mine", creations.get(1).get().entity().metadata().title());
        assertEquals("Theirs", store.load(theirs).orElseThrow().metadata().title());
        assertEquals(before + 6, storedEvents());
        assertTrue(store.verifyProjections().clean());
    }

    @Test
    void creatingAnEntityThatExistsIsStale() {
        UUID id = create("Once");
        assertThrows(StaleVersionException.class, () -> store.append(id, 0,
                List.of(new NewEvent(UUID.randomUUID(), "test", new RecordImported(paper("Twice"), "idiom", "x")))));
    }

    @Test
    void retriedAppendReturnsTheSameResultAndWritesNothing() throws Exception {
        UUID id = create("Idempotency");
        List<NewEvent> batch = List.of(set(Field.VOLUME, "37"), set(Field.PAGES, "42-81"));
        AppendResult first = store.append(id, 1, batch);
        store.append(id, 3, List.of(set(Field.NOTES, "later")));
        long before = storedEvents();

        AppendResult retry = store.append(id, 1, batch);
        assertTrue(retry.replayed());
        assertFalse(first.replayed());
        assertEquals(first.entity(), retry.entity());
        assertEquals(first.lastPosition(), retry.lastPosition());
        assertEquals(before, storedEvents());
    }

    @Test
    void aStaleAppendInABatchIsRefusedAloneAndItsBatchMatesCommit() throws Exception {
        UUID a = create("A");
        UUID b = create("B");
        UUID c = create("C");
        long before = storedEvents();

        List<AppendOutcome> out = store.appendAll(List.of(
                new Append(a, 1, List.of(set(Field.VENUE, "a venue"))),
                new Append(b, 7, List.of(set(Field.VENUE, "stale"))),
                new Append(c, 1, List.of(set(Field.VENUE, "c venue"), set(Field.YEAR, 2001)))));

        assertTrue(out.get(0).succeeded());
        assertTrue(out.get(1).failure() instanceof StaleVersionException);
        assertThrows(StaleVersionException.class, () -> out.get(1).get());
        assertTrue(out.get(2).succeeded());
        assertEquals(before + 3, storedEvents());
        assertEquals(out.get(0).get().lastPosition() + 2, out.get(2).get().lastPosition(), "positions consecutive in request order");
        assertEquals(1, store.load(b).orElseThrow().version());
        assertEquals(null, store.load(b).orElseThrow().metadata().venue());
        assertEquals(3, store.load(c).orElseThrow().version());
        assertEquals(out.get(2).get().entity(), store.load(c).orElseThrow());
        assertTrue(store.verifyProjections().clean());
    }

    @Test
    void twoAppendsToOneEntityInOneBatchChainAndEachIsCheckedOnTheStateBeforeIt() {
        UUID a = create("A");

        List<AppendOutcome> out = store.appendAll(List.of(
                new Append(a, 1, List.of(set(Field.VENUE, "first"))),
                new Append(a, 2, List.of(set(Field.VOLUME, "12"))),
                new Append(a, 1, List.of(set(Field.VENUE, "raced")))));

        assertEquals(2, out.get(0).get().entity().version());
        assertEquals(null, out.get(0).get().entity().metadata().volume(), "the first result is the state after the first append");
        assertEquals(3, out.get(1).get().entity().version());
        assertEquals("first", out.get(1).get().entity().metadata().venue());
        assertEquals(out.get(0).get().lastPosition() + 1, out.get(1).get().lastPosition());
        assertEquals(3, ((StaleVersionException) out.get(2).failure()).actual(), "stale against the state the batch had reached");
        DigitalEntity stored = store.load(a).orElseThrow();
        assertEquals(out.get(1).get().entity(), stored);
        assertEquals(stored, store.asOfVersion(a, 3));
        assertTrue(out.get(0).get().json().contains("\"version\":2"), out.get(0).get().json());
        assertTrue(store.verifyProjections().clean());
    }

    @Test
    void aBatchedAppendRetriedInTheSameBatchOrLaterReturnsTheFirstResultAndWritesOnce() throws Exception {
        UUID a = create("A");
        UUID b = create("B");
        List<NewEvent> once = List.of(set(Field.NOTES, "once"), set(Field.PAGES, "1-2"));
        long before = storedEvents();

        List<AppendOutcome> out = store.appendAll(List.of(new Append(a, 1, once), new Append(a, 1, once), new Append(b, 1, List.of(set(Field.NOTES, "b")))));

        assertFalse(out.get(0).get().replayed());
        assertTrue(out.get(1).get().replayed());
        assertEquals(out.get(0).get().entity(), out.get(1).get().entity());
        assertEquals(out.get(0).get().lastPosition(), out.get(1).get().lastPosition());
        assertEquals(before + 3, storedEvents());

        // retried later, batched with a new append: the retry writes nothing, the new one commits
        List<AppendOutcome> later = store.appendAll(List.of(new Append(b, 2, List.of(set(Field.YEAR, 1999))), new Append(a, 1, once)));
        assertTrue(later.get(1).get().replayed());
        assertEquals(out.get(0).get().entity(), later.get(1).get().entity());
        assertEquals(out.get(0).get().lastPosition(), later.get(1).get().lastPosition());
        assertEquals(1999, later.get(0).get().entity().metadata().year());
        assertEquals(before + 4, storedEvents());

        // ids reused for something else are refused, alone
        List<AppendOutcome> misuse = store.appendAll(List.of(new Append(b, 3, List.of(once.getFirst(), set(Field.VOLUME, "9")))));
        assertTrue(misuse.getFirst().failure() instanceof InvalidValueException);
        assertEquals(before + 4, storedEvents());
    }

    @Test
    void theFeedWithoutPayloadsNamesTheSameEntitiesVersionsPositionsAndTimesAsTheFullFeed() {
        UUID a = create("Feed A");
        clock.advance(Duration.ofMillis(1234));
        UUID b = create("Feed B");
        store.append(a, 1, List.of(set(Field.NOTES, "a2")));
        clock.advance(Duration.ofMillis(7));
        store.appendAll(List.of(new Append(b, 1, List.of(set(Field.NOTES, "b2"), set(Field.YEAR, 2001))), new Append(a, 2, List.of(set(Field.VOLUME, "3")))));
        List<RecordedEvent> all = store.after(0, 1_000);
        assertEquals(all.stream().map(FeedEntry::of).toList(), store.feedAfter(0, 1_000));
        long from = all.get(all.size() - 3).position();
        List<FeedEntry> tail = store.feedAfter(from, 2);
        assertEquals(all.subList(all.size() - 2, all.size()).stream().map(FeedEntry::of).toList(), tail, "after a position, at most the limit");
        assertEquals(List.of(b, b, a), store.feedAfter(all.get(all.size() - 4).position(), 10).stream().map(FeedEntry::entityId).toList());
        assertEquals(List.of(2, 3, 3), store.feedAfter(all.get(all.size() - 4).position(), 10).stream().map(FeedEntry::version).toList());
        assertTrue(store.feedAfter(all.getLast().position(), 10).isEmpty());
    }

    @Test
    void projectionEqualsTheRebuildAfterOneThousandRandomMinorEventsOnFiftyEntities() throws Exception {
        Random random = new Random(20261122);
        List<UUID> ids = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            ids.add(create("Paper number " + i));
        }
        String[] tags = {"replication", "cfdar", "idiom", "bookmarks", "Événement", "soap"};
        for (int i = 0; i < 1000; i++) {
            UUID id = ids.get(random.nextInt(ids.size()));
            DigitalEntity current = store.load(id).orElseThrow();
            clock.advance(Duration.ofMillis(random.nextInt(5000)));
            List<EntityEvent> events = switch (random.nextInt(5)) {
                case 0 -> Changes.toSet(current.metadata(), Field.TITLE, "Title " + random.nextInt(1000));
                case 1 -> Changes.toSet(current.metadata(), Field.YEAR, 1990 + random.nextInt(35));
                case 2 -> Changes.toSet(current.metadata(), Field.AUTHORS, Field.AUTHORS.fromText("Müller, Anna; Saito, Y" + random.nextInt(9)));
                case 3 -> {
                    Set<String> t = new TreeSet<>(current.metadata().tags());
                    String tag = tags[random.nextInt(tags.length)];
                    if (!t.remove(tag)) {
                        t.add(tag);
                    }
                    yield Changes.toSet(current.metadata(), Field.TAGS, t);
                }
                default -> Changes.toSet(current.metadata(), Field.NOTES, random.nextBoolean() ? null : "note " + i);
            };
            if (!events.isEmpty()) {
                store.append(id, current.version(), events.stream().map(e -> new NewEvent(UUID.randomUUID(), "user:r", e)).toList());
            }
        }
        RebuildReport report = store.verifyProjections();
        assertEquals(50, report.entities());
        assertTrue(report.events() > 500);
        assertTrue(report.clean(), () -> "differing: " + report.differing());

        // and the check does see a projection that drifted
        spoilProjection(ids.get(7));
        assertEquals(List.of(ids.get(7)), store.verifyProjections().differing());
    }

    @Test
    void historyCanBeReadAsOfAVersionOrATime() {
        UUID id = create("As of");
        Instant afterCreate = clock.instant();
        clock.advance(Duration.ofMinutes(1));
        store.append(id, 1, List.of(set(Field.TITLE, "As of, revised")));
        clock.advance(Duration.ofMinutes(1));
        store.append(id, 2, List.of(set(Field.YEAR, 2020)));

        assertEquals("As of", store.asOfVersion(id, 1).metadata().title());
        assertEquals("As of, revised", store.asOfVersion(id, 2).metadata().title());
        assertEquals(2005, store.asOfVersion(id, 2).metadata().year());
        assertEquals("As of", store.asOfTime(id, afterCreate.plusSeconds(30)).metadata().title());
        assertEquals(2020, store.asOfTime(id, clock.instant()).metadata().year());
        assertEquals(3, store.history(id).size());
        assertEquals(List.of(1, 2), store.historyUpTo(id, 2, Instant.MAX).stream().map(RecordedEvent::version).toList());
        assertEquals(List.of(1), store.historyUpTo(id, 3, afterCreate.plusSeconds(30)).stream().map(RecordedEvent::version).toList());
        // a version it has not reached, or a time before it existed: that DE is not there (404), not a bad request
        assertThrows(UnknownEntityException.class, () -> store.asOfVersion(id, 4));
        assertThrows(UnknownEntityException.class, () -> store.asOfTime(id, afterCreate.minusSeconds(3600)));
        assertThrows(InvalidValueException.class, () -> store.asOfVersion(id, 0));
        assertThrows(UnknownEntityException.class, () -> store.asOfVersion(UUID.randomUUID(), 1));
        assertEquals(store.load(id).orElseThrow(), store.asOfVersion(id, 3));
        assertEquals(clock.instant(), store.load(id).orElseThrow().updatedAt());
    }

    @Test
    void textThatSqlEscapesComesBackByteForByte() {
        // quotes, backslashes, a line break, a tab, a percent, an underscore, letters outside Latin-1 and outside the BMP
        String title = "O'Brien's \"quoted\" \\cite{x} 100%_done\n\tÉpidémies — 数据复制 😀 \\'; DROP TABLE event; --";
        UUID id = create(title);
        store.append(id, 1, List.of(set(Field.NOTES, "back\\slash ' \" \r\n end"), new NewEvent(UUID.randomUUID(), "u", new TagAdded("ça_va, 'oui'"))));

        DigitalEntity de = store.load(id).orElseThrow();
        assertEquals(title, de.metadata().title());
        assertEquals("back\\slash ' \" \r\n end", de.metadata().notes());
        assertTrue(de.metadata().tags().contains("ça_va, 'oui'"));
        assertEquals(de, DigitalEntity.fold(id, store.history(id)), "the events read back fold into the stored projection");
        assertTrue(store.verifyProjections().clean());
    }

    @Test
    void foldAllYieldsEveryEntityAsItsEventsFoldInIdOrder() {
        UUID one = create("Optimistic Replication in Practice");
        store.append(one, 1, List.of(set(Field.AUTHORS, Field.AUTHORS.fromText("Saïto, Yasushi")),
                new NewEvent(UUID.randomUUID(), "u", new TagAdded("Réplication"))));
        UUID two = create("Replication, optimistic or not");

        List<DigitalEntity> folded = new ArrayList<>();
        long count = store.foldAll(folded::add);

        assertEquals(2, count);
        assertEquals(List.of(store.load(one).orElseThrow(), store.load(two).orElseThrow()).stream()
                .sorted(java.util.Comparator.comparing(de -> de.id().toString())).toList(), folded);
        assertEquals(3, folded.stream().filter(de -> de.id().equals(one)).findFirst().orElseThrow().version());
    }

    @Test
    void foldRangesSideBySideFoldEveryEntityOnce() {
        List<UUID> ids = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            ids.add(create("Replica number " + i));
        }
        List<DigitalEntity> low = new ArrayList<>();
        List<DigitalEntity> high = new ArrayList<>();

        long lows = store.foldRange(null, "8", low::add);
        long highs = store.foldRange("8", null, high::add);

        assertEquals(12, lows + highs);
        assertTrue(low.stream().allMatch(de -> de.id().toString().compareTo("8") < 0), "the low range holds only ids below 8");
        assertTrue(high.stream().allMatch(de -> de.id().toString().compareTo("8") >= 0), "the high range holds only ids from 8");
        List<DigitalEntity> both = new ArrayList<>(low);
        both.addAll(high);
        List<DigitalEntity> all = new ArrayList<>();
        store.foldAll(all::add);
        assertEquals(all, both, "the two ranges, in order, are the whole fold");
        assertEquals(0, store.foldRange("8", "8", de -> { }), "an empty range folds nothing");
    }

    @Test
    void theEntityOfTheNthEventSplitsTheFoldWhereAsked() {
        UUID first = create("First of three");
        store.append(first, 1, List.of(set(Field.YEAR, Field.YEAR.fromText("2001"))));
        create("Second of three");
        create("Third of three");
        List<String> eventsInOrder = new ArrayList<>();
        store.foldAll(de -> {
            for (int v = 0; v < de.version(); v++) {
                eventsInOrder.add(de.id().toString());
            }
        });

        for (int n = 0; n < 4; n++) {
            assertEquals(Optional.of(eventsInOrder.get(n)), store.entityIdOfEvent(n), "event " + n);
        }
        assertEquals(Optional.empty(), store.entityIdOfEvent(4), "past the last event");
    }

    private UUID imported(Metadata m, String tool, String remoteId) {
        UUID id = UUID.randomUUID();
        store.append(id, 0, List.of(new NewEvent(UUID.randomUUID(), "import", new RecordImported(m, tool, "acct", remoteId, "v1"))));
        return id;
    }

    private static Metadata work(String title, Integer year, String doi, String url, String family) {
        Metadata m = Metadata.EMPTY.with(Field.TITLE, title).with(Field.YEAR, year).with(Field.DOI, doi).with(Field.URL, url);
        return family == null ? m : m.with(Field.AUTHORS, List.of(new Author(family, "A.")));
    }

    @Test
    void importedRecordsAreMatchedByDoiThenUrlThenTitleAndFirstAuthor() {
        UUID byDoi = imported(work("Optimistic replication", 2005, "10.1145/1057977.1057980", null, "Saito"), "zotero", "Z1");
        UUID byUrl = imported(work("Bookmarks", null, null, "https://www.example.org/paper/", null), "pinboard", "P1");
        UUID byTitle = imported(work("Épidémies & réplication", 2010, null, null, "Müller"), "bibtex", "k1");

        assertEquals(Optional.of(byDoi), store.findMatch(work("another title", 2005, "https://doi.org/10.1145/1057977.1057980", null, null)));
        assertEquals(Optional.of(byUrl), store.findMatch(work("x", null, null, "http://example.org/paper?utm_source=feed#top", null)));
        assertEquals(Optional.of(byTitle), store.findMatch(work("EPIDEMIES, REPLICATION", 2011, null, null, "Muller")));

        // a DOI on one side only does not stand in the way; different DOIs, distant years and missing years do
        assertEquals(Optional.of(byTitle), store.findMatch(work("Épidémies & réplication", 2010, "10.1/other", null, "Müller")));
        assertEquals(Optional.empty(), store.findMatch(work("Épidémies & réplication", 2013, null, null, "Müller")));
        assertEquals(Optional.empty(), store.findMatch(work("Épidémies & réplication", null, null, null, "Müller")));
        assertEquals(Optional.empty(), store.findMatch(work("Optimistic replication", 2005, "10.9/else", null, "Saito")));

        // the batch lookups an import makes: every holder of each key, and the states in one read
        MatchKeys.Key doi = MatchKeys.of(work("x", null, "10.1145/1057977.1057980", null, null)).iterator().next();
        MatchKeys.Key replica = MatchKeys.replica("pinboard", "acct", "P1");
        MatchKeys.Key none = MatchKeys.replica("pinboard", "acct", "nothing");
        java.util.Map<MatchKeys.Key, List<UUID>> found = store.findKeys(List.of(doi, replica, none));
        assertEquals(List.of(byDoi), found.get(doi));
        assertEquals(List.of(byUrl), found.get(replica));
        assertFalse(found.containsKey(none));
        assertEquals(Set.of(byDoi, byTitle), store.loadAll(List.of(byDoi, byTitle, UUID.randomUUID())).keySet());
    }

    @Test
    void anImportBatchsKeyLookupFindsEveryHolderWhenItAsksForMoreKeysThanOneQueryTakes() {
        // 250 replica keys and 250 DOIs in one lookup, as an import's batch asks: the store splits them into several queries
        List<MatchKeys.Key> keys = new ArrayList<>();
        java.util.Map<MatchKeys.Key, UUID> holder = new java.util.HashMap<>();
        for (int i = 0; i < 250; i++) {
            UUID id = imported(work("Batch paper " + i, 2000, i % 2 == 0 ? "10.5555/batch." + i : null, null, null), "bibtex", "b" + i);
            MatchKeys.Key replica = MatchKeys.replica("bibtex", "acct", "b" + i);
            keys.add(replica);
            holder.put(replica, id);
            MatchKeys.Key doi = MatchKeys.of(work("x", null, "10.5555/batch." + i, null, null)).iterator().next();
            keys.add(doi);
            if (i % 2 == 0) {
                holder.put(doi, id);
            }
        }
        java.util.Map<MatchKeys.Key, List<UUID>> found = store.findKeys(keys);
        assertEquals(holder.keySet(), found.keySet(), "every key held, and no other");
        holder.forEach((k, id) -> assertEquals(List.of(id), found.get(k), k.toString()));
    }

    @Test
    void aMatchingImportLinksAReplicaAndFillsOnlyTheEntitysEmptyFields() {
        UUID id = imported(work("Optimistic replication", 2005, "10.1145/1057977.1057980", null, "Saito")
                .with(Field.TAGS, new TreeSet<>(Set.of("replication"))), "zotero", "Z1");
        Metadata other = work("Optimistic Replication (preprint)", 2004, "10.1145/1057977.1057980", "https://example.org/saito", "Saito")
                .with(Field.VENUE, "ACM CSUR").with(Field.TAGS, new TreeSet<>(Set.of("survey")));
        store.append(id, 1, List.of(new NewEvent(UUID.randomUUID(), "import", new RecordImported(other, "bibtex", "refs.bib", "saito05", "h1"))));

        DigitalEntity de = store.load(id).orElseThrow();
        assertEquals("Optimistic replication", de.metadata().title(), "a value the DE has is kept");
        assertEquals(2005, de.metadata().year());
        assertEquals("ACM CSUR", de.metadata().venue(), "an empty field is filled");
        assertEquals(new TreeSet<>(Set.of("replication", "survey")), de.metadata().tags());
        assertEquals(2, de.replicas().size());
        assertEquals("h1", de.replica("bibtex", "refs.bib", "saito05").orElseThrow().remoteVersion());
        assertEquals(other, de.replica("bibtex", "refs.bib", "saito05").orElseThrow().synced());
        // the second replica's URL now recognises the work too
        assertEquals(Optional.of(id), store.findMatch(work("whatever", null, null, "http://example.org/saito/", null)));

        store.append(id, 2, List.of(new NewEvent(UUID.randomUUID(), "upload", new ReplicaLinked("zotero", "acct", "Z1", "v2", de.metadata()))));
        assertEquals("v2", store.load(id).orElseThrow().replica("zotero", "acct", "Z1").orElseThrow().remoteVersion());
        assertEquals(2, store.load(id).orElseThrow().replicas().size());
        assertTrue(store.verifyProjections().clean());
    }

    @Test
    void aContentChangeOwesAPushToEachReplicaThatLacksItAndAnAcknowledgementOwesNone() {
        UUID id = create("Gossip");
        int v = store.load(id).orElseThrow().version();
        Metadata synced = store.load(id).orElseThrow().metadata();
        store.append(id, v, List.of(new NewEvent(UUID.randomUUID(), "upload", new ReplicaLinked("zotero", "users/1", "K1", "1", synced)),
                new NewEvent(UUID.randomUUID(), "upload", new ReplicaLinked("pinboard", "me", "https://x.example/", "m", synced))));
        var outbox = outbox();
        assertEquals(List.of(), outbox.list(null, null, 10), "linking copies that hold the DE owes nothing");

        store.append(id, v + 2, List.of(new NewEvent(UUID.randomUUID(), "test", new FieldChanged(Field.VENUE, "PODC"))));
        store.append(id, v + 3, List.of(new NewEvent(UUID.randomUUID(), "test", new FieldChanged(Field.VOLUME, "6"))));
        List<Outbox.Entry> owed = outbox.list(null, null, 10);
        assertEquals(2, owed.size(), "one row per replica, however many changes: " + owed);
        assertEquals(v + 4, owed.getFirst().entityVersion(), "owing the latest version");

        Metadata now = store.load(id).orElseThrow().metadata();
        store.append(id, v + 4, List.of(new NewEvent(UUID.randomUUID(), "sync", new ReplicaLinked("zotero", "users/1", "K1", "2", now))));
        outbox.acknowledged(owed.stream().filter(e -> e.tool().equals("zotero")).findFirst().orElseThrow(), v + 4);
        assertEquals(List.of("pinboard"), outbox.list(null, null, 10).stream().map(Outbox.Entry::tool).toList(),
                "the acknowledgement owes nothing more; the other replica is still owed");
    }

    @Test
    void aParkedCopyOwedAgainForANewerVersionIsDueAgainAndForTheSameVersionStaysParked() {
        UUID id = create("Gossip");
        var outbox = outbox();
        outbox.owe(List.of(new Outbox.Owed(id, "pinboard", "me", Outbox.NEW_COPY, 1)));
        Outbox.Entry row = outbox.list("pinboard", "me", 10).getFirst();
        outbox.park(row, "a Pinboard bookmark needs a URL");
        outbox.owe(List.of(new Outbox.Owed(id, "pinboard", "me", Outbox.NEW_COPY, 1)));
        assertTrue(outbox.list("pinboard", "me", 10).getFirst().parked(), "owed again for the version it was refused at: still parked");
        outbox.owe(List.of(new Outbox.Owed(id, "pinboard", "me", Outbox.NEW_COPY, 2)));
        Outbox.Entry again = outbox.list("pinboard", "me", 10).getFirst();
        assertTrue(!again.parked() && again.lastError() == null && again.attempts() == 0, "the DE changed since: due again " + again);
        assertEquals(2, again.entityVersion());
    }
}
