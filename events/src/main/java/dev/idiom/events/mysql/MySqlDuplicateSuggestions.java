package dev.idiom.events.mysql;

import dev.idiom.events.DuplicateSuggestions;
import dev.idiom.events.MatchKeys;
import dev.idiom.events.sql.SqlProjection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import javax.sql.DataSource;

/** Suggested duplicates read from the match-key table ({@code entity_match}), dismissals in {@code duplicate_dismissal}. */
public final class MySqlDuplicateSuggestions implements DuplicateSuggestions {
    private final DataSource db;

    public MySqlDuplicateSuggestions(DataSource db) {
        this.db = db;
    }

    @Override
    public List<Candidate> candidates(int limit) {
        return SqlWork.on(db, "suggested duplicates", c -> {
            List<Candidate> out = new ArrayList<>();
            // each work key held by two DEs, strongest kind first; the self-join walks match_idx (kind, key, entity)
            try (PreparedStatement ps = c.prepareStatement("SELECT m1.kind, m1.match_key, m1.entity_id, m2.entity_id"
                    + " FROM entity_match m1 FORCE INDEX (match_idx)"
                    + " JOIN entity_match m2 FORCE INDEX (match_idx) ON m2.kind = m1.kind AND m2.match_key = m1.match_key AND m2.entity_id > m1.entity_id"
                    + " WHERE m1.kind IN (?, ?, ?)"
                    + " AND NOT EXISTS (SELECT 1 FROM duplicate_dismissal d WHERE d.first_id = m1.entity_id AND d.second_id = m2.entity_id)"
                    + " ORDER BY FIELD(m1.kind, ?, ?, ?), m1.entity_id, m2.entity_id LIMIT ?")) {
                ps.setString(1, MatchKeys.DOI);
                ps.setString(2, MatchKeys.URL);
                ps.setString(3, MatchKeys.TITLE);
                ps.setString(4, MatchKeys.DOI);
                ps.setString(5, MatchKeys.URL);
                ps.setString(6, MatchKeys.TITLE);
                ps.setInt(7, limit);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        out.add(new Candidate(UUID.fromString(rs.getString(3)), UUID.fromString(rs.getString(4)),
                                new MatchKeys.Key(rs.getString(1), rs.getString(2))));
                    }
                }
            }
            return out;
        });
    }

    @Override
    public long dismissed() {
        return SqlWork.on(db, "suggested duplicates", c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT COUNT(*) FROM duplicate_dismissal"); java.sql.ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        });
    }

    @Override
    public void dismiss(UUID a, UUID b, String by, Instant at) {
        UUID[] pair = DuplicateSuggestions.ordered(a, b);
        SqlWork.on(db, "suggested duplicates", c -> {
            try (PreparedStatement ps = c.prepareStatement("INSERT IGNORE INTO duplicate_dismissal (first_id, second_id, dismissed_at, dismissed_by)"
                    + " VALUES (?, ?, ?, ?)")) {
                ps.setString(1, pair[0].toString());
                ps.setString(2, pair[1].toString());
                ps.setObject(3, SqlProjection.utc(at));
                ps.setString(4, by);
                return ps.executeUpdate();
            }
        });
    }
}
