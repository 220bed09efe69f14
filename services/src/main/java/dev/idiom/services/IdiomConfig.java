package dev.idiom.services;

import dev.idiom.cache.CacheSettings;
import dev.idiom.services.app.InputLimits;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Idiom's configuration. Every key is defined once, in {@link #KEYS}: its name, kind (which
 * validates it), default and meaning; {@code ./idiom help} prints them, docs/operations.md's table is
 * generated from them ({@link #markdownTable()}, checked by a test). Each can be given as a
 * command-line flag {@code --key value}, an environment variable {@code IDIOM_KEY} (dots and
 * dashes become underscores: {@code cache.heapEntries} → {@code IDIOM_CACHE_HEAPENTRIES}) or a
 * system property {@code idiom.key}. Flags win over the environment, which wins over system
 * properties.
 */
public record IdiomConfig(String host, int port, Path data, String dbUrl, String dbUser, String dbPassword, int dbPool, int dbPort, int groupCommit,
                          long maxBody, boolean virtualThreads, String publicUrl, String trustedProxies, CacheSettings cache, Duration feedPoll, String secretKey,
                          String adminToken, SyncSettings sync, InputLimits limits, int maxInFlight, Duration admissionWait, SearchSettings search,
                          boolean baseline, Path reports, int authFailureLimit, boolean localToolHosts, long toolMaxResponseBytes, Duration toolCallTimeout,
                          Path filesDir, long minBodyRate, FormattingSettings formatting, long maxDavBody,
                          String zoteroTestRoot) {
    /** The shortest IDIOM_ADMIN_TOKEN accepted. */
    public static final int MIN_ADMIN_TOKEN = 32;


    /**
     * Formatted bibliographies: the threads that format them (a key formats one request at a time on
     * them) and the most entries one request of a key below admin may have formatted.
     */
    public record FormattingSettings(int threads, int maxEntries) {}

    /**
     * The search index: how often it follows the change feed for other nodes' writes, and how long
     * a search waits for this node's own last write to become searchable before answering anyway.
     */
    public record SearchSettings(Duration feedPoll, Duration freshWait) {}

    /**
     * The consistency engine's timing: push rounds, scheduled pulls, anti-entropy checks, the lease on claimed pushes, and
     * the share of an account's replicas a pull may delete before it is held for a curator.
     */
    /** @param trashRetention how long a deleted DE stays in Idiom's trash (restorable) before it is purged */
    public record SyncSettings(Duration pushInterval, Duration pullInterval, Duration checkInterval, Duration lease, int massDeletePercent,
                               Duration trashRetention) {}

    /** What a key holds; each kind validates its values. */
    public enum Kind {
        TEXT, WHOLE_NUMBER, BOOLEAN, PATH
    }

    /**
     * One configuration key.
     *
     * @param defaultValue the value when none is given ("" for none)
     * @param shownDefault how the default reads in the documentation
     */
    public record Key(String name, Kind kind, String defaultValue, String shownDefault, String doc) {
        /** The environment variable that sets this key. */
        public String environmentVariable() {
            return "IDIOM_" + name.toUpperCase(Locale.ROOT).replace('.', '_').replace('-', '_');
        }
    }

    private static Key key(String name, Kind kind, String defaultValue, String doc) {
        return new Key(name, kind, defaultValue, defaultValue.isEmpty() ? "(none)" : "`" + defaultValue + "`", doc);
    }

    /** Every key, in the order the documentation lists them. */
    public static final List<Key> KEYS = List.of(
            key("host", Kind.TEXT, "127.0.0.1", "address the HTTP connector binds to (`0.0.0.0` for all)"),
            key("port", Kind.WHOLE_NUMBER, "8080", "HTTP port (`0` picks a free one)"),
            key("data", Kind.PATH, "./data", "data directory: embedded MariaDB, Tomcat and Axis2 scratch files"),
            key("db-url", Kind.TEXT, "", "a `jdbc:mysql://` URL (Connector/J); when set, no embedded server is started"),
            key("db-user", Kind.TEXT, "root", "database user"),
            new Key("db-password", Kind.TEXT, "", "(empty)", "database password: from the environment (`IDIOM_DB_PASSWORD`) only, never a flag (flags show in `ps`); or `db-password-file`"),
            new Key("db-password-file", Kind.TEXT, "", "(none)", "a file whose first line is the database password (keep it owner-only)"),
            key("db-pool", Kind.WHOLE_NUMBER, "16", "most pooled connections (HikariCP)"),
            key("db-port", Kind.WHOLE_NUMBER, "0", "port of the embedded MariaDB on 127.0.0.1 (`0` picks a free one)"),
            key("group-commit", Kind.WHOLE_NUMBER, "256", "most appends written in one transaction and one durable commit (`1`: one commit per append)"),
            key("sync-interval-ms", Kind.WHOLE_NUMBER, "2000", "how often the consistency engine pushes owed changes to replicas (`0`: no background engine: pushes, pulls and checks only on a curator's sync)"),
            key("pull-interval-ms", Kind.WHOLE_NUMBER, "60000", "how often each tool account is polled for changes (never faster than the tool's own limits; after failures in a row, twice the wait each time, up to an hour; `0`: only on a curator's sync)"),
            key("check-interval-ms", Kind.WHOLE_NUMBER, "3600000", "how often each tool account gets an anti-entropy check (every replica fetched, compared, repaired; `0`: only on demand)"),
            key("sync-lease-ms", Kind.WHOLE_NUMBER, "120000", "how long a node holds a claimed push; a node that dies delays its pushes by at most this"),
            key("mass-delete-percent", Kind.WHOLE_NUMBER, "10", "a pull that would unlink, or a plan that would remove (a replication rule's removals, deletions that propagate), more than this share of an account's copies holds the account for a curator"),
            key("trash-days", Kind.WHOLE_NUMBER, "30", "how long a deleted DE stays in Idiom's trash, restorable with its copies, before it is purged (checked hourly)"),
            key("max-body", Kind.WHOLE_NUMBER, "1048576", "largest request body in bytes; larger ones get 413 before any parsing"),
            key("max-dav-body", Kind.WHOLE_NUMBER, "67108864", "largest file a browser or other WebDAV client may PUT into a browsers' folder (`/dav/`), in bytes: a browser's whole bookmark file; larger gets 413"),
            key("max-tags", Kind.WHOLE_NUMBER, "200", "most tags a DE may have (a create or update with more gets 400 / fault `Invalid`)"),
            key("max-authors", Kind.WHOLE_NUMBER, "500", "most names in each list a DE has (authors, editors, translators)"),
            key("max-json-depth", Kind.WHOLE_NUMBER, "32", "deepest nesting of a JSON request body (arrays and objects)"),
            key("max-in-flight", Kind.WHOLE_NUMBER, "256", "requests served at once; past it a request waits at most `admission-wait-ms` for a place, then is refused with 503 `Busy` and `Retry-After` (reads served from the cache may use a quarter more; `0`: no limit)"),
            new Key("files-dir", Kind.TEXT, "", "`<data>/files`", "the folder BibTeX and bookmark file accounts live in: their paths resolve inside it; a path outside (absolute, `..`, a symbolic link out) is refused"),
            key("local-tool-hosts", Kind.BOOLEAN, "false", "`true` lets tool accounts and peers name loopback, link-local, private or unresolvable hosts (local stubs, a peer on this machine); `false` refuses them when configured and before every call"),
            key("tool-max-response-mb", Kind.WHOLE_NUMBER, "64", "largest answer read from a tool, in MB (a Pinboard snapshot of 20,000 bookmarks is ~10 MB); a larger one fails the call"),
            key("tool-call-timeout-s", Kind.WHOLE_NUMBER, "300", "longest a call to a tool may take, from sending to the answer's last byte"),
            key("formatting-threads", Kind.WHOLE_NUMBER, "0", "threads that format bibliographies (`text/x-bibliography`); each key has one request formatted at a time, a second at once gets 429 `Throttled`, and past four waiting a request gets 503 `Busy` (`0`: half the cores, at least one)"),
            key("max-formatted-entries", Kind.WHOLE_NUMBER, "50", "most entries one formatted bibliography may hold for a key below admin; more gets 400 naming the limit (CSL-JSON, BibTeX and RIS are not limited)"),
            key("min-body-rate", Kind.WHOLE_NUMBER, "1024", "bytes a second a request body must arrive at after 5 s; slower gets 408 and the connection closed (`0`: no minimum). Bodies up to 64 KB are read before a request takes a `max-in-flight` place"),
            key("auth-failures-per-minute", Kind.WHOLE_NUMBER, "60", "wrong API keys (and console logins) one client may present in a minute with one key prefix, and ten times that whatever the keys; past it those keys get 429 `Throttled` with `Retry-After` until the minute has room, while other keys from the same address are still checked (`0`: no limit)"),
            key("admission-wait-ms", Kind.WHOLE_NUMBER, "100", "how long a request past `max-in-flight` may wait for a place before it is refused (at most four times `max-in-flight` wait; the rest are refused at once)"),
            key("virtual-threads", Kind.BOOLEAN, "true", "Tomcat serves requests on virtual threads"),
            key("public-url", Kind.TEXT, "", "the URL clients reach Idiom at behind a reverse proxy (`https://refs.example.org/idiom`); used in the WSDL address, `Location` headers, OpenAPI `servers` and admin links"),
            key("trusted-proxies", Kind.TEXT, "", "comma-separated addresses of reverse proxies whose `Forwarded` / `X-Forwarded-*` headers are believed: for the client's address (throttling wrong keys) and, without `public-url`, for the public URL"),
            key("cache.enabled", Kind.BOOLEAN, "true", "`false` turns the DE cache off (every MoreInfo reads the database)"),
            key("cache.heapEntries", Kind.WHOLE_NUMBER, "10000", "DE views kept on the heap"),
            key("cache.offHeapMb", Kind.WHOLE_NUMBER, "0", "size of an off-heap tier in MB, `0` for none"),
            key("cache.ttlSeconds", Kind.WHOLE_NUMBER, "3600", "an entry expires this long after it was written"),
            new Key("cache.xml", Kind.PATH, "", "(built in)",
                    "an Ehcache 3 XML file with a `de-view` cache template, used as is (the three keys above then do not apply)"),
            key("cache.feedPollMillis", Kind.WHOLE_NUMBER, "100", "how often the change feed is polled to invalidate entries that other nodes wrote"),
            key("search.feedPollMillis", Kind.WHOLE_NUMBER, "100", "how often the search index follows the change feed for writes made on other nodes "
                    + "(this node's own writes are indexed at once)"),
            key("search.freshWaitMillis", Kind.WHOLE_NUMBER, "10000", "how long a search waits for this node's last write (an API write, an "
                    + "import, a sync's) to be searchable before answering from the index as it is (counted as `freshWaitsTimedOut` in the search figures, and logged)"),
            key("baseline", Kind.BOOLEAN, "false", "mounts the saturation baselines beside Idiom, with no Idiom code in their path and no key: a bare servlet at "
                    + "`/baseline/servlet` and a bare Axis2 echo service at `/baseline/services/EchoService` (for `./idiom perf`; leave off in production)"),
            key("reports", Kind.PATH, "./perf/reports", "folder of saturation reports (`./idiom perf`) that `/admin/reports` lists and serves to admins"));

    /** Every key with its default, by name. */
    public static final Map<String, String> DEFAULTS = KEYS.stream().collect(Collectors.toUnmodifiableMap(Key::name, Key::defaultValue));

    /** Secrets never come from flags (they would show in the process list): only from IDIOM_SECRET_KEY. */
    @Override
    public String toString() {
        return "IdiomConfig[" + host + ":" + port + ", data " + data + ", db " + (dbUrl == null ? "embedded" : dbUrl) + ", secret key "
                + (secretKey == null ? "unset" : "set") + ", admin token " + (adminToken == null ? "unset" : "set") + "]";
    }

    /** docs/operations.md's configuration table, generated from {@link #KEYS}. */
    public static String markdownTable() {
        StringBuilder b = new StringBuilder("| key | default | meaning |\n|---|---|---|\n");
        for (Key k : KEYS) {
            b.append("| `").append(k.name()).append("` | ").append(k.shownDefault()).append(" | ").append(k.doc()).append(" |\n");
        }
        return b.toString();
    }

    /** Resolves every key from flags, then environment, then system properties, then defaults. */
    public static IdiomConfig from(Map<String, String> flags, Map<String, String> env, Function<String, String> sysprops) {
        for (String key : flags.keySet()) {
            if (!DEFAULTS.containsKey(key)) {
                throw new IllegalArgumentException("unknown option --" + key + "; options are " + new TreeSet<>(DEFAULTS.keySet()));
            }
        }
        if (flags.containsKey("db-password")) {
            // every user of the machine can read a process's arguments
            throw new IllegalArgumentException("--db-password would show the password to every user of this machine (ps); set IDIOM_DB_PASSWORD "
                    + "or give --db-password-file FILE");
        }
        for (Key k : KEYS) {
            validate(k, flags.containsKey(k.name()) ? flags.get(k.name()) : env.getOrDefault(k.environmentVariable(), sysprops.apply("idiom." + k.name())));
        }
        Function<String, String> get = key -> {
            if (flags.containsKey(key)) {
                return flags.get(key);
            }
            String e = env.get("IDIOM_" + key.toUpperCase(Locale.ROOT).replace('.', '_').replace('-', '_'));
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
        String adminToken = env.get("IDIOM_ADMIN_TOKEN");
        if (adminToken != null && !adminToken.isBlank() && adminToken.strip().length() < MIN_ADMIN_TOKEN) {
            // an admin key anyone can guess: refused at start, as a generated key has 256 random bits
            throw new IllegalArgumentException("IDIOM_ADMIN_TOKEN is " + adminToken.strip().length() + " characters; it must be at least "
                    + MIN_ADMIN_TOKEN + " (e.g. openssl rand -base64 33), or unset to use the generated key in <data>/admin.key");
        }
        return new IdiomConfig(get.apply("host"), (int) number(get, "port"), Path.of(get.apply("data")).toAbsolutePath().normalize(),
                dbUrl.isBlank() ? null : dbUrl, get.apply("db-user"), password(get.apply("db-password"), get.apply("db-password-file")), (int) number(get, "db-pool"),
                (int) number(get, "db-port"), positive(get, "group-commit"), number(get, "max-body"), bool(get, "virtual-threads"),
                blankAsNull(get.apply("public-url")), get.apply("trusted-proxies"), cache,
                Duration.ofMillis(number(get, "cache.feedPollMillis")), env.get("IDIOM_SECRET_KEY"), adminToken,
                new SyncSettings(Duration.ofMillis(number(get, "sync-interval-ms")), Duration.ofMillis(number(get, "pull-interval-ms")),
                        Duration.ofMillis(number(get, "check-interval-ms")), Duration.ofMillis(Math.max(1, number(get, "sync-lease-ms"))),
                        percent(get, "mass-delete-percent"), Duration.ofDays(positive(get, "trash-days"))),
                new InputLimits((int) positive(get, "max-tags"), (int) positive(get, "max-authors"), (int) positive(get, "max-json-depth")),
                (int) number(get, "max-in-flight"), Duration.ofMillis(number(get, "admission-wait-ms")),
                new SearchSettings(Duration.ofMillis(Math.max(1, number(get, "search.feedPollMillis"))), Duration.ofMillis(number(get, "search.freshWaitMillis"))),
                bool(get, "baseline"), Path.of(get.apply("reports")).toAbsolutePath().normalize(), (int) number(get, "auth-failures-per-minute"),
                bool(get, "local-tool-hosts"), positive(get, "tool-max-response-mb") << 20, Duration.ofSeconds(positive(get, "tool-call-timeout-s")),
                get.apply("files-dir").isBlank() ? Path.of(get.apply("data")).toAbsolutePath().normalize().resolve("files")
                        : Path.of(get.apply("files-dir")).toAbsolutePath().normalize(), number(get, "min-body-rate"),
                new FormattingSettings(number(get, "formatting-threads") == 0 ? Math.max(1, Runtime.getRuntime().availableProcessors() / 2)
                        : (int) number(get, "formatting-threads"), (int) positive(get, "max-formatted-entries")), number(get, "max-dav-body"),
                zoteroTestRoot(env));
    }

    /**
     * The super-user Zotero's own API suite sets itself up as ({@code name:password}): from
     * IDIOM_ZOTERO_TEST_ROOT, or the first line of the file IDIOM_ZOTERO_TEST_ROOT_FILE names; never a
     * flag (a command line is visible to every user of the machine). Null: no test root, no set-up routes.
     */
    private static String zoteroTestRoot(Map<String, String> env) {
        String value = env.get("IDIOM_ZOTERO_TEST_ROOT");
        String file = env.get("IDIOM_ZOTERO_TEST_ROOT_FILE");
        if ((value == null || value.isBlank()) && file != null && !file.isBlank()) {
            try {
                value = java.nio.file.Files.readAllLines(Path.of(file)).stream().findFirst().orElse("").strip();
            } catch (java.io.IOException e) {
                throw new IllegalArgumentException("IDIOM_ZOTERO_TEST_ROOT_FILE " + file + " cannot be read: " + e.getMessage(), e);
            }
        }
        if (value == null || value.isBlank()) {
            return null;
        }
        if (!value.matches("[^:]+:.{12,}")) {
            throw new IllegalArgumentException("IDIOM_ZOTERO_TEST_ROOT is name:password, the password at least 12 characters");
        }
        return value.strip();
    }

    /** The database password: from its file when one is named (its first line), else as given. */
    private static String password(String given, String file) {
        if (file == null || file.isBlank()) {
            return given;
        }
        try {
            List<String> lines = java.nio.file.Files.readAllLines(Path.of(file));
            return lines.isEmpty() ? "" : lines.getFirst().strip();
        } catch (java.io.IOException e) {
            throw new IllegalArgumentException("db-password-file " + file + " cannot be read: " + e.getMessage());
        }
    }

    /** A value given for {@code k} (null when none was) is of its kind. */
    private static void validate(Key k, String value) {
        if (value == null) {
            return;
        }
        String v = value.strip();
        switch (k.kind()) {
            case WHOLE_NUMBER -> {
                try {
                    Long.parseLong(v);
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException(k.name() + " must be a whole number, got '" + v + "'");
                }
            }
            case BOOLEAN -> {
                if (!v.equalsIgnoreCase("true") && !v.equalsIgnoreCase("false")) {
                    throw new IllegalArgumentException(k.name() + " must be true or false, got '" + v + "'");
                }
            }
            case TEXT, PATH -> { }
        }
    }

    private static String blankAsNull(String s) {
        return s == null || s.isBlank() ? null : s.strip();
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

    private static int percent(Function<String, String> get, String key) {
        long n = number(get, key);
        if (n < 0 || n > 100) {
            throw new IllegalArgumentException(key + " must be between 0 and 100, got " + n);
        }
        return (int) n;
    }

    private static boolean bool(Function<String, String> get, String key) {
        String v = get.apply(key).strip().toLowerCase(Locale.ROOT);
        if (!v.equals("true") && !v.equals("false")) {
            throw new IllegalArgumentException(key + " must be true or false, got '" + v + "'");
        }
        return v.equals("true");
    }
}
