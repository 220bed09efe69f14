package dev.idiom.db;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One embedded MariaDB per test JVM (one per Maven module), started on first use on a free
 * port and stopped when the JVM ends; each caller gets its own freshly migrated schema.
 * Set {@code -Didiom.test.dbUrl=jdbc:mysql://host:port/} to test against another server.
 */
public final class TestDatabase {
    private static final AtomicInteger SCHEMAS = new AtomicInteger();
    private static EmbeddedMariaDb server;
    private static String runId;

    private TestDatabase() {}

    /** A URL for a new, empty schema (migrations not yet run). */
    public static synchronized String freshUrl() {
        String external = System.getProperty("idiom.test.dbUrl");
        if (runId == null) {
            runId = Long.toString(System.currentTimeMillis() % 1_000_000_000L, 36);
        }
        String schema = "t_" + runId + "_" + SCHEMAS.incrementAndGet();
        if (external != null) {
            return external.replaceAll("/+$", "") + "/" + schema + "?createDatabaseIfNotExist=true";
        }
        return server().jdbcUrl(schema);
    }

    /** A migrated database on a new schema; the caller closes it. */
    public static Database fresh() {
        return Database.open(DatabaseSettings.of(freshUrl()));
    }

    private static EmbeddedMariaDb server() {
        if (server == null) {
            String module = Path.of(System.getProperty("user.dir")).getFileName().toString();
            Path root = Path.of(System.getProperty("idiom.test.dataRoot", "target/test-data"), module, "mariadb");
            server = EmbeddedMariaDb.start(root, 0);
            dropOldSchemas(server);
        }
        return server;
    }

    /** Schemas of earlier runs pile up in the kept data dir; drop them. */
    private static void dropOldSchemas(EmbeddedMariaDb db) {
        try (Connection c = java.sql.DriverManager.getConnection(db.jdbcUrl("mysql"));
             Statement s = c.createStatement()) {
            List<String> old = new ArrayList<>();
            try (ResultSet rs = s.executeQuery("SHOW DATABASES LIKE 't\\_%'")) {
                while (rs.next()) {
                    old.add(rs.getString(1));
                }
            }
            for (String name : old) {
                s.execute("DROP DATABASE `" + name + "`");
            }
        } catch (java.sql.SQLException e) {
            throw new IllegalStateException("could not clean the test server", e);
        }
    }
}
