package dev.idiom.services;

import dev.idiom.cache.ChangeFeedInvalidation;
import dev.idiom.cache.search.SearchFeed;
import dev.idiom.cache.search.lucene.LuceneIndexHome;
import dev.idiom.cache.EntityCache;
import dev.idiom.cache.NoEntityCache;
import dev.idiom.cache.ehcache.EhcacheEntityCache;
import dev.idiom.db.Database;
import dev.idiom.db.DatabaseSettings;
import dev.idiom.db.EmbeddedMariaDb;
import dev.idiom.events.EntityIds;
import dev.idiom.events.EventCodec;
import dev.idiom.events.EventStore;
import dev.idiom.events.FeedFollower;
import dev.idiom.events.Followers;
import dev.idiom.events.GroupCommit;
import dev.idiom.events.mysql.MySqlEventStore;
import dev.idiom.events.accounts.mysql.MySqlCallTurns;
import dev.idiom.events.accounts.mysql.MySqlAccountLeases;
import dev.idiom.consistency.AccountExclusion;
import dev.idiom.events.accounts.mysql.MySqlToolAccounts;
import dev.idiom.events.mysql.MySqlDuplicateSuggestions;
import dev.idiom.consistency.SuggestedDuplicates;
import dev.idiom.services.app.Administration;
import dev.idiom.services.app.Application;
import dev.idiom.services.app.BibliographyFormatting;
import dev.idiom.services.citations.Citations;
import dev.idiom.services.app.EntityLifecycle;
import dev.idiom.services.app.EntityReads;
import dev.idiom.services.app.CommittedSnapshots;
import dev.idiom.services.app.EntityWrites;
import dev.idiom.services.app.ImportRecords;
import dev.idiom.services.app.ApiKeys;
import dev.idiom.events.accounts.mysql.MySqlApiKeys;
import dev.idiom.services.app.ReplicaLinks;
import dev.idiom.wrappers.registry.FilesDir;
import dev.idiom.wrappers.registry.ToolRegistry;
import dev.idiom.consistency.ConfiguredTools;
import dev.idiom.services.tools.SealingKey;
import dev.idiom.events.accounts.SecretBox;
import dev.idiom.services.tools.ToolAccounts;
import dev.idiom.services.tools.Tools;
import dev.idiom.wrappers.http.CallBounds;
import dev.idiom.wrappers.http.ToolHosts;
import dev.idiom.wrappers.http.Pacing;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.util.HexFormat;
import java.security.SecureRandom;
import dev.idiom.consistency.ConsistencyEngine;
import dev.idiom.consistency.DeletionHold;
import dev.idiom.consistency.OptimisticRetry;
import dev.idiom.services.app.ReplicaSync;
import dev.idiom.events.sql.SqlOutbox;
import java.util.logging.Logger;

/**
 * The one place where Idiom is wired: database (embedded unless a URL is given), event store,
 * cache and change-feed invalidation, application layer. Closing stops them in reverse order.
 */
public final class Idiom implements AutoCloseable {
    private static final Logger LOG = Logger.getLogger(Idiom.class.getName());

    private final EmbeddedMariaDb embedded;
    private final Database database;
    private final GroupCommit store;
    private final EntityCache cache;
    private final ChangeFeedInvalidation feed;
    private final SearchFeed search;
    private final Application app;
    private final ToolRegistry registry;

    private final ConsistencyEngine engine;
    /** Purges what has been in the trash longer than its retention (servers with a background engine only). */
    private final FeedFollower trashSweep;

    private Idiom(EmbeddedMariaDb embedded, Database database, GroupCommit store, EntityCache cache, ChangeFeedInvalidation feed, SearchFeed search,
            Application app, ToolRegistry registry, ConsistencyEngine engine, boolean sweepTrash, Followers followers) {
        this.registry = registry;
        // the hourly purge of what stayed in the trash past its retention, by the followers' one mechanism (its failures back off and are logged)
        this.trashSweep = !sweepTrash ? null : FeedFollower.of("trash-sweep", java.time.Duration.ofHours(1), Integer.MAX_VALUE, app.clock(), () -> {
            app.lifecycle().purgeExpired();
            return 0;
        }).start(java.time.Duration.ofMinutes(1));
        if (trashSweep != null) {
            followers.add(trashSweep, "the trash's deletion times (no feed position)", null);
        }
        this.search = search;
        this.engine = engine;
        this.embedded = embedded;
        this.database = database;
        this.store = store;
        this.cache = cache;
        this.feed = feed;
        this.app = app;
    }

    public static Idiom start(IdiomConfig config) {
        return start(config, Clock.systemUTC(), Pacing.SLEEP);
    }

    /**
     * For a command that writes many DEs and answers no searches ({@code ./idiom import}): the search
     * index is not kept up with the command's writes; the server indexes them from the change feed
     * when it next runs (an empty index is built from events in the background, answering
     * meanwhile). {@code seed} keeps following: benchmarks search what it wrote at once.
     */
    public static Idiom startForCommand(IdiomConfig config) {
        return start(config, Clock.systemUTC(), Pacing.SLEEP, false);
    }

    /** As above, on this clock, with tool calls paced by {@code pacing} (tests: a fake time that records waits instead of sleeping). */
    public static Idiom start(IdiomConfig config, Clock clock, Pacing pacing) {
        return start(config, clock, pacing, true);
    }

    private static Idiom start(IdiomConfig config, Clock clock, Pacing pacing, boolean followSearch) {
        long t0 = System.nanoTime();
        EmbeddedMariaDb embedded = null;
        String url = config.dbUrl();
        if (url == null) {
            LOG.info("starting the embedded MariaDB under " + config.data().resolve("mariadb").toAbsolutePath());
            embedded = EmbeddedMariaDb.start(config.data().resolve("mariadb"), config.dbPort());
            url = embedded.jdbcUrl("idiom");
            LOG.info("embedded MariaDB up in " + (System.nanoTime() - t0) / 1_000_000 + " ms");
        }
        Database database = null;
        SearchFeed search = null;
        try {
            database = Database.open(new DatabaseSettings(url, config.dbUser(), config.dbPassword(), config.dbPool()));
            LOG.info("database pool open and schema migrated after " + (System.nanoTime() - t0) / 1_000_000 + " ms");
            database.durabilityRisks().forEach(risk -> LOG.warning("DURABILITY: " + risk));
            MySqlToolAccounts toolAccounts = new MySqlToolAccounts(database.dataSource());
            ToolHosts hosts = ToolHosts.of(config.localToolHosts());
            // IDIOM_SECRET_KEY, else the data folder's secret.key (made on a first start, while no secret is stored)
            String sealingKey = SealingKey.resolve(config.secretKey(), config.data(),
                    toolAccounts.list().stream().anyMatch(a -> a.sealedSecret() != null));
            SecretBox secrets = SecretBox.fromKey(sealingKey);
            ToolRegistry registry = new ToolRegistry(clock, pacing, hosts, new CallBounds(config.toolMaxResponseBytes(), config.toolCallTimeout()),
                    new MySqlCallTurns(database.dataSource()), FilesDir.at(config.filesDir()));
            ToolAccounts accounts = new ToolAccounts(toolAccounts, secrets, clock, registry);
            accounts.checkSecretKey(); // a wrong key is an error now, not a failed sync later
            int bound = accounts.bindSecrets();
            if (bound > 0) {
                LOG.info("bound " + bound + " stored tool secrets to their accounts (re-sealed once; see SECURITY.md)");
            }
            EventCodec codec = new EventCodec();
            GroupCommit store = new GroupCommit(new MySqlEventStore(database.dataSource(), codec, clock), config.groupCommit());
            EntityCache cache = config.cache().enabled() ? new EhcacheEntityCache(config.cache()) : new NoEntityCache();
            ChangeFeedInvalidation feed = config.cache().enabled() ? ChangeFeedInvalidation.start(store, cache, clock, config.feedPoll()) : null;
            search = SearchFeed.start(store, new LuceneIndexHome(searchIndexDirectory(config), codec), clock,
                    config.search().feedPoll(), config.search().freshWait(), followSearch);
            EntityIds ids = new EntityIds(clock);
            // the store announces every commit, an API write's and the engine's alike: after it, never before
            CommittedSnapshots snapshots = new CommittedSnapshots(cache, codec);
            store.onCommit(snapshots::committed);
            SearchFeed indexed = search;
            store.onCommit(result -> indexed.written(result.lastPosition()));
            EntityWrites writes = new EntityWrites(store, cache, snapshots, codec, ids, config.limits());
            ConfiguredTools opened = new ConfiguredTools(toolAccounts, secrets, registry);
            Tools tools = new Tools(accounts, opened);
            IdiomConfig.SyncSettings sync = config.sync();
            ConsistencyEngine engine = new ConsistencyEngine(store, new SqlOutbox(database.dataSource(), clock), opened, toolAccounts, ids, clock,
                    new SecureRandom(), new ConsistencyEngine.Settings(sync.pushInterval(), sync.lease(), sync.pullInterval(), sync.checkInterval(),
                            new DeletionHold(sync.massDeletePercent() / 100.0), OptimisticRetry.DEFAULT),
                    new AccountExclusion(new MySqlAccountLeases(database.dataSource()), nodeName(config), clock));
            store.onCommit(engine::committed);
            ImportRecords imports = new ImportRecords(engine.pull(), tools, engine::importAccount);
            ReplicaLinks links = new ReplicaLinks(engine.upload(), tools);
            // every follower of the store on this node, each where its position is kept with its work (see Followers)
            Followers followers = new Followers(store::headPosition);
            if (feed != null) {
                followers.add(feed.follower(), "memory: starts at the head (an empty cache needs no replay)", feed::position);
            }
            followers.add(search.follower(), "the search index's Lucene commit", indexed::searchablePosition);
            ReplicaSync replicaSync = new ReplicaSync(engine, followers);
            Application app = new Application(new EntityReads(store, cache, search, codec,
                            new BibliographyFormatting(new Citations(), config.formatting().threads(), config.formatting().maxEntries())), writes, imports, links, tools,
                    new ApiKeys(new MySqlApiKeys(database.keysDataSource()), clock, config.adminToken()), new Administration(store, cache, feed, search, database::poolFigures), codec, replicaSync, clock,
                    new EntityLifecycle(engine.lifecycle(), new SuggestedDuplicates(store, new MySqlDuplicateSuggestions(database.dataSource()), clock),
                            codec, sync.trashRetention()),
                    new dev.idiom.services.app.zotero.ServedZotero(new dev.idiom.events.zotero.mysql.MySqlServedLibraries(database.dataSource()), clock,
                            config.zoteroTestRoot()));
            engine.start();
            if (engine.pushes().worker() != null) {
                followers.add(engine.pushes().planner(), "the mirror_plan rows, committed after the outbox rows they plan", engine.mirrors()::plannedTo);
                followers.add(engine.pushes().worker(), "the outbox: what each copy is owed (no feed position)", null);
            }
            return new Idiom(embedded, database, store, cache, feed, search, app, registry, engine, followSearch && !sync.pushInterval().isZero(), followers);
        } catch (RuntimeException e) {
            if (search != null) {
                search.close();
            }
            if (database != null) {
                database.close();
            }
            if (embedded != null) {
                embedded.close();
            }
            throw e;
        }
    }

    /**
     * This node as the accounts' leases name it: its host and data folder, the same across its
     * restarts, so a node killed while it held an account takes the account back when it returns.
     */
    static String nodeName(IdiomConfig config) {
        String host;
        try {
            host = java.net.InetAddress.getLocalHost().getHostName();
        } catch (java.io.IOException unresolved) {
            host = "localhost";
        }
        String name = host + ":" + config.data().toAbsolutePath().normalize();
        return name.length() <= 128 ? name : name.substring(0, 64) + "…" + name.substring(name.length() - 63);
    }

    /**
     * One index per database under the data directory: the embedded one, or each JDBC URL's own
     * (nodes of a cluster share the database, never an index; each keeps its own from the feed).
     */
    static Path searchIndexDirectory(IdiomConfig config) {
        if (config.dbUrl() == null) {
            return config.data().resolve("search-index").resolve("embedded");
        }
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(config.dbUrl().getBytes(StandardCharsets.UTF_8));
            return config.data().resolve("search-index").resolve("db-" + HexFormat.of().formatHex(digest, 0, 6));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }

    public Application application() {
        return app;
    }

    /** Says where this process now serves HTTP: the served Zotero libraries' accounts are synced there. */
    void servingAt(java.net.URI root) {
        registry.servedAt(root);
    }

    public Database database() {
        return database;
    }

    /** The event store, for tests and the composition root only: everything else goes through {@link #application()}. */
    EventStore store() {
        return store;
    }

    @Override
    public void close() {
        if (trashSweep != null) {
            trashSweep.close();
        }
        engine.close(); // no push starts once the pool is closing
        if (feed != null) {
            feed.close();
        }
        search.close();
        cache.close();
        store.close(); // writes what is waiting before the pool closes
        database.close();
        if (embedded != null) {
            embedded.close();
        }
    }
}
