package dev.idiom.events.zotero.mysql;

import dev.idiom.events.mysql.SqlWork;
import dev.idiom.events.sql.SqlProjection;
import dev.idiom.events.zotero.ServedLibraries;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import javax.sql.DataSource;

/** The served Zotero libraries in MySQL/MariaDB ({@code zotero_*}), bound parameters only. */
public final class MySqlServedLibraries implements ServedLibraries {
    private static final String LIBRARY = "SELECT id, kind, number, account, name, version, meta FROM zotero_library";
    private static final String OBJECT = "SELECT object_type, object_key, version, parent_key, trashed, data, created_by, modified_by FROM zotero_object";

    private final DataSource db;

    public MySqlServedLibraries(DataSource db) {
        this.db = db;
    }

    @Override
    public Optional<Library> library(String kind, long number) {
        return SqlWork.on(db, "served libraries", c -> one(c, LIBRARY + " WHERE kind = ? AND number = ?", kind, number));
    }

    @Override
    public Optional<Library> byAccount(String account) {
        return SqlWork.on(db, "served libraries", c -> one(c, LIBRARY + " WHERE account = ?", account));
    }

    @Override
    public List<Library> libraries(String kind) {
        return SqlWork.on(db, "served libraries", c -> {
            List<Library> out = new ArrayList<>();
            try (PreparedStatement ps = c.prepareStatement(LIBRARY + " WHERE kind = ? ORDER BY number")) {
                ps.setString(1, kind);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        out.add(library(rs));
                    }
                }
            }
            return out;
        });
    }

    private static Optional<Library> one(Connection c, String sql, Object... args) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < args.length; i++) {
                ps.setObject(i + 1, args[i]);
            }
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(library(rs)) : Optional.empty();
            }
        }
    }

    private static Library library(ResultSet rs) throws SQLException {
        return new Library(rs.getLong(1), rs.getString(2), rs.getLong(3), rs.getString(4), rs.getString(5), rs.getLong(6), rs.getString(7));
    }

    @Override
    public Library create(String kind, long number, String account, String name, String meta) {
        return SqlWork.transaction(db, "served libraries", c -> {
            long n = number;
            if (n == 0) {
                try (PreparedStatement ps = c.prepareStatement("SELECT COALESCE(MAX(number), 0) + 1 FROM zotero_library WHERE kind = ? FOR UPDATE")) {
                    ps.setString(1, kind);
                    try (ResultSet rs = ps.executeQuery()) {
                        rs.next();
                        n = rs.getLong(1);
                    }
                }
            }
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO zotero_library (kind, number, account, name, version, meta) VALUES (?, ?, ?, ?, 0, ?)",
                    Statement.RETURN_GENERATED_KEYS)) {
                ps.setString(1, kind);
                ps.setLong(2, n);
                ps.setString(3, account);
                ps.setString(4, name);
                ps.setString(5, meta);
                ps.executeUpdate();
                try (ResultSet keys = ps.getGeneratedKeys()) {
                    keys.next();
                    return new Library(keys.getLong(1), kind, n, account, name, 0, meta);
                }
            }
        });
    }

    @Override
    public void describe(long library, String name, String meta) {
        SqlWork.on(db, "served libraries", c -> update(c, "UPDATE zotero_library SET name = ?, meta = ? WHERE id = ?", name, meta, library));
    }

    @Override
    public void clear(long library) {
        SqlWork.transaction(db, "served libraries", c -> {
            lock(c, library);
            for (String table : List.of("zotero_object", "zotero_deletion", "zotero_setting")) {
                update(c, "DELETE FROM " + table + " WHERE library_id = ?", library);
            }
            update(c, "UPDATE zotero_library SET version = version + 1 WHERE id = ?", library); // emptied is a change: versions go on growing
            return null;
        });
    }

    @Override
    public void drop(long library) {
        SqlWork.transaction(db, "served libraries", c -> {
            for (String table : List.of("zotero_object", "zotero_deletion", "zotero_setting")) {
                update(c, "DELETE FROM " + table + " WHERE library_id = ?", library);
            }
            update(c, "DELETE FROM zotero_sign_in WHERE user_number = (SELECT number FROM zotero_library WHERE id = ? AND kind = 'user')", library);
            update(c, "DELETE FROM zotero_library WHERE id = ?", library);
            return null;
        });
    }

    private static int update(Connection c, String sql, Object... args) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < args.length; i++) {
                ps.setObject(i + 1, args[i]);
            }
            return ps.executeUpdate();
        }
    }

    private static long lock(Connection c, long library) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT version FROM zotero_library WHERE id = ? FOR UPDATE")) {
            ps.setLong(1, library);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    throw new IllegalArgumentException("no served library " + library);
                }
                return rs.getLong(1);
            }
        }
    }

    @Override
    public long version(long library) {
        return SqlWork.on(db, "served libraries", c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT version FROM zotero_library WHERE id = ?")) {
                ps.setLong(1, library);
                try (ResultSet rs = ps.executeQuery()) {
                    return rs.next() ? rs.getLong(1) : -1L;
                }
            }
        });
    }

    @Override
    public List<StoredObject> objects(long library, String type) {
        return SqlWork.on(db, "served libraries", c -> objects(c, OBJECT + " WHERE library_id = ? AND object_type = ?", library, type));
    }

    private static List<StoredObject> objects(Connection c, String sql, Object... args) throws SQLException {
        List<StoredObject> out = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < args.length; i++) {
                ps.setObject(i + 1, args[i]);
            }
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(new StoredObject(rs.getString(1), rs.getString(2), rs.getLong(3), rs.getString(4), rs.getBoolean(5), rs.getString(6),
                            rs.getObject(7, Long.class), rs.getObject(8, Long.class)));
                }
            }
        }
        return out;
    }

    @Override
    public List<Deletion> deletions(long library, long since) {
        return SqlWork.on(db, "served libraries", c -> {
            List<Deletion> out = new ArrayList<>();
            try (PreparedStatement ps = c.prepareStatement(
                    "SELECT object_type, object_key, version FROM zotero_deletion WHERE library_id = ? AND version > ? ORDER BY version, object_key")) {
                ps.setLong(1, library);
                ps.setLong(2, since);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        out.add(new Deletion(rs.getString(1), rs.getString(2), rs.getLong(3)));
                    }
                }
            }
            return out;
        });
    }

    @Override
    public List<Setting> settings(long library) {
        return SqlWork.on(db, "served libraries", c -> settings(c, library, null));
    }

    private static List<Setting> settings(Connection c, long library, String name) throws SQLException {
        List<Setting> out = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT name, value, version FROM zotero_setting WHERE library_id = ?"
                + (name == null ? "" : " AND name = ?") + " ORDER BY name")) {
            ps.setLong(1, library);
            if (name != null) {
                ps.setString(2, name);
            }
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(new Setting(rs.getString(1), rs.getString(2), rs.getLong(3)));
                }
            }
        }
        return out;
    }

    @Override
    public <T> T write(long library, Function<LibraryWrite, T> work) {
        return SqlWork.transaction(db, "served libraries", c -> {
            long before = lock(c, library);
            Write w = new Write(c, library, before);
            T result = work.apply(w);
            if (w.after() > before) {
                update(c, "UPDATE zotero_library SET version = ? WHERE id = ?", w.after(), library);
            }
            return result;
        });
    }

    /** One write request's changes on its transaction's connection. */
    private static final class Write implements LibraryWrite {
        private final Connection c;
        private final long library;
        private final long before;
        /** The version the changes take now. */
        private long at;
        /** The highest version a change took (before: none). */
        private long used;

        Write(Connection c, long library, long before) {
            this.c = c;
            this.library = library;
            this.before = before;
            this.at = before + 1;
            this.used = before;
        }

        @Override
        public long version() {
            return before;
        }

        @Override
        public long next() {
            used = at;
            return at;
        }

        @Override
        public void nextObject() {
            if (used == at) {
                at++;
            }
        }

        @Override
        public long after() {
            return used;
        }

        private <T> T sql(SqlWork<T> work) {
            try {
                return work.run(c);
            } catch (SQLException e) {
                throw new dev.idiom.events.EventStoreException("served libraries: " + e.getMessage(), e);
            }
        }

        @Override
        public Optional<StoredObject> object(String type, String key) {
            return sql(c -> MySqlServedLibraries.objects(c, OBJECT + " WHERE library_id = ? AND object_type = ? AND object_key = ?", library, type, key).stream().findFirst());
        }

        @Override
        public List<StoredObject> objects(String type, Collection<String> keys) {
            if (keys.isEmpty()) {
                return List.of();
            }
            Object[] args = new Object[keys.size() + 2];
            args[0] = library;
            args[1] = type;
            int i = 2;
            for (String k : keys) {
                args[i++] = k;
            }
            String marks = String.join(", ", java.util.Collections.nCopies(keys.size(), "?"));
            return sql(c -> MySqlServedLibraries.objects(c, OBJECT + " WHERE library_id = ? AND object_type = ? AND object_key IN (" + marks + ")", args));
        }

        @Override
        public void put(String type, String key, String parentKey, boolean trashed, String data) {
            long v = next();
            sql(c -> {
                update(c, "INSERT INTO zotero_object (library_id, object_type, object_key, version, parent_key, trashed, data) VALUES (?, ?, ?, ?, ?, ?, ?) "
                        + "ON DUPLICATE KEY UPDATE version = VALUES(version), parent_key = VALUES(parent_key), trashed = VALUES(trashed), data = VALUES(data)",
                        library, type, key, v, parentKey, trashed, data);
                return update(c, "DELETE FROM zotero_deletion WHERE library_id = ? AND object_type = ? AND object_key = ?", library, type, key);
            });
        }

        @Override
        public void put(String type, String key, String parentKey, boolean trashed, String data, Long user, boolean changedIt) {
            long v = next();
            sql(c -> {
                Long maker = user;
                try (PreparedStatement ps = c.prepareStatement("SELECT created_by FROM zotero_deletion WHERE library_id = ? AND object_type = ? AND object_key = ?")) {
                    ps.setLong(1, library);
                    ps.setString(2, type);
                    ps.setString(3, key);
                    try (ResultSet rs = ps.executeQuery()) {
                        if (rs.next() && rs.getObject(1) != null) {
                            maker = rs.getLong(1); // made again under its key: its first maker stays
                        }
                    }
                }
                update(c, "INSERT INTO zotero_object (library_id, object_type, object_key, version, parent_key, trashed, data, created_by, modified_by) "
                        + "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON DUPLICATE KEY UPDATE version = VALUES(version), parent_key = VALUES(parent_key), "
                        + "trashed = VALUES(trashed), data = VALUES(data), created_by = COALESCE(created_by, VALUES(created_by)), "
                        + "modified_by = IF(?, VALUES(modified_by), modified_by)", library, type, key, v, parentKey, trashed, data, maker, user, changedIt);
                return update(c, "DELETE FROM zotero_deletion WHERE library_id = ? AND object_type = ? AND object_key = ?", library, type, key);
            });
        }

        @Override
        public void delete(String type, String key) {
            long v = next();
            sql(c -> {
                deleted(c, type, key, v); // first, so that it keeps who made the object
                return update(c, "DELETE FROM zotero_object WHERE library_id = ? AND object_type = ? AND object_key = ?", library, type, key);
            });
        }

        private int deleted(Connection c, String type, String key, long v) throws SQLException {
            return update(c, "INSERT INTO zotero_deletion (library_id, object_type, object_key, version, created_by) VALUES (?, ?, ?, ?, "
                    + "(SELECT o.created_by FROM zotero_object o WHERE o.library_id = ? AND o.object_type = ? AND o.object_key = ?)) "
                    + "ON DUPLICATE KEY UPDATE version = VALUES(version), created_by = VALUES(created_by)", library, type, key, v, library, type, key);
        }

        @Override
        public Optional<Setting> setting(String name) {
            return sql(c -> settings(c, library, name).stream().findFirst());
        }

        @Override
        public void putSetting(String name, String value) {
            long v = next();
            sql(c -> {
                update(c, "INSERT INTO zotero_setting (library_id, name, value, version) VALUES (?, ?, ?, ?) "
                        + "ON DUPLICATE KEY UPDATE value = VALUES(value), version = VALUES(version)", library, name, value, v);
                return update(c, "DELETE FROM zotero_deletion WHERE library_id = ? AND object_type = 'setting' AND object_key = ?", library, name);
            });
        }

        @Override
        public void deleteSetting(String name) {
            long v = next();
            sql(c -> {
                update(c, "DELETE FROM zotero_setting WHERE library_id = ? AND name = ?", library, name);
                return deleted(c, "setting", name, v);
            });
        }

        @Override
        public void forgetSetting(String name, boolean everywhere) {
            sql(c -> everywhere ? update(c, "DELETE FROM zotero_setting WHERE name = ?", name)
                    : update(c, "DELETE FROM zotero_setting WHERE library_id = ? AND name = ?", library, name));
        }

        @Override
        public void tagDeleted(String tag) {
            long v = next();
            sql(c -> deleted(c, "tag", tag, v));
        }
    }

    @Override
    public void addKey(ClientKey k) {
        SqlWork.on(db, "served library keys", c -> update(c, "INSERT INTO zotero_key (key_hash, user_number, name, access, created_at) VALUES (?, ?, ?, ?, ?) "
                + "ON DUPLICATE KEY UPDATE user_number = VALUES(user_number), name = VALUES(name), access = VALUES(access)",
                k.hash(), k.userNumber(), k.name(), k.access(), SqlProjection.utc(k.createdAt())));
    }

    @Override
    public Optional<ClientKey> key(String hash) {
        return SqlWork.on(db, "served library keys", c -> keys(c, "key_hash = ?", hash).stream().findFirst());
    }

    @Override
    public List<ClientKey> keys(long userNumber) {
        return SqlWork.on(db, "served library keys", c -> keys(c, "user_number = ?", userNumber));
    }

    private static List<ClientKey> keys(Connection c, String where, Object arg) throws SQLException {
        List<ClientKey> out = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT key_hash, user_number, name, access, created_at FROM zotero_key WHERE " + where
                + " ORDER BY created_at")) {
            ps.setObject(1, arg);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(new ClientKey(rs.getString(1), rs.getLong(2), rs.getString(3), rs.getString(4), SqlWork.instant(rs, 5)));
                }
            }
        }
        return out;
    }

    @Override
    public boolean removeKey(String hash) {
        return SqlWork.on(db, "served library keys", c -> update(c, "DELETE FROM zotero_key WHERE key_hash = ?", hash) == 1);
    }

    @Override
    public void putSignIn(SignIn s) {
        SqlWork.on(db, "served sign-ins", c -> update(c, "INSERT INTO zotero_sign_in (user_number, username, password_hash) VALUES (?, ?, ?) "
                + "ON DUPLICATE KEY UPDATE username = VALUES(username), password_hash = VALUES(password_hash)", s.userNumber(), s.username(), s.passwordHash()));
    }

    @Override
    public Optional<SignIn> signIn(String username) {
        return SqlWork.on(db, "served sign-ins", c -> signIns(c, "username = ?", username));
    }

    @Override
    public Optional<SignIn> signInOf(long userNumber) {
        return SqlWork.on(db, "served sign-ins", c -> signIns(c, "user_number = ?", userNumber));
    }

    private static Optional<SignIn> signIns(Connection c, String where, Object arg) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT user_number, username, password_hash FROM zotero_sign_in WHERE " + where)) {
            ps.setObject(1, arg);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(new SignIn(rs.getLong(1), rs.getString(2), rs.getString(3))) : Optional.empty();
            }
        }
    }
}
