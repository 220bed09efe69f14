package dev.idiom.services;

import dev.idiom.cache.CacheSettings;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;

/**
 * Idiom's configuration. Every key, its default and meaning (mirrored in the README); each can be
 * given as a command-line flag {@code --key value}, an environment variable {@code IDIOM_KEY}
 * (dots and capitals become underscores: {@code cache.heapEntries} → {@code IDIOM_CACHE_HEAPENTRIES})
 * or a system property {@code idiom.key}. Flags win over the environment, which wins over
 * system properties.
 *
 * <table>
 * <tr><th>key</th><th>default</th><th>meaning</th></tr>
 * <tr><td>host</td><td>127.0.0.1</td><td>address the HTTP connector binds to (0.0.0.0 for all)</td></tr>
 * <tr><td>port</td><td>8080</td><td>HTTP port (0 picks a free one)</td></tr>
 * <tr><td>data</td><td>./data</td><td>data directory: embedded MariaDB, Tomcat and Axis2 scratch files</td></tr>
 * <tr><td>db-url</td><td>(none)</td><td>a {@code jdbc:mysql://} URL; when set, no embedded server is started</td></tr>
 * <tr><td>db-user</td><td>root</td><td>database user</td></tr>
 * <tr><td>db-password</td><td>(empty)</td><td>database password</td></tr>
 * <tr><td>db-pool</td><td>16</td><td>largest number of pooled connections</td></tr>
 * <tr><td>db-port</td><td>0</td><td>port of the embedded MariaDB on 127.0.0.1 (0 picks a free one)</td></tr>
 * <tr><td>group-commit</td><td>256</td><td>most appends written in one transaction and one durable commit (1: one commit per append)</td></tr>
 * <tr><td>max-body</td><td>1048576</td><td>largest request body in bytes (413 beyond)</td></tr>
 * <tr><td>virtual-threads</td><td>true</td><td>serve requests on virtual threads</td></tr>
 * <tr><td>cache.enabled</td><td>true</td><td>false turns the DE cache off (every MoreInfo reads the database)</td></tr>
 * <tr><td>cache.heapEntries</td><td>10000</td><td>DE views kept on the heap</td></tr>
 * <tr><td>cache.offHeapMb</td><td>0</td><td>size of an off-heap tier, 0 for none</td></tr>
 * <tr><td>cache.ttlSeconds</td><td>3600</td><td>an entry expires this long after it was written</td></tr>
 * <tr><td>cache.xml</td><td>(built in)</td><td>an Ehcache XML file with a "de-view" template, used as is</td></tr>
 * <tr><td>cache.feedPollMillis</td><td>100</td><td>how often the change feed is polled to invalidate entries written by other nodes</td></tr>
 * </table>
 */
public record IdiomConfig(String host, int port, Path data, String dbUrl, String dbUser, String dbPassword, int dbPool, int dbPort, int groupCommit,
                          long maxBody, boolean virtualThreads, CacheSettings cache, Duration feedPoll, String secretKey, String adminToken) {

    /** Secrets never come from flags (they would show in the process list): only from IDIOM_SECRET_KEY. */
    @Override
    public String toString() {
        return "IdiomConfig[" + host + ":" + port + ", data " + data + ", db " + (dbUrl == null ? "embedded" : dbUrl) + ", secret key "
                + (secretKey == null ? "unset" : "set") + ", operator token " + (adminToken == null ? "unset" : "set") + "]";
    }

    /** Every key with its default. */
    public static final Map<String, String> DEFAULTS = defaults();

    private static Map<String, String> defaults() {
        Map<String, String> d = new LinkedHashMap<>();
        d.put("host", "127.0.0.1");
        d.put("port", "8080");
        d.put("data", "./data");
        d.put("db-url", "");
        d.put("db-user", "root");
        d.put("db-password", "");
        d.put("db-pool", "16");
        d.put("db-port", "0");
        d.put("group-commit", "256");
        d.put("max-body", "1048576");
        d.put("virtual-threads", "true");
        d.put("cache.enabled", "true");
        d.put("cache.heapEntries", "10000");
        d.put("cache.offHeapMb", "0");
        d.put("cache.ttlSeconds", "3600");
        d.put("cache.xml", "");
        d.put("cache.feedPollMillis", "100");
        return Map.copyOf(d);
    }

    /** Resolves every key from flags, then environment, then system properties, then defaults. */
    public static IdiomConfig from(Map<String, String> flags, Map<String, String> env, Function<String, String> sysprops) {
        for (String key : flags.keySet()) {
            if (!DEFAULTS.containsKey(key)) {
                throw new IllegalArgumentException("unknown option --" + key + "; options are " + new java.util.TreeSet<>(DEFAULTS.keySet()));
            }
        }
        Function<String, String> get = key -> {
            if (flags.containsKey(key)) {
                return flags.get(key);
            }
            String e = env.get("IDIOM_" + key.toUpperCase(java.util.Locale.ROOT).replace('.', '_').replace('-', '_'));
            if (e != null) {
                return e;
            }
            String s = sysprops.apply("idiom." + key);
            return s != null ? s : DEFAULTS.get(key);
        };
        String xml = get.apply("cache.xml");
        CacheSettings cache = new CacheSettings(bool(get, "cache.enabled"), number(get, "cache.heapEntries"), number(get, "cache.offHeapMb"),
                number(get, "cache.ttlSeconds"), xml.isBlank() ? null : Path.of(xml));
        String dbUrl = get.apply("db-url");
        return new IdiomConfig(get.apply("host"), (int) number(get, "port"), Path.of(get.apply("data")).toAbsolutePath().normalize(),
                dbUrl.isBlank() ? null : dbUrl, get.apply("db-user"), get.apply("db-password"), (int) number(get, "db-pool"),
                (int) number(get, "db-port"), positive(get, "group-commit"), number(get, "max-body"), bool(get, "virtual-threads"), cache,
                Duration.ofMillis(number(get, "cache.feedPollMillis")), env.get("IDIOM_SECRET_KEY"), env.get("IDIOM_ADMIN_TOKEN"));
    }

    private static long number(Function<String, String> get, String key) {
        String v = get.apply(key).strip();
        try {
            return Long.parseLong(v);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(key + " must be a whole number, got '" + v + "'");
        }
    }

    private static int positive(Function<String, String> get, String key) {
        long n = number(get, key);
        if (n < 1 || n > 100_000) {
            throw new IllegalArgumentException(key + " must be between 1 and 100000, got " + n);
        }
        return (int) n;
    }

    private static boolean bool(Function<String, String> get, String key) {
        String v = get.apply(key).strip().toLowerCase(java.util.Locale.ROOT);
        if (!v.equals("true") && !v.equals("false")) {
            throw new IllegalArgumentException(key + " must be true or false, got '" + v + "'");
        }
        return v.equals("true");
    }
}
