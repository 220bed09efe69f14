package dev.idiom.events.mysql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idiom.db.Database;
import dev.idiom.db.TestDatabase;
import dev.idiom.events.DigitalEntity;
import dev.idiom.events.EventCodec;
import dev.idiom.events.RebuildReport;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Events the release before the CSL record wrote (resources/former-release, made by that release's
 * EventCodec at 60c2c1a: a Zotero import, a BibTeX link, type changes to inproceedings and misc, a
 * push) fold into the new model, and its stored projection, once migration V11 has run, is what a
 * rebuild makes of them byte for byte.
 */
class FormerReleaseUpgradeTest {
    private static final UUID ID = UUID.fromString("0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b");

    private record Row(String type, Instant at, String payload) {}

    private static List<Row> rows() throws IOException {
        List<Row> out = new ArrayList<>();
        try (InputStream in = FormerReleaseUpgradeTest.class.getResourceAsStream("/former-release/events-60c2c1a.tsv")) {
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                String[] f = line.split("\t");
                out.add(f[0].equals("PROJECTION") ? new Row(f[0], null, f[1]) : new Row(f[0], Instant.parse(f[1]), f[2]));
            }
        }
        return out;
    }

    /** What migration V11 does to a stored projection. */
    private static String v11(String projection) {
        return projection.replace("\"type\":\"article\"", "\"type\":\"article-journal\"").replace("\"type\":\"inproceedings\"", "\"type\":\"paper-conference\"")
                .replace("\"type\":\"misc\"", "\"type\":\"document\"");
    }

    @Test
    void eventsOfTheFormerReleaseFoldIntoTheNewModelAsTheMigratedProjectionSays() throws IOException {
        EventCodec codec = new EventCodec();
        DigitalEntity de = DigitalEntity.empty(ID);
        String formerProjection = null;
        for (Row r : rows()) {
            if (r.type().equals("PROJECTION")) {
                formerProjection = r.payload();
            } else {
                de = de.apply(codec.event(r.type(), r.payload()), r.at());
            }
        }
        assertEquals("document", de.metadata().type(), "misc is read as document");
        assertEquals("paper-conference", de.replicas().stream().filter(x -> x.tool().equals("zotero")).findFirst().orElseThrow().synced().type());
        assertTrue(de.replicas().stream().filter(x -> x.tool().equals("zotero")).findFirst().orElseThrow().shadow().contains("\"type\":\"article\""),
                "a shadow is the tool's own text, never rewritten");
        assertEquals(v11(formerProjection), codec.entity(de), "the new fold is the former projection with the three types renamed, and nothing else");
    }

    @Test
    void afterMigrationV11ARebuildOfTheFormerReleasesDataIsByteIdentical() throws IOException, SQLException {
        try (Database db = TestDatabase.fresh()) {
            List<Row> rows = rows();
            try (Connection c = db.dataSource().getConnection()) {
                int version = 0;
                try (PreparedStatement ps = c.prepareStatement("INSERT INTO event (position, event_id, entity_id, version, type, source, payload, "
                        + "recorded_at) VALUES (?, ?, ?, ?, ?, 'test', ?, ?)")) {
                    for (Row r : rows) {
                        if (r.type().equals("PROJECTION")) {
                            continue;
                        }
                        version++;
                        ps.setLong(1, version);
                        ps.setString(2, UUID.randomUUID().toString());
                        ps.setString(3, ID.toString());
                        ps.setInt(4, version);
                        ps.setString(5, r.type());
                        ps.setString(6, r.payload());
                        ps.setObject(7, dev.idiom.events.sql.SqlProjection.utc(r.at()));
                        ps.executeUpdate();
                    }
                }
                String projection = rows.getLast().payload(); // as the former release stored it
                try (PreparedStatement ps = c.prepareStatement("INSERT INTO entity (entity_id, version, state, created_at, updated_at) VALUES (?, ?, ?, ?, ?)")) {
                    ps.setString(1, ID.toString());
                    ps.setInt(2, version);
                    ps.setString(3, projection);
                    ps.setObject(4, dev.idiom.events.sql.SqlProjection.utc(rows.getFirst().at()));
                    ps.setObject(5, dev.idiom.events.sql.SqlProjection.utc(rows.get(rows.size() - 2).at()));
                    ps.executeUpdate();
                }
                MySqlEventStore store = new MySqlEventStore(db.dataSource(), new EventCodec(), Clock.systemUTC());
                assertEquals(List.of(ID), store.verifyProjections().differing(), "before the migration the stored projection says the former types");
                try (InputStream in = getClass().getResourceAsStream("/db/migration/V11__csl_types.sql"); Statement s = c.createStatement()) {
                    String sql = new String(in.readAllBytes(), StandardCharsets.UTF_8).replaceAll("(?m)^--.*$", "");
                    s.execute(sql.strip().replaceAll(";$", ""));
                }
                RebuildReport after = store.verifyProjections();
                assertTrue(after.clean(), "after V11 the rebuild is byte-identical: " + after.differing());
                assertEquals(7, after.events());
            }
        }
    }
}
