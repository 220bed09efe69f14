package dev.idiom.events.mysql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idiom.db.Database;
import dev.idiom.db.TestDatabase;
import dev.idiom.events.DigitalEntity;
import dev.idiom.events.EntityEvent;
import dev.idiom.events.EventCodec;
import dev.idiom.events.Field;
import dev.idiom.events.Metadata;
import dev.idiom.events.RecordImported;
import dev.idiom.events.ReplicaUnlinked;
import dev.idiom.events.Visibility;
import dev.idiom.events.migration.V16__private_origin;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.flywaydb.core.api.configuration.Configuration;
import org.flywaydb.core.api.migration.Context;
import org.junit.jupiter.api.Test;

/**
 * A store written before privacy followed the content: a DE from a private bookmark whose bookmark
 * was then deleted has a stored projection without its private origin (and so was shown to every
 * reader). Migration V16 refolds it: hidden again, and a rebuild finds it byte-identical.
 */
class PrivateOriginUpgradeTest {
    private static final UUID ID = UUID.randomUUID();

    @Test
    void migrationV16RefoldsDesThatHadAPrivateCopySoTheyStayPrivateAndRebuildIdentical() throws Exception {
        EventCodec codec = new EventCodec();
        Metadata page = Metadata.EMPTY.with(Field.TYPE, "webpage").with(Field.TITLE, "Vellichor diary").with(Field.URL, "https://example.org/diary");
        List<EntityEvent> events = List.of(new RecordImported(page, "bookmarks", "marks.html", "https://example.org/diary", null, null, null, true),
                new ReplicaUnlinked("bookmarks", "marks.html", "https://example.org/diary", page, "deleted in its tool"));
        Instant at = Instant.parse("2026-01-01T00:00:00Z");
        DigitalEntity now = DigitalEntity.empty(ID);
        for (EntityEvent e : events) {
            now = now.apply(e, at);
        }
        DigitalEntity former = new DigitalEntity(ID, now.version(), now.metadata(), now.replicas(), now.createdAt(), now.updatedAt(), now.markedPrivate(),
                now.lifecycle(), now.detached(), now.heldFields()); // as the release before folded it: no origin
        assertTrue(Visibility.hidden(now) && !Visibility.hidden(former));
        try (Database db = TestDatabase.fresh(); Connection c = db.dataSource().getConnection()) {
            try (PreparedStatement ps = c.prepareStatement("SELECT COUNT(*) FROM flyway_schema_history WHERE version = '16' AND success = 1");
                 ResultSet rs = ps.executeQuery()) {
                assertTrue(rs.next() && rs.getInt(1) == 1, "Flyway finds and runs the Java migration at start-up");
            }
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO event (position, event_id, entity_id, version, type, source, payload, "
                    + "recorded_at) VALUES (?, ?, ?, ?, ?, 'test', ?, ?)")) {
                for (int v = 1; v <= events.size(); v++) {
                    EntityEvent e = events.get(v - 1);
                    ps.setLong(1, v);
                    ps.setString(2, UUID.randomUUID().toString());
                    ps.setString(3, ID.toString());
                    ps.setInt(4, v);
                    ps.setString(5, e.getClass().getSimpleName());
                    ps.setString(6, codec.payload(e));
                    ps.setObject(7, dev.idiom.events.sql.SqlProjection.utc(at));
                    ps.executeUpdate();
                }
            }
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO entity (entity_id, version, state, created_at, updated_at) VALUES (?, ?, ?, ?, ?)")) {
                ps.setString(1, ID.toString());
                ps.setInt(2, former.version());
                ps.setString(3, codec.entity(former));
                ps.setObject(4, dev.idiom.events.sql.SqlProjection.utc(at));
                ps.setObject(5, dev.idiom.events.sql.SqlProjection.utc(at));
                ps.executeUpdate();
            }
            MySqlEventStore store = new MySqlEventStore(db.dataSource(), codec, Clock.systemUTC());
            assertEquals(List.of(ID), store.verifyProjections().differing(), "the former projection lacks the origin");

            new V16__private_origin().migrate(new Context() {
                @Override
                public Configuration getConfiguration() {
                    return null;
                }

                @Override
                public Connection getConnection() {
                    return c;
                }
            });
            assertTrue(store.verifyProjections().clean(), "after V16 a rebuild is byte-identical");
            try (PreparedStatement ps = c.prepareStatement("SELECT state FROM entity WHERE entity_id = ?")) {
                ps.setString(1, ID.toString());
                try (ResultSet rs = ps.executeQuery()) {
                    assertTrue(rs.next());
                    assertTrue(Visibility.hidden(codec.entity(rs.getString(1))), "hidden again: its content came from a private bookmark");
                }
            }
        }
    }
}
