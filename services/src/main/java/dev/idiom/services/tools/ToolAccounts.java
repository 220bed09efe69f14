package dev.idiom.services.tools;

import dev.idiom.events.EventStoreException;
import dev.idiom.events.InvalidValueException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import javax.sql.DataSource;

/** The stored tool accounts, secrets sealed; and the import cursors per tool account. */
public final class ToolAccounts {
    public static final Set<String> KINDS = Set.of("zotero", "pinboard", "bibsonomy", "idiom", "bibtex", "bookmarks");

    private final DataSource db;
    private final SecretBox secrets;
    private final Clock clock;

    public ToolAccounts(DataSource db, SecretBox secrets, Clock clock) {
        this.db = db;
        this.secrets = secrets;
        this.clock = clock;
    }

    /** An account with its secret opened, for building an adapter; never leaves the server. */
    record Opened(ToolAccount account, String secret) {}

    public ToolAccount put(String name, String kind, String baseUrl, String account, String secret) {
        if (name == null || !name.matches("[A-Za-z0-9._-]{1,64}")) {
            throw new InvalidValueException("a tool account name is 1–64 letters, digits, '.', '_' or '-'");
        }
        if (!KINDS.contains(kind)) {
            throw new InvalidValueException("kind must be one of " + new java.util.TreeSet<>(KINDS) + ", got '" + kind + "'");
        }
        if (baseUrl == null || baseUrl.isBlank()) {
            throw new InvalidValueException("baseUrl is required (the API root, or the file's path for bibtex and bookmarks)");
        }
        String sealed = secret == null || secret.isEmpty() ? null : secrets.seal(secret);
        return run(c -> {
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO tool_account (name, kind, base_url, account, secret, updated_at) VALUES (?, ?, ?, ?, ?, ?) "
                    + "ON DUPLICATE KEY UPDATE kind = VALUES(kind), base_url = VALUES(base_url), account = VALUES(account), secret = VALUES(secret), "
                    + "updated_at = VALUES(updated_at)")) {
                ps.setString(1, name);
                ps.setString(2, kind);
                ps.setString(3, baseUrl.strip());
                ps.setString(4, account == null ? "" : account.strip());
                ps.setString(5, sealed);
                ps.setObject(6, LocalDateTime.ofInstant(clock.instant(), ZoneOffset.UTC));
                ps.executeUpdate();
            }
            return new ToolAccount(name, kind, baseUrl.strip(), account == null ? "" : account.strip(), sealed != null);
        });
    }

    public List<ToolAccount> list() {
        return run(c -> {
            List<ToolAccount> out = new ArrayList<>();
            try (PreparedStatement ps = c.prepareStatement("SELECT name, kind, base_url, account, secret FROM tool_account ORDER BY name");
                 ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(new ToolAccount(rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4), rs.getString(5) != null));
                }
            }
            return out;
        });
    }

    Optional<Opened> open(String name) {
        return run(c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT name, kind, base_url, account, secret FROM tool_account WHERE name = ?")) {
                ps.setString(1, name);
                try (ResultSet rs = ps.executeQuery()) {
                    if (!rs.next()) {
                        return Optional.<Opened>empty();
                    }
                    String sealed = rs.getString(5);
                    return Optional.of(new Opened(new ToolAccount(rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4), sealed != null),
                            sealed == null ? null : secrets.open(sealed)));
                }
            }
        });
    }

    public Optional<String> cursor(String kind, String account) {
        return run(c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT cursor_value FROM tool_cursor WHERE kind = ? AND account = ?")) {
                ps.setString(1, kind);
                ps.setString(2, account);
                try (ResultSet rs = ps.executeQuery()) {
                    return rs.next() ? Optional.ofNullable(rs.getString(1)) : Optional.<String>empty();
                }
            }
        });
    }

    /** Saved only after the events of the page it follows have committed. */
    public void saveCursor(String kind, String account, String cursor) {
        run(c -> {
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO tool_cursor (kind, account, cursor_value, updated_at) VALUES (?, ?, ?, ?) "
                    + "ON DUPLICATE KEY UPDATE cursor_value = VALUES(cursor_value), updated_at = VALUES(updated_at)")) {
                ps.setString(1, kind);
                ps.setString(2, account);
                ps.setString(3, cursor);
                ps.setObject(4, LocalDateTime.ofInstant(clock.instant(), ZoneOffset.UTC));
                ps.executeUpdate();
            }
            return null;
        });
    }

    private interface Work<T> {
        T run(Connection c) throws SQLException;
    }

    private <T> T run(Work<T> work) {
        try (Connection c = db.getConnection()) {
            return work.run(c);
        } catch (SQLException e) {
            throw new EventStoreException("tool accounts: " + e.getMessage(), e);
        }
    }
}
