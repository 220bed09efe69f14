package dev.idiom.events.accounts.mysql;

import dev.idiom.events.mysql.SqlWork;

import dev.idiom.events.accounts.ApiKeyRepository;
import dev.idiom.events.accounts.StoredApiKey;
import dev.idiom.events.sql.SqlProjection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLIntegrityConstraintViolationException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import javax.sql.DataSource;

/** API keys in MySQL/MariaDB ({@code api_key}), bound parameters only. */
public final class MySqlApiKeys implements ApiKeyRepository {
    private static final String COLUMNS = "name, role, key_hash, created_at, created_by, revoked_at, sees_private";

    private final DataSource db;

    public MySqlApiKeys(DataSource db) {
        this.db = db;
    }

    @Override
    public boolean insert(StoredApiKey k) {
        return SqlWork.on(db, "api keys", c -> {
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO api_key (" + COLUMNS + ") VALUES (?, ?, ?, ?, ?, ?, ?)")) {
                ps.setString(1, k.name());
                ps.setString(2, k.role());
                ps.setString(3, k.keyHash());
                ps.setObject(4, SqlProjection.utc(k.createdAt()));
                ps.setString(5, k.createdBy());
                ps.setObject(6, k.revokedAt() == null ? null : SqlProjection.utc(k.revokedAt()));
                ps.setBoolean(7, k.seesPrivate());
                ps.executeUpdate();
                return true;
            } catch (SQLIntegrityConstraintViolationException duplicate) {
                return false;
            }
        });
    }

    @Override
    public List<StoredApiKey> list() {
        return SqlWork.on(db, "api keys", c -> {
            List<StoredApiKey> out = new ArrayList<>();
            try (PreparedStatement ps = c.prepareStatement("SELECT " + COLUMNS + " FROM api_key ORDER BY name"); ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(key(rs));
                }
            }
            return out;
        });
    }

    @Override
    public Optional<StoredApiKey> byHash(String keyHash) {
        return SqlWork.on(db, "api keys", c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT " + COLUMNS + " FROM api_key WHERE key_hash = ?")) {
                ps.setString(1, keyHash);
                try (ResultSet rs = ps.executeQuery()) {
                    return rs.next() ? Optional.of(key(rs)) : Optional.empty();
                }
            }
        });
    }

    @Override
    public boolean revoke(String name, Instant at) {
        return SqlWork.on(db, "api keys", c -> {
            try (PreparedStatement ps = c.prepareStatement("UPDATE api_key SET revoked_at = ? WHERE name = ? AND revoked_at IS NULL")) {
                ps.setObject(1, SqlProjection.utc(at));
                ps.setString(2, name);
                return ps.executeUpdate() == 1;
            }
        });
    }

    private static StoredApiKey key(ResultSet rs) throws SQLException {
        return new StoredApiKey(rs.getString(1), rs.getString(2), rs.getString(3), SqlWork.instant(rs, 4), rs.getString(5), SqlWork.instant(rs, 6),
                rs.getBoolean(7));
    }
}
