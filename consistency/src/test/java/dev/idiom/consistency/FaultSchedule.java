package dev.idiom.consistency;

import dev.idiom.consistency.report.Progress;
import dev.idiom.events.Changes;
import dev.idiom.events.DigitalEntity;
import dev.idiom.events.EntityIds;
import dev.idiom.events.EventCodec;
import dev.idiom.events.EventStore;
import dev.idiom.events.Field;
import dev.idiom.events.NewEvent;
import dev.idiom.events.Outbox;
import dev.idiom.events.Replica;
import dev.idiom.events.accounts.ToolAccountRepository;
import dev.idiom.events.memory.InMemoryDatabase;
import dev.idiom.events.memory.InMemoryEventStore;
import dev.idiom.events.memory.InMemoryOutbox;
import dev.idiom.events.memory.InMemoryToolAccounts;
import dev.idiom.wrappers.AnnotationTool;
import dev.idiom.wrappers.FakeTime;
import dev.idiom.wrappers.FaultyNetwork;
import dev.idiom.wrappers.RemoteRecord;
import dev.idiom.wrappers.bibtex.BibTeXFile;
import dev.idiom.wrappers.http.CallBounds;
import dev.idiom.wrappers.http.CallGate;
import dev.idiom.wrappers.http.KeyBackoff;
import dev.idiom.wrappers.http.ToolHosts;
import dev.idiom.wrappers.http.ToolHttp;
import dev.idiom.wrappers.zotero.ZoteroShapes;
import dev.idiom.wrappers.zotero.ZoteroStub;
import dev.idiom.wrappers.zotero.ZoteroTool;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * One seeded schedule of everything at once, and the checker of its whole history. A Zotero
 * library ({@code source}, users/1 of the strict stand-in) of items with real items' shapes is
 * imported, then mirrored into a second library ({@code copy}, users/2, same API key) and a BibTeX
 * file ({@code file}, opened anew at each use as the application opens it), with a fault-injecting
 * proxy in front of both libraries. Beside the engine's own rounds, curators sync accounts, edits
 * are made in Idiom and in both Zotero libraries (as a Zotero client makes them, at the item's
 * version), pulls run as scheduled, and the node "dies" at chosen moments: every store write fails
 * from then on (so work in hand stops at its next write, wherever that is: inside a push, after the
 * tool applied it, during a pull), then a new engine starts on the same store, outbox and accounts.
 * After the network heals and everything settles, {@link #check()} compares the history with the end state.
 */
final class FaultSchedule implements AutoCloseable {
    /**
     * What a schedule does: its seed, its library, how much goes wrong, how long it runs. With
     * {@code edits} above 0 it makes exactly that many edits, each tried until acknowledged (and runs
     * until they are made), so that two runs of one plan must end with the same DEs; with 0 it edits
     * at its pace for as long as it runs.
     */
    record Plan(long seed, int items, double faultShare, int crashes, Duration running, boolean curatorSyncs, int edits) {
        Plan(long seed, int items, double faultShare, int crashes, Duration running, boolean curatorSyncs) {
            this(seed, items, faultShare, crashes, running, curatorSyncs, 0);
        }
    }

    /** The node died: thrown by every store write until it restarts. */
    static final class Crash extends Error {
        Crash() {
            super("the node died (fault schedule)", null, false, false);
        }
    }

    final Plan plan;
    final FakeTime time = new FakeTime();
    private final InMemoryDatabase db = new InMemoryDatabase();
    private final EventStore store = new InMemoryEventStore(db, new EventCodec(), time);
    private final Outbox outbox = new InMemoryOutbox(db, time);
    private final ToolAccountRepository states = new InMemoryToolAccounts(db);
    final ZoteroStub source = new ZoteroStub("users/1");
    final ZoteroStub copy = new ZoteroStub("users/2");
    private final FaultyNetwork toSource;
    private final FaultyNetwork toCopy;
    private final Path bibFile;
    private final Directory tools;
    private final AtomicReference<ConsistencyEngine> engine = new AtomicReference<>();
    private volatile boolean dead;
    /** Held by each worker's step: a restart waits until no work of the dead node is still going. */
    private final ReentrantReadWriteLock node = new ReentrantReadWriteLock();

    /** The history the checker reads. */
    private final FaultHistory history = new FaultHistory();
    /** The source library's item keys in the order the items were made (item n is "no. n"). */
    private final List<String> itemKeys = new ArrayList<>();
    /** The DE the first import made of each source item, by the item's key: the ones edits are made to. */
    private final Map<String, UUID> imported = new ConcurrentHashMap<>();
    final List<String> unexpected = new CopyOnWriteArrayList<>();
    final AtomicInteger toolFailures = new AtomicInteger();
    final AtomicInteger crashes = new AtomicInteger();
    final AtomicInteger editsInIdiom = new AtomicInteger();
    final AtomicInteger editsInZotero = new AtomicInteger();
    final AtomicInteger curatorSyncs = new AtomicInteger();
    private volatile String timings = "";
    private volatile int settleRounds;

    FaultSchedule(Plan plan) {
        this.plan = plan;
        toSource = new FaultyNetwork(source.uri(), plan.seed() * 31 + 1, 0);
        toCopy = new FaultyNetwork(copy.uri(), plan.seed() * 31 + 2, 0);
        try {
            bibFile = Files.writeString(Files.createTempDirectory("fault-schedule").resolve("library.bib"), "");
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        tools = new Directory();
        engine.set(newEngine());
    }

    /** The accounts, each Zotero one with its own client and pacing but one Backoff for the key they share. */
    private final class Directory implements ToolDirectory {
        private final KeyBackoff sharedKey = new KeyBackoff();
        private final ZoteroTool sourceTool = zotero(toSource, "users/1");
        private final ZoteroTool copyTool = zotero(toCopy, "users/2");
        final Map<String, MirrorRule> rules = new ConcurrentHashMap<>();

        private ZoteroTool zotero(FaultyNetwork net, String library) {
            // a call gives up after a second (the proxy's slow answers come later), as a client with a short timeout does
            return new ZoteroTool(net.uri(), library, ZoteroStub.KEY, new ToolHttp("Zotero", ZoteroTool.LIMITS, time, time, 3, ToolHosts.ANY,
                    new CallBounds(CallBounds.DEFAULTS.maxBytes(), Duration.ofSeconds(1)), CallGate.inMemory(), sharedKey));
        }

        @Override
        public AnnotationTool open(String name) {
            return switch (name) {
                case "source" -> sourceTool;
                case "copy" -> copyTool;
                case "file" -> new BibTeXFile(bibFile); // opened anew at each use, as the application opens a file account
                default -> throw new IllegalArgumentException("no tool account " + name);
            };
        }

        @Override
        public List<String> names() {
            return List.of("source", "copy", "file");
        }

        @Override
        public Optional<AnnotationTool> open(String kind, String account) {
            String wanted = account == null ? "" : account;
            return names().stream().map(this::open).filter(t -> t.kind().equals(kind) && t.account().equals(wanted)).findFirst();
        }

        @Override
        public ConflictPolicy policy(String kind, String account) {
            return ConflictPolicy.PREFER_IDIOM;
        }

        @Override
        public List<Account> configured() {
            return names().stream().map(n -> new Account(n, open(n).kind(), open(n).account(), rules.getOrDefault(n, MirrorRule.NONE))).toList();
        }
    }

    /** The store as the engine sees it: every write fails while the node is dead (the engine's own threads too: no lock is taken here). */
    private EventStore mortal(EventStore real) {
        return (EventStore) java.lang.reflect.Proxy.newProxyInstance(EventStore.class.getClassLoader(), new Class<?>[] {EventStore.class}, (proxy, m, args) -> {
            if (dead && m.getName().startsWith("append")) {
                throw new Crash();
            }
            try {
                return m.invoke(real, args);
            } catch (java.lang.reflect.InvocationTargetException e) {
                throw e.getCause();
            }
        });
    }

    private ConsistencyEngine newEngine() {
        return new ConsistencyEngine(mortal(store), outbox, tools, states, new EntityIds(time), time, new SplittableRandom(plan.seed()),
                ConsistencyEngine.Settings.ON_DEMAND);
    }

    /** The whole schedule: the library, its import and mirrors under faults, everything at once, crashes, then settling. */
    FaultSchedule run() throws InterruptedException {
        SplittableRandom random = new SplittableRandom(plan.seed());
        ZoteroShapes shapes = new ZoteroShapes(random.split());
        for (int i = 0; i < plan.items(); i++) {
            itemKeys.add(source.addRemotely(shapes.item(i)));
        }
        history.imported(source.itemVersions());
        toSource.share(plan.faultShare());
        toCopy.share(plan.faultShare());
        long t0 = System.nanoTime();
        untilDone("the first import", () -> engine.get().importAccount(tools.open("source"), true, Progress.SILENT));
        long t1 = System.nanoTime();
        store.foldAll(de -> de.replicas().stream().filter(r -> "users/1".equals(r.account())).forEach(r -> imported.put(r.remoteId(), de.id())));
        tools.rules.put("copy", MirrorRule.stored("\"all\"", "both"));
        tools.rules.put("file", MirrorRule.stored("\"all\"", "both"));

        AtomicBoolean running = new AtomicBoolean(true);
        List<Thread> workers = new ArrayList<>();
        workers.add(worker("engine", running, () -> {
            engine.get().mirrors().planAll();
            engine.get().pushes().round();
        }));
        SplittableRandom pulls = random.split();
        workers.add(worker("scheduled pulls", running, () -> {
            String name = tools.names().get(pulls.nextInt(3));
            engine.get().importAccount(tools.open(name), false, Progress.SILENT);
        }));
        if (plan.curatorSyncs()) {
            SplittableRandom syncs = random.split();
            workers.add(worker("curator syncs", running, () -> {
                engine.get().sync().sync(tools.names().get(syncs.nextInt(3)), false, Progress.SILENT);
                curatorSyncs.incrementAndGet();
            }));
        }
        SplittableRandom edits = random.split();
        AtomicInteger editNo = new AtomicInteger();
        AtomicBoolean editing = plan.edits() > 0 ? new AtomicBoolean(true) : running;
        AtomicReference<int[]> pending = new AtomicReference<>(); // {item, n}: with a number of edits planned, tried until acknowledged
        Thread editor = worker("edits", editing, () -> {
            if (pending.get() == null) {
                int n = editNo.incrementAndGet();
                if (plan.edits() > 0 && n > plan.edits()) {
                    editing.set(false);
                    return;
                }
                pending.set(new int[] {edits.nextInt(itemKeys.size()), n});
            }
            int[] edit = pending.get();
            if (edit(edit[0], edit[1]) || plan.edits() == 0) {
                pending.set(null);
            }
            Thread.sleep(15); // ~50 edits a second: each one owed to three copies, a .bib file rewritten whole for each
        });
        long until = System.nanoTime() + plan.running().toNanos();
        long between = plan.running().toNanos() / (plan.crashes() + 1);
        for (int c = 0; c < plan.crashes(); c++) {
            Thread.sleep(Duration.ofNanos(between));
            crashAndRestart();
        }
        Thread.sleep(Duration.ofNanos(Math.max(0, until - System.nanoTime())));
        editor.join(plan.edits() > 0 ? 600_000 : 1); // a plan of so many edits runs until they are made
        editing.set(false);
        running.set(false);
        workers.add(editor);
        for (Thread w : workers) {
            w.join(120_000);
        }
        long t2 = System.nanoTime();
        settle();
        timings = String.format("import %.1f s, everything at once %.1f s, settling %.1f s in %d rounds", (t1 - t0) / 1e9, (t2 - t1) / 1e9, (System.nanoTime() - t2) / 1e9, settleRounds);
        return this;
    }

    /**
     * Edit {@code n} of source item {@code item}'s DE, made on the one side that DE is edited on (in
     * Idiom, in the Zotero library it came from, or in its copy there), so there is no conflict to
     * settle; whether it was acknowledged (one not acknowledged is not expected anywhere).
     */
    private boolean edit(int item, int n) {
        UUID id = imported.get(itemKeys.get(item));
        int side = item % 3;
        DigitalEntity de = store.load(id).orElseThrow();
        String title = FaultHistory.editedTitle(n, plan.seed(), de.metadata().title());
        if (side == 0) {
            try {
                mortal(store).append(de.id(), de.version(), Changes.toSet(de.metadata(), Map.of(Field.TITLE, title)).stream()
                        .map(e -> new NewEvent(UUID.randomUUID(), "portal", e)).toList());
            } catch (dev.idiom.events.StaleVersionException | Crash stale) {
                return false; // not acknowledged: not expected anywhere
            }
            editsInIdiom.incrementAndGet();
        } else {
            ZoteroStub library = side == 1 ? source : copy;
            String account = side == 1 ? "users/1" : "users/2";
            Optional<Replica> there = de.replicas().stream().filter(r -> r.tool().equals("zotero") && account.equals(r.account())).findFirst();
            if (there.isEmpty()) {
                return false; // not copied there yet
            }
            library.editRemotely(there.get().remoteId(), title);
            editsInZotero.incrementAndGet();
        }
        history.acknowledged(de.id(), title);
        return true;
    }

    private interface Step {
        void run() throws Exception;
    }

    private Thread worker(String name, AtomicBoolean running, Step step) {
        return Thread.ofPlatform().name("fault-schedule-" + name).start(() -> {
            while (running.get()) {
                try {
                    node.readLock().lock(); // a restart waits for the step in hand to stop
                    try {
                        if (!dead) {
                            step.run();
                        }
                    } finally {
                        node.readLock().unlock();
                    }
                    if (dead) {
                        Thread.sleep(5);
                    }
                } catch (Crash died) {
                    // the node is dead: this work stopped where it was
                } catch (dev.idiom.wrappers.ToolException | dev.idiom.consistency.report.SyncRefusedException expected) {
                    toolFailures.incrementAndGet(); // what a fault does to one call: the next round tries again
                } catch (InterruptedException e) {
                    return;
                } catch (Exception | Error e) {
                    if (causedByCrash(e)) {
                        continue;
                    }
                    unexpected.add(name + ": " + e);
                }
            }
        });
    }

    private static boolean causedByCrash(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof Crash) {
                return true;
            }
        }
        return false;
    }

    /** The node dies (every write fails from now on); once no work of it is inside a write, a new one starts on the same state. */
    private void crashAndRestart() {
        dead = true;
        node.writeLock().lock();
        try {
            crashes.incrementAndGet();
            engine.getAndSet(newEngine()).close();
            time.pause(Duration.ofMinutes(2)); // past the dead node's leases on its claimed rows
            dead = false;
        } finally {
            node.writeLock().unlock();
        }
    }

    private interface Work {
        Object run();
    }

    /** Tried until it is done: a call that met a fault is tried again, as the scheduler does. */
    private void untilDone(String what, Work work) {
        for (int attempt = 1; ; attempt++) {
            try {
                work.run();
                return;
            } catch (dev.idiom.wrappers.ToolException | dev.idiom.consistency.report.SyncRefusedException e) {
                toolFailures.incrementAndGet();
                if (attempt == 200) {
                    throw new AssertionError(what + " never got through: " + e.getMessage(), e);
                }
            }
        }
    }

    /** The network heals; every account is synced and checked until nothing moves. */
    private void settle() {
        toSource.share(0);
        toCopy.share(0);
        time.pause(Duration.ofMinutes(10));
        ConsistencyEngine e = engine.get();
        for (int round = 0; round < 8; round++) {
            long head = store.headPosition();
            for (String name : tools.names()) {
                if (states.syncState(tools.open(name).kind(), tools.open(name).account()).held() != null) {
                    unexpected.add("account " + name + " held: " + states.syncState(tools.open(name).kind(), tools.open(name).account()).held());
                    e.holds().resume(name, false);
                }
                untilDone("settling " + name, () -> e.sync().sync(name, false, Progress.SILENT));
            }
            for (String name : tools.names()) {
                untilDone("checking " + name, () -> e.check(name));
            }
            e.mirrors().planAll();
            e.pushes().drain(100);
            time.pause(Duration.ofMinutes(5));
            settleRounds = round + 1;
            if (round > 0 && store.headPosition() == head && outbox.list(null, null, 1).isEmpty()) {
                break; // a whole round of syncs and checks changed nothing: settled
            }
        }
    }

    /** What the history and the end state disagree on; empty when nothing was lost, duplicated or rewritten. */
    List<String> check() {
        List<String> wrong = new ArrayList<>(unexpected);
        List<DigitalEntity> des = new ArrayList<>();
        store.foldAll(des::add);
        wrong.addAll(history.check(des, plan.items(), Map.of("users/1", FaultHistory.titles(tools.open("source")),
                "users/2", FaultHistory.titles(tools.open("copy")), "library.bib", FaultHistory.titles(tools.open("file"))), source.itemVersions()));
        return wrong;
    }

    /**
     * What each source item ended as, by its number: its DE's metadata and the accounts holding its
     * copies. Two runs of one plan with a number of edits must give the same (their ids, keys and
     * timings differ; their content must not).
     */
    Map<Integer, String> ends() {
        Map<Integer, String> out = new TreeMap<>();
        for (int i = 0; i < itemKeys.size(); i++) {
            DigitalEntity de = store.load(imported.get(itemKeys.get(i))).orElseThrow();
            out.put(i, de.metadata() + " live " + de.live() + " in " + de.replicas().stream().map(Replica::account).sorted().toList());
        }
        return out;
    }

    /** What was injected and what came of it, in one line. */
    String figures() {
        return "seed " + plan.seed() + ": " + plan.items() + " items, faults " + toSource.counts() + " / " + toCopy.counts() + " of "
                + (toSource.calls() + toCopy.calls()) + " calls, " + crashes + " crashes, " + editsInIdiom + " edits in Idiom, " + editsInZotero
                + " in Zotero, " + curatorSyncs + " curator syncs, " + toolFailures + " calls given up for the round; " + timings;
    }

    @Override
    public void close() {
        engine.get().close();
        toSource.close();
        toCopy.close();
        source.close();
        copy.close();
        try (var files = Files.walk(bibFile.getParent())) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
