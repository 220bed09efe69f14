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

    /**
     * A URL for a new schema of its own, already migrated on the embedded server: a copy of one
     * schema migrated once per JVM (each table created like the template's, its rows — Flyway's
     * history, the sequence row — copied), so opening it finds nothing pending instead of running
     * every migration again (a tenth of a second, not half a second, per test). On another server
     * ({@code idiom.test.dbUrl}) the schema is empty and the migrations run on opening it.
     */
    public static synchronized String freshUrl() {
        String external = System.getProperty("idiom.test.dbUrl");
        if (runId == null) {
            runId = Long.toString(System.currentTimeMillis() % 1_000_000_000L, 36);
        }
        String schema = "t_" + runId + "_" + SCHEMAS.incrementAndGet();
        if (external != null) {
            return external.replaceAll("/+$", "") + "/" + schema + "?createDatabaseIfNotExist=true";
        }
        copyTemplate(schema);
        return server().jdbcUrl(schema);
    }

    private static String template;

    private static void copyTemplate(String schema) {
        if (template == null) {
            String name = "t_" + runId + "_template";
            Database.open(DatabaseSettings.of(server().jdbcUrl(name))).close();
            template = name;
        }
        try (Connection c = java.sql.DriverManager.getConnection(server().jdbcUrl("mysql")); Statement s = c.createStatement()) {
            List<String> tables = new ArrayList<>();
            try (ResultSet rs = s.executeQuery("SELECT table_name FROM information_schema.tables WHERE table_schema = '" + template
                    + "' AND table_type = 'BASE TABLE'")) {
                while (rs.next()) {
                    tables.add(rs.getString(1));
                }
            }
            s.execute("CREATE DATABASE `" + schema + "`");
            for (String t : tables) {
                s.execute("CREATE TABLE `" + schema + "`.`" + t + "` LIKE `" + template + "`.`" + t + "`");
                s.execute("INSERT INTO `" + schema + "`.`" + t + "` SELECT * FROM `" + template + "`.`" + t + "`");
            }
        } catch (java.sql.SQLException e) {
            throw new IllegalStateException("could not copy the migrated template schema", e);
        }
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
