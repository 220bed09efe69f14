package dev.idiom.cache.search;

import static org.junit.jupiter.api.Assertions.assertEquals;
import org.junit.jupiter.api.io.TempDir;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idiom.cache.search.lucene.LuceneIndexHome;
import dev.idiom.db.Database;
import dev.idiom.db.TestDatabase;
import dev.idiom.events.AppendResult;
import dev.idiom.events.Changes;
import dev.idiom.events.EventCodec;
import dev.idiom.events.Field;
import dev.idiom.events.FieldChanged;
import dev.idiom.events.Metadata;
import dev.idiom.events.NewEvent;
import dev.idiom.events.RecordImported;
import dev.idiom.events.SearchPage;
import dev.idiom.events.SearchQuery;
import dev.idiom.events.TagAdded;
import dev.idiom.events.TestClock;
import dev.idiom.events.mysql.MySqlEventStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The search index as a projection of the event store: fresh for this node's writes, rebuilt from events equal to the live one. */
class SearchFeedTest {
    private static final Duration NEVER = Duration.ofHours(1);
    private final EventCodec codec = new EventCodec();

    @Test
    void aSearchRightAfterAWriteOnThisNodeSeesIt() throws Exception {
        try (Database db = TestDatabase.fresh()) {
            MySqlEventStore store = new MySqlEventStore(db.dataSource(), codec, Clock.systemUTC());
            // the feed never polls on its own here: only the write's own report can make it searchable
            try (SearchFeed feed = SearchFeed.start(store, new LuceneIndexHome(null, codec), Clock.systemUTC(), NEVER, Duration.ofSeconds(5))) {
                for (int i = 0; i < 20; i++) {
                    AppendResult r = create(store, "Freshly written " + i);
                    feed.written(r.lastPosition());
                    SearchPage page = feed.search(SearchQuery.text("freshly written " + i, 5));
                    assertEquals(r.entity().id(), page.entities().getFirst().id(), "write " + i + " seen by the next search");
                }
                UUID id = store.load(create(store, "Before").entity().id()).orElseThrow().id();
                AppendResult changed = store.append(id, 1, List.of(new NewEvent(UUID.randomUUID(), "t", new FieldChanged(Field.TITLE, "After"))));
                feed.written(changed.lastPosition());
                assertEquals(0, feed.search(SearchQuery.text("before", 5)).total(), "the old title is gone");
                assertEquals(1, feed.search(SearchQuery.text("after", 5)).total());
                assertEquals(0, feed.figures().freshWaitsTimedOut());
            }
        }
    }

    @Test
    void anotherNodesWriteArrivesWithinAFewPolls() throws Exception {
        try (Database db = TestDatabase.fresh()) {
            MySqlEventStore store = new MySqlEventStore(db.dataSource(), codec, Clock.systemUTC());
            try (SearchFeed feed = SearchFeed.start(store, new LuceneIndexHome(null, codec), Clock.systemUTC(), Duration.ofMillis(20), Duration.ZERO)) {
                create(store, "Written elsewhere"); // not reported: only the feed can bring it
                long start = System.nanoTime();
                while (feed.search(SearchQuery.text("elsewhere", 5)).total() == 0 && System.nanoTime() - start < 5_000_000_000L) {
                    Thread.sleep(5);
                }
                assertEquals(1, feed.search(SearchQuery.text("elsewhere", 5)).total());
                assertTrue(feed.figures().maxLagMillis() < 2_000, "lag " + feed.figures().maxLagMillis() + " ms");
            }
        }
    }

    @Test
    void aRebuildFromEventsEqualsTheLiveIndexAndReadsGoOnDuringIt() throws Exception {
        try (Database db = TestDatabase.fresh()) {
            MySqlEventStore store = new MySqlEventStore(db.dataSource(), codec, Clock.systemUTC());
            try (SearchFeed feed = SearchFeed.start(store, new LuceneIndexHome(null, codec), Clock.systemUTC(), Duration.ofMillis(20), Duration.ofSeconds(5))) {
                List<UUID> ids = new ArrayList<>();
                for (int i = 0; i < 300; i++) {
                    AppendResult r = create(store, "Work " + i + (i % 2 == 0 ? " replication" : " caching"));
                    ids.add(r.entity().id());
                    feed.written(r.lastPosition());
                }
                for (int i = 0; i < 300; i += 3) { // minor events too, so the fold has more than one event per DE
                    AppendResult r = store.append(ids.get(i), 1, List.of(new NewEvent(UUID.randomUUID(), "t", new TagAdded("tag" + i % 7)),
                            new NewEvent(UUID.randomUUID(), "t", new FieldChanged(Field.YEAR, 1990 + i % 11))));
                    feed.written(r.lastPosition());
                }
                List<SearchQuery> queries = List.of(SearchQuery.text("replication", 200), SearchQuery.text("work", 200),
                        new SearchQuery(null, "tag3", null, 1990, 1995, null, null, null, null, 200), SearchQuery.text("work 17", 10));
                List<SearchPage> live = queries.stream().map(feed::search).toList();

                CompletableFuture<SearchFeed.Rebuild> rebuild = feed.rebuild();
                int answeredDuring = 0;
                while (!rebuild.isDone()) {
                    assertEquals(live.get(1).total(), feed.search(queries.get(1)).total(), "reads go on, complete, during the rebuild");
                    answeredDuring++;
                }
                SearchFeed.Rebuild done = rebuild.get(30, TimeUnit.SECONDS);
                assertEquals(300, done.entities());
                assertTrue(answeredDuring > 0);
                // the rebuild completes once the new index answers
                assertEquals(300, feed.figures().lastRebuildEntities());
                assertFalse(feed.figures().rebuilding());
                assertEquals(store.headPosition(), feed.figures().position(), "the new index reports the position it holds");

                for (int i = 0; i < queries.size(); i++) {
                    SearchPage rebuilt = feed.search(queries.get(i));
                    // the cursor names another index's view; what it points at must be the same
                    assertTrue(live.get(i).entities().equals(rebuilt.entities()) && live.get(i).total() == rebuilt.total()
                            && live.get(i).facets().equals(rebuilt.facets()), "query " + i + " answers alike after the rebuild");
                    assertEquals(live.get(i).nextCursor() == null, rebuilt.nextCursor() == null);
                }
            }
        }
    }

    @Test
    void aRestartResumesFromTheCommittedPositionAndAnEmptyIndexIsBuiltFromEvents(@TempDir Path dir) throws Exception {
        try (Database db = TestDatabase.fresh()) {
            MySqlEventStore store = new MySqlEventStore(db.dataSource(), codec, Clock.systemUTC());
            for (int i = 0; i < 50; i++) {
                create(store, "Stored before the index existed " + i);
            }
            try (SearchFeed feed = SearchFeed.start(store, new LuceneIndexHome(dir, codec), Clock.systemUTC(), Duration.ofMillis(20), Duration.ZERO)) {
                awaitTotal(feed, "stored", 50);
            }
            create(store, "Stored while the node was down");
            try (SearchFeed feed = SearchFeed.start(store, new LuceneIndexHome(dir, codec), Clock.systemUTC(), Duration.ofMillis(20), Duration.ZERO)) {
                assertTrue(feed.figures().position() > 0, "resumed, not rebuilt");
                awaitTotal(feed, "stored", 51);
                long head = store.headPosition();
                long start = System.nanoTime(); // the feed records the position just after the view the search saw
                while (feed.figures().position() < head && System.nanoTime() - start < 5_000_000_000L) {
                    Thread.sleep(1);
                }
                assertEquals(head, feed.figures().position());
            }
        }
    }

    @Test
    void theLagFiguresForgetAQuietMinute() throws Exception {
        try (Database db = TestDatabase.fresh()) {
            MySqlEventStore store = new MySqlEventStore(db.dataSource(), codec, Clock.systemUTC());
            TestClock feedClock = new TestClock(Instant.now().plusSeconds(5)); // ahead of the store's: each write shows ~5 s of lag
            try (SearchFeed feed = SearchFeed.start(store, new LuceneIndexHome(null, codec), feedClock, NEVER, Duration.ofSeconds(5))) {
                feed.written(create(store, "Late").lastPosition());
                assertEquals(1, feed.search(SearchQuery.text("late", 5)).total());
                assertTrue(feed.figures().maxLagMillis() >= 4_000, "the write's lag is counted: " + feed.figures());
                feedClock.advance(Duration.ofSeconds(61)); // a minute without writes: the window must not go on showing that lag
                assertEquals(0, feed.figures().maxLagMillis(), "after a quiet minute: " + feed.figures());
            }
        }
    }

    private static void awaitTotal(SearchFeed feed, String q, long total) throws InterruptedException {
        long start = System.nanoTime();
        while (feed.search(SearchQuery.text(q, 1)).total() != total && System.nanoTime() - start < 10_000_000_000L) {
            Thread.sleep(10);
        }
        assertEquals(total, feed.search(SearchQuery.text(q, 1)).total());
    }

    private static AppendResult create(MySqlEventStore store, String title) {
        UUID id = UUID.randomUUID();
        return store.append(id, 0, List.of(new NewEvent(UUID.randomUUID(), "t",
                new RecordImported(Changes.forNewRecord(Metadata.EMPTY.with(Field.TITLE, title)), "idiom", id.toString()))));
    }
}
