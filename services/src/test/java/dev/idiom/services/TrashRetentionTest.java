package dev.idiom.services;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idiom.db.TestDatabase;
import dev.idiom.events.Field;
import dev.idiom.events.Lifecycle;
import dev.idiom.events.Metadata;
import dev.idiom.events.UnknownEntityException;
import dev.idiom.consistency.report.EntityGoneException;
import dev.idiom.services.app.EntityLifecycle;
import dev.idiom.wrappers.FakeTime;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Idiom's trash keeps a deleted DE restorable for trash-days, then purges it; a DE restored meanwhile stays. */
class TrashRetentionTest {
    @TempDir
    Path dir;

    @Test
    void aDeLeftInTheTrashLongerThanItsRetentionIsPurgedAndOneRestoredMeanwhileIsNot() {
        FakeTime time = new FakeTime();
        IdiomConfig config = IdiomConfig.from(Map.of("db-url", TestDatabase.freshUrl(), "data", dir.resolve("data").toString(), "sync-interval-ms", "0",
                "trash-days", "30"), Map.of(), k -> null);
        try (Idiom idiom = Idiom.start(config, time, time)) {
            EntityLifecycle lifecycle = idiom.application().lifecycle();
            UUID left = idiom.application().writes().create(Metadata.EMPTY.with(Field.TITLE, "Left in the trash"), "test").entity().id();
            UUID restored = idiom.application().writes().create(Metadata.EMPTY.with(Field.TITLE, "Taken back"), "test").entity().id();
            UUID recent = idiom.application().writes().create(Metadata.EMPTY.with(Field.TITLE, "Deleted later"), "test").entity().id();
            lifecycle.delete(left, 1, "test");
            lifecycle.delete(restored, 1, "test");
            time.pause(Duration.ofDays(20));
            lifecycle.delete(recent, 1, "test");
            lifecycle.restore(restored, "test");
            assertEquals(0, lifecycle.purgeExpired(), "nothing has been in the trash 30 days yet");
            time.pause(Duration.ofDays(11));
            // 31 days for the first, 11 for the last: only the first goes
            assertEquals(1, lifecycle.purgeExpired());
            assertEquals(Lifecycle.State.PURGED, idiom.store().load(left).orElseThrow().lifecycle().state());
            assertEquals(Metadata.EMPTY, idiom.store().load(left).orElseThrow().metadata(), "its content is gone from the projection");
            assertEquals(Lifecycle.State.TRASHED, idiom.store().load(recent).orElseThrow().lifecycle().state());
            assertTrue(idiom.store().load(restored).orElseThrow().live());
            assertEquals(1, lifecycle.trash(100).size());
            UnknownEntityException gone = assertThrows(EntityGoneException.class, () -> lifecycle.restore(left, "test"));
            assertTrue(gone.getMessage().contains("purged"), gone.getMessage());
            assertEquals(0, lifecycle.purgeExpired(), "a second sweep finds nothing more");
        }
    }
}
