package dev.idiom.consistency;

import dev.idiom.events.Changes;
import dev.idiom.events.DigitalEntity;
import dev.idiom.events.EntityIds;
import dev.idiom.events.EventCodec;
import dev.idiom.events.EventStore;
import dev.idiom.events.Field;
import dev.idiom.events.Metadata;
import dev.idiom.events.NewEvent;
import dev.idiom.events.RecordImported;
import dev.idiom.events.Replica;
import dev.idiom.events.Outbox;
import dev.idiom.events.accounts.ToolAccountRepository;
import dev.idiom.events.memory.InMemoryDatabase;
import dev.idiom.events.memory.InMemoryEventStore;
import dev.idiom.events.memory.InMemoryOutbox;
import dev.idiom.events.memory.InMemoryToolAccounts;
import dev.idiom.wrappers.AnnotationTool;
import dev.idiom.wrappers.FakeTime;
import dev.idiom.wrappers.bibsonomy.BibSonomyStub;
import dev.idiom.wrappers.bibsonomy.BibSonomyTool;
import dev.idiom.wrappers.bibtex.BibTeXFile;
import dev.idiom.wrappers.pinboard.PinboardStub;
import dev.idiom.wrappers.pinboard.PinboardTool;
import java.nio.file.Files;
import java.nio.file.Path;
import dev.idiom.wrappers.http.ToolHttp;
import dev.idiom.wrappers.zotero.ZoteroStub;
import dev.idiom.wrappers.zotero.ZoteroTool;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.UUID;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The engine on its own: the store, the outbox and the sync state in memory (the adapters held to
 * the MariaDB ones' contract tests; the service's end-to-end tests run the engine on MariaDB),
 * the strict Zotero, BibSonomy and Pinboard stubs behind their real adapters and a real BibTeX
 * file, a fake clock, no HTTP service. Accounts "zot", "bib", "pin" and "file"; the engine works
 * on demand only, so what happened when is certain.
 */
final class EngineFixture implements AutoCloseable {
    final FakeTime time = new FakeTime();
    /** The database's tables in memory, held to the same contract tests as MariaDB's adapters: no server, milliseconds a test. */
    final InMemoryDatabase db = new InMemoryDatabase();
    final EventStore store = new InMemoryEventStore(db, new EventCodec(), time);
    final Outbox outbox = new InMemoryOutbox(db, time);
    final ToolAccountRepository states = new InMemoryToolAccounts(db);
    final ZoteroStub zotero = new ZoteroStub();
    final BibSonomyStub bibsonomy = new BibSonomyStub();
    final PinboardStub pinboard = new PinboardStub(time);
    final Path bibFile = newBibFile();
    /** Run once, before the engine's next append is committed: a test's slow disk, or another writer getting in first. */
    final java.util.concurrent.atomic.AtomicReference<Runnable> beforeNextBatch = new java.util.concurrent.atomic.AtomicReference<>();
    final Directory tools = new Directory();
    final ConsistencyEngine engine = new ConsistencyEngine(delayable(store), outbox, tools, states, new EntityIds(time), time, new SplittableRandom(7),
            ConsistencyEngine.Settings.ON_DEMAND);

    /** The store as the engine sees it: the real one, with {@link #beforeNextBatch} run before an append. */
    private EventStore delayable(EventStore real) {
        return (EventStore) java.lang.reflect.Proxy.newProxyInstance(EventStore.class.getClassLoader(), new Class<?>[] {EventStore.class}, (proxy, m, args) -> {
            if (m.getName().startsWith("append")) {
                Runnable first = beforeNextBatch.getAndSet(null);
                if (first != null) {
                    first.run();
                }
            }
            try {
                return m.invoke(real, args);
            } catch (java.lang.reflect.InvocationTargetException e) {
                throw e.getCause();
            }
        });
    }

    /** Two configured accounts, "zot" and "bib", each one adapter kept (as the application keeps one client per account). */
    final class Directory implements ToolDirectory {
        final ZoteroTool zot = new ZoteroTool(zotero.uri(), ZoteroStub.LIBRARY, ZoteroStub.KEY, new ToolHttp("Zotero", ZoteroTool.LIMITS, time, time, 2));
        final BibSonomyTool bib = new BibSonomyTool(bibsonomy.uri(), BibSonomyStub.USER, BibSonomyStub.KEY,
                new ToolHttp("BibSonomy", BibSonomyTool.LIMITS, time, time, 2));
        final PinboardTool pin = new PinboardTool(pinboard.uri().resolve("/v1/"), PinboardStub.TOKEN,
                new ToolHttp("Pinboard", PinboardTool.LIMITS, time, time, 2), time, time);
        final BibTeXFile file = new BibTeXFile(bibFile);
        ConflictPolicy policy = ConflictPolicy.PREFER_IDIOM;
        /** Replication rules by account name (none unless a test sets one). */
        final Map<String, MirrorRule> rules = new ConcurrentHashMap<>();

        /** The file account opened anew at each use, as the application opens a file account (its path checked again each time). */
        volatile boolean fileOpenedEachTime;
        /** The Pinboard account set {@code privateLibrary}, as a browsers' account is by default. */
        volatile boolean pinPrivateLibrary;

        private Map<String, AnnotationTool> byName() {
            return Map.of("zot", zot, "bib", bib, "pin", pinPrivateLibrary ? new dev.idiom.wrappers.PrivateLibrary(pin) : pin,
                    "file", fileOpenedEachTime ? new BibTeXFile(bibFile) : file);
        }

        @Override
        public AnnotationTool open(String name) {
            AnnotationTool t = byName().get(name);
            if (t == null) {
                throw new IllegalArgumentException("no tool account " + name);
            }
            return t;
        }

        @Override
        public List<String> names() {
            return List.of("zot", "bib", "pin", "file");
        }

        @Override
        public Optional<AnnotationTool> open(String kind, String account) {
            return byName().values().stream().filter(t -> t.kind().equals(kind) && t.account().equals(account == null ? "" : account)).findFirst();
        }

        @Override
        public ConflictPolicy policy(String kind, String account) {
            return policy;
        }

        @Override
        public List<Account> configured() {
            return names().stream().map(n -> new Account(n, open(n).kind(), open(n).account(), rules.getOrDefault(n, MirrorRule.NONE))).toList();
        }
    }

    private static Path newBibFile() {
        try {
            Path dir = Files.createTempDirectory("engine-test");
            return Files.writeString(dir.resolve("library.bib"), "");
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** Given: a DE entered in Idiom. */
    UUID entered(Metadata m) {
        UUID id = UUID.randomUUID();
        store.append(id, 0, List.of(new NewEvent(UUID.randomUUID(), "test", new RecordImported(Changes.forNewRecord(m), "idiom", id.toString()))));
        return id;
    }

    /** Given: a DE entered in Idiom with copies uploaded to these accounts. */
    UUID uploaded(Metadata m, String... accounts) {
        UUID id = entered(m);
        for (String a : accounts) {
            engine.upload().upload(id, tools.open(a));
        }
        return id;
    }

    /** When: a curator changes fields in Idiom (through the store: the outbox rows come with the append). */
    void editedInIdiom(UUID id, Field f, Object value) {
        DigitalEntity de = load(id);
        store.append(id, de.version(), Changes.toSet(de.metadata(), Map.of(f, value)).stream()
                .map(e -> new NewEvent(UUID.randomUUID(), "test", e)).toList());
    }

    DigitalEntity load(UUID id) {
        return store.load(id).orElseThrow();
    }

    Replica replica(UUID id, String kind) {
        return load(id).replicas().stream().filter(r -> r.tool().equals(kind)).findFirst().orElseThrow();
    }

    List<Replica> replicas(UUID id, String kind) {
        return new ArrayList<>(load(id).replicas().stream().filter(r -> r.tool().equals(kind)).toList());
    }

    @Override
    public void close() {
        engine.close();
        zotero.close();
        bibsonomy.close();
        pinboard.close();
        if (Files.exists(bibFile.getParent())) {
            try (var files = Files.walk(bibFile.getParent())) {
                files.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }
    }
}
