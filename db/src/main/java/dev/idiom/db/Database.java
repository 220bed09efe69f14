package dev.idiom.db;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.SQLException;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;

/**
 * The pooled connection to Idiom's MySQL-compatible database, migrated to the current schema on
 * open. Connector/J is the only driver; the SQL stays portable between MySQL 8 and MariaDB 10.6+.
 */
public final class Database implements AutoCloseable {
    private final HikariDataSource pool;

    private Database(HikariDataSource pool) {
        this.pool = pool;
    }

    /** Opens a pool on {@code settings.url()} and runs every pending migration. */
    public static Database open(DatabaseSettings settings) {
        HikariConfig config = new HikariConfig();
        config.setPoolName("idiom");
        config.setJdbcUrl(withDriverDefaults(settings.url()));
        config.setUsername(settings.user());
        config.setPassword(settings.password());
        config.setMaximumPoolSize(settings.poolSize());
        config.setConnectionTimeout(10_000);
        config.setAutoCommit(true);
        config.setTransactionIsolation("TRANSACTION_READ_COMMITTED");
        HikariDataSource pool = new HikariDataSource(config);
        try {
            Flyway.configure()
                    .dataSource(pool)
                    .locations("classpath:db/migration")
                    .load()
                    .migrate();
        } catch (RuntimeException e) {
            pool.close();
            throw e;
        }
        return new Database(pool);
    }

    /**
     * Connector/J settings that matter for the append hot path: client-side prepared statements
     * cached (measured faster than server-side here, perf/RESULTS.md) and rewritten batches;
     * {@code characterEncoding} pinned so text round-trips. With several hosts (a failover URL over
     * a Galera cluster) a connection that failed over stays writable: every Galera node takes writes.
     */
    static String withDriverDefaults(String url) {
        String sep = url.contains("?") ? "&" : "?";
        StringBuilder b = new StringBuilder(url);
        for (String kv : new String[] {
                "cachePrepStmts=true", "prepStmtCacheSize=250", "useServerPrepStmts=false",
                "rewriteBatchedStatements=true", "characterEncoding=UTF-8", "connectionTimeZone=UTC",
                "forceConnectionTimeZoneToSession=true", "useSSL=false", "allowPublicKeyRetrieval=true", "failOverReadOnly=false"}) {
            String key = kv.substring(0, kv.indexOf('='));
            if (!url.contains(key + "=")) {
                b.append(sep).append(kv);
                sep = "&";
            }
        }
        return b.toString();
    }

    public DataSource dataSource() {
        return pool;
    }

    public Connection connection() throws SQLException {
        return pool.getConnection();
    }

    @Override
    public void close() {
        pool.close();
    }
}
