package dev.idiom.db;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;

/**
 * The pooled connection to Idiom's MySQL-compatible database, migrated to the current schema on
 * open. Connector/J is the only driver; the SQL stays portable between MySQL 8 and MariaDB 10.6+.
 */
public final class Database implements AutoCloseable {
    private final HikariDataSource pool;
    /** Two connections of their own for key checks: a check never waits behind reads and writes that hold the main pool. */
    private final HikariDataSource keysPool;

    private Database(HikariDataSource pool, HikariDataSource keysPool) {
        this.pool = pool;
        this.keysPool = keysPool;
    }

    /** The connection pool at one moment: connections in use, idle, open, the most it opens, and threads waiting for one. */
    public record PoolFigures(int active, int idle, int total, int max, int waiting) {}

    public PoolFigures poolFigures() {
        var mx = pool.getHikariPoolMXBean();
        if (mx == null) { // not started, or closed
            return new PoolFigures(0, 0, 0, pool.getMaximumPoolSize(), 0);
        }
        return new PoolFigures(mx.getActiveConnections(), mx.getIdleConnections(), mx.getTotalConnections(), pool.getMaximumPoolSize(),
                mx.getThreadsAwaitingConnection());
    }

    /** Whether a Connector/J URL names its user itself (then a separately given user must not override it). */
    static boolean carriesCredentials(String url) {
        int q = url.indexOf('?');
        return q >= 0 && java.util.Arrays.stream(url.substring(q + 1).split("&")).anyMatch(p -> p.startsWith("user="));
    }

    /** Opens a pool on {@code settings.url()} and runs every pending migration. */
    public static Database open(DatabaseSettings settings) {
        HikariDataSource pool = pool(settings, "idiom", settings.poolSize());
        try {
            Flyway.configure()
                    .dataSource(pool)
                    // SQL here; Java migrations that need the fold live beside it, in the events module
                    .locations("classpath:db/migration", "classpath:dev/idiom/events/migration")
                    .load()
                    .migrate();
        } catch (RuntimeException e) {
            pool.close();
            throw e;
        }
        return new Database(pool, pool(settings, "idiom-keys", 2));
    }

    private static HikariDataSource pool(DatabaseSettings settings, String name, int size) {
        HikariConfig config = new HikariConfig();
        config.setPoolName(name);
        config.setJdbcUrl(withDriverDefaults(settings.url()));
        if (!carriesCredentials(settings.url())) { // the embedded server's URLs carry its user and password: they alone decide
            config.setUsername(settings.user());
            config.setPassword(settings.password());
        }
        config.setMaximumPoolSize(size);
        config.setConnectionTimeout(10_000);
        config.setAutoCommit(true);
        config.setTransactionIsolation("TRANSACTION_READ_COMMITTED");
        return new HikariDataSource(config);
    }

    /**
     * Connector/J settings that matter for the append hot path: client-side prepared statements
     * cached, the long ones of an append batch too (measured faster than server-side here,
     * perf/RESULTS.md), rewritten batches, and multi-statements, so that an append batch's writes
     * are one round trip (every statement Idiom sends is a constant with bound parameters: no SQL
     * is ever built from input, see SECURITY.md);
     * {@code characterEncoding} pinned so text round-trips. With several hosts (a failover URL over
     * a Galera cluster) a connection that failed over stays writable: every Galera node takes writes.
     */
    static String withDriverDefaults(String url) {
        String sep = url.contains("?") ? "&" : "?";
        StringBuilder b = new StringBuilder(url);
        for (String kv : new String[] {
                "cachePrepStmts=true", "prepStmtCacheSize=250", "useServerPrepStmts=false",
                "rewriteBatchedStatements=true", "characterEncoding=UTF-8", "connectionTimeZone=UTC",
                "forceConnectionTimeZoneToSession=true", "useSSL=false", "allowPublicKeyRetrieval=true", "failOverReadOnly=false", "allowMultiQueries=true", "prepStmtCacheSqlLimit=65536", "useLocalSessionState=true"}) {
            String key = kv.substring(0, kv.indexOf('='));
            if (!url.contains(key + "=")) {
                b.append(sep).append(kv);
                sep = "&";
            }
        }
        return b.toString();
    }

    /**
     * What in the server's settings could lose a write Idiom acknowledged: InnoDB not flushing its
     * log at every commit, or a binary log not synced at every commit (a replica or point-in-time
     * recovery would then miss acknowledged events). Empty when the settings are durable.
     */
    public List<String> durabilityRisks() {
        List<String> risks = new ArrayList<>();
        try (Connection c = pool.getConnection(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT @@innodb_flush_log_at_trx_commit, @@log_bin, @@sync_binlog")) {
            rs.next();
            if (rs.getInt(1) != 1) {
                risks.add("innodb_flush_log_at_trx_commit is " + rs.getInt(1) + ", not 1: a crash of the database host can lose up to a second of "
                        + "writes Idiom acknowledged; set innodb_flush_log_at_trx_commit=1");
            }
            if (rs.getInt(2) == 1 && rs.getInt(3) != 1) {
                risks.add("the binary log is on with sync_binlog=" + rs.getInt(3) + ", not 1: after a crash, replicas and point-in-time recovery "
                        + "can miss acknowledged writes; set sync_binlog=1");
            }
        } catch (SQLException e) {
            risks.add("could not read the durability settings (" + e.getMessage() + "); check innodb_flush_log_at_trx_commit=1 and sync_binlog=1");
        }
        return risks;
    }

    public DataSource dataSource() {
        return pool;
    }

    public Connection connection() throws SQLException {
        return pool.getConnection();
    }

    /** The key checks' own connections (see {@link #keysPool}): for the API key repository only. */
    public DataSource keysDataSource() {
        return keysPool;
    }

    @Override
    public void close() {
        keysPool.close();
        pool.close();
    }
}
