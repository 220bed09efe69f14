package dev.idiom.events.migration;

import dev.idiom.events.DigitalEntity;
import dev.idiom.events.EventCodec;
import dev.idiom.events.RecordedEvent;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.flywaydb.core.api.migration.BaseJavaMigration;
import org.flywaydb.core.api.migration.Context;

/**
 * Refolds the stored projections of DEs that ever had a private copy, so they carry what only
 * private copies supplied ({@link dev.idiom.events.PrivateOrigin}): a store from before keeps
 * such a DE private after its private copy goes, and {@code ./idiom rebuild} finds every
 * projection identical. Events are not touched; other DEs keep their bytes.
 */
public class V16__private_origin extends BaseJavaMigration {

    @Override
    public void migrate(Context context) throws Exception {
        Connection c = context.getConnection();
        EventCodec codec = new EventCodec();
        List<String> ids = new ArrayList<>();
        // a private copy's import or link says so in its payload; nothing else in a payload is spelled this way
        try (PreparedStatement ps = c.prepareStatement("SELECT DISTINCT entity_id FROM event WHERE type IN ('RecordImported', 'ReplicaLinked')"
                + " AND payload LIKE '%\"private\":true%'"); ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                ids.add(rs.getString(1));
            }
        }
        try (PreparedStatement events = c.prepareStatement("SELECT position, event_id, entity_id, version, type, source, payload, recorded_at"
                + " FROM event WHERE entity_id = ? ORDER BY version");
             PreparedStatement update = c.prepareStatement("UPDATE entity SET state = ? WHERE entity_id = ?")) {
            for (String id : ids) {
                events.setString(1, id);
                List<RecordedEvent> stream = new ArrayList<>();
                try (ResultSet rs = events.executeQuery()) {
                    while (rs.next()) {
                        stream.add(new RecordedEvent(rs.getLong(1), UUID.fromString(rs.getString(2)), UUID.fromString(rs.getString(3)), rs.getInt(4),
                                rs.getString(6), rs.getObject(8, java.time.LocalDateTime.class).toInstant(ZoneOffset.UTC),
                                codec.event(rs.getString(5), rs.getString(7))));
                    }
                }
                DigitalEntity de = DigitalEntity.fold(UUID.fromString(id), stream);
                update.setString(1, codec.entity(de));
                update.setString(2, id);
                update.executeUpdate();
            }
        }
    }
}
