package dev.idiom.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idiom.cache.ehcache.EhcacheEntityCache;
import dev.idiom.db.Database;
import dev.idiom.db.TestDatabase;
import dev.idiom.events.Changes;
import dev.idiom.events.EntitySnapshot;
import dev.idiom.events.EventCodec;
import dev.idiom.events.Field;
import dev.idiom.events.FieldChanged;
import dev.idiom.events.Metadata;
import dev.idiom.events.NewEvent;
import dev.idiom.events.RecordImported;
import dev.idiom.events.mysql.MySqlEventStore;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Another node's write, seen only through the change feed, invalidates this node's entry. */
class ChangeFeedInvalidationTest {

    @Test
    void aWriteByAnotherNodeMarksTheCachedEntryStaleWithinAFewPolls() throws Exception {
        EventCodec codec = new EventCodec();
        try (Database db = TestDatabase.fresh(); EntityCache cache = new EhcacheEntityCache(CacheSettings.DEFAULTS)) {
            MySqlEventStore store = new MySqlEventStore(db.dataSource(), codec, Clock.systemUTC());
            UUID id = UUID.randomUUID();
            store.append(id, 0, List.of(new NewEvent(UUID.randomUUID(), "t",
                    new RecordImported(Changes.forNewRecord(Metadata.EMPTY.with(Field.TITLE, "Feed")), "idiom", id.toString()))));
            cache.offer(EntitySnapshot.of(store.loadStored(id).orElseThrow(), codec));

            try (ChangeFeedInvalidation feed = ChangeFeedInvalidation.start(store, cache, Clock.systemUTC(), Duration.ofMillis(50))) {
                // "another node" appends straight to the store; this cache hears of it only via the feed
                store.append(id, 1, List.of(new NewEvent(UUID.randomUUID(), "t", new FieldChanged(Field.TITLE, "Feed, changed"))));
                long start = System.nanoTime();
                while (cache.get(id).isPresent() && System.nanoTime() - start < 5_000_000_000L) {
                    Thread.sleep(5);
                }
                long millis = (System.nanoTime() - start) / 1_000_000;
                assertTrue(cache.get(id).isEmpty(), "the stale entry is no longer served");
                assertTrue(millis < 2_000, "invalidated after " + millis + " ms");
                // the poller records its progress just after the invalidation the loop above saw
                long head = store.headPosition();
                while (feed.position() < head && System.nanoTime() - start < 5_000_000_000L) {
                    Thread.sleep(1);
                }
                assertEquals(head, feed.position());
                assertTrue(feed.eventsFollowed() >= 1);
            }
        }
    }
}
