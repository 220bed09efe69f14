package dev.idiom.services;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idiom.consistency.FaultHistory;
import dev.idiom.consistency.report.Progress;
import dev.idiom.db.TestDatabase;
import dev.idiom.events.DigitalEntity;
import dev.idiom.events.Replica;
import dev.idiom.services.app.Application;
import dev.idiom.wrappers.FaultyNetwork;
import dev.idiom.wrappers.bibtex.BibTeXFile;
import dev.idiom.wrappers.http.ToolHttp;
import dev.idiom.wrappers.zotero.ZoteroShapes;
import dev.idiom.wrappers.zotero.ZoteroStub;
import dev.idiom.wrappers.zotero.ZoteroTool;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Logger;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The fault schedule with real deaths: the server is its own process ({@code IdiomMain serve}) over
 * MariaDB, and it is killed with SIGKILL twice per seed while it mirrors a Zotero library of items
 * with real items' shapes into a second library and a BibTeX file, behind a proxy that meets a fifth
 * of the calls with faults; once inside a write (the tool applied it, the answer not yet sent), once
 * inside a pull. Meanwhile edits arrive through the server's REST API and in both Zotero libraries
 * and (in odd seeds) curators press Sync. After the network heals, a second node on the same store
 * settles every account and the history checker shared with the in-JVM schedule
 * ({@link FaultHistory}) reads the end state. {@code -Dfaults.kill.seeds}, {@code -Dfaults.items},
 * {@code -Dfaults.kill.seconds} make the run longer ({@code perf/faults.sh --kill}).
 */
@Tag("slow") // three server processes per seed: left out of ./mvnw -Pquick verify, run by ./mvnw verify
class KilledNodeFaultSuiteTest {
    private static final Logger LOG = Logger.getLogger(KilledNodeFaultSuiteTest.class.getName());
    private static final Map<String, String> ENV = Map.of("IDIOM_SECRET_KEY", RunningIdiom.SECRET_KEY, "IDIOM_ADMIN_TOKEN", RunningIdiom.ADMIN_TOKEN);
    /** How long a curator waits for a sync's answer. */
    private static final Duration CURATOR_PATIENCE = Duration.ofSeconds(180);
    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(2)).build();

    @TempDir
    Path dir;

    static Stream<Arguments> schedules() {
        List<Arguments> out = new ArrayList<>();
        for (String s : System.getProperty("faults.kill.seeds", "1,2,3,4,5").split(",")) {
            long seed = Long.parseLong(s.strip());
            out.add(Arguments.of(seed, seed % 2 == 1)); // curators' syncs beside the engine in odd seeds
        }
        return out.stream();
    }

    @ParameterizedTest(name = "seed {0}, curator syncs {1}")
    @MethodSource("schedules")
    void aServerKilledTwiceMidMirrorUnderFaultsLosesDuplicatesAndRewritesNothing(long seed, boolean curatorSyncs) throws Exception {
        int items = Integer.getInteger("faults.items", 1000);
        Duration running = Duration.ofSeconds(Integer.getInteger("faults.kill.seconds", 9));
        String db = TestDatabase.freshUrl();
        Path bib = Files.writeString(dir.resolve("library.bib"), "");
        FaultHistory history = new FaultHistory();
        List<String> findings = new CopyOnWriteArrayList<>();
        AtomicInteger editsInIdiom = new AtomicInteger();
        AtomicInteger editsUnheard = new AtomicInteger();
        AtomicInteger editsInZotero = new AtomicInteger();
        AtomicInteger syncs = new AtomicInteger();
        AtomicInteger syncsRefused = new AtomicInteger();
        AtomicInteger syncsCut = new AtomicInteger();
        java.util.concurrent.atomic.AtomicReference<String> firstRefusal = new java.util.concurrent.atomic.AtomicReference<>("none");
        SplittableRandom random = new SplittableRandom(seed);
        try (ZoteroStub source = new ZoteroStub("users/1"); ZoteroStub copy = new ZoteroStub("users/2");
             FaultyNetwork toSource = new FaultyNetwork(source.uri(), seed * 31 + 1, 0); FaultyNetwork toCopy = new FaultyNetwork(copy.uri(), seed * 31 + 2, 0)) {
            ZoteroShapes shapes = new ZoteroShapes(random.split());
            for (int i = 0; i < items; i++) {
                source.addRemotely(shapes.item(i));
            }
            history.imported(source.itemVersions());
            Node node = new Node(db, dir);
            long t0 = System.nanoTime();
            try {
                node.start();
                toSource.share(0.2);
                toCopy.share(0.2);
                untilOk(node, "PUT", "/api/tools/source", "{\"kind\":\"zotero\",\"baseUrl\":\"" + toSource.uri() + "\",\"account\":\"users/1\",\"secret\":\""
                        + ZoteroStub.KEY + "\"}");
                untilOk(node, "POST", "/api/tools/source/sync", ""); // the first import, under faults
                untilOk(node, "PUT", "/api/tools/copy", "{\"kind\":\"zotero\",\"baseUrl\":\"" + toCopy.uri() + "\",\"account\":\"users/2\",\"secret\":\""
                        + ZoteroStub.KEY + "\",\"mirror\":\"all\"}");
                untilOk(node, "PUT", "/api/tools/file", "{\"kind\":\"bibtex\",\"baseUrl\":\"" + bib + "\",\"mirror\":\"all\"}");
                long t1 = System.nanoTime();

                // a second node on the same store: it reads the DEs edits are made to, and settles at the end
                try (Idiom reader = Idiom.start(IdiomConfig.from(Map.of("db-url", db, "data", dir.resolve("reader").toString(), "sync-interval-ms", "0",
                        "pull-interval-ms", "0", "check-interval-ms", "0", "local-tool-hosts", "true", "files-dir", dir.toString()), ENV, k -> null))) {
                    List<UUID> imported = new ArrayList<>();
                    reader.store().foldAll(de -> imported.add(de.id()));
                    AtomicBoolean on = new AtomicBoolean(true);
                    List<Thread> workers = new ArrayList<>();
                    SplittableRandom edits = random.split();
                    AtomicInteger editNo = new AtomicInteger();
                    workers.add(Thread.ofPlatform().name("kill-suite-edits").start(() -> {
                        while (on.get()) {
                            UUID id = imported.get(edits.nextInt(imported.size()));
                            DigitalEntity de = reader.store().load(id).orElseThrow();
                            String title = FaultHistory.editedTitle(editNo.incrementAndGet(), seed, de.metadata().title());
                            int side = Math.floorMod(id.hashCode(), 3); // a DE's edits all come from one side: no conflict to settle
                            if (side == 0) {
                                try {
                                    HttpResponse<String> r = node.send("PATCH", "/api/entities/" + id, "{\"metadata\":{\"title\":" + json(title) + "}}",
                                            "\"" + de.version() + "\"");
                                    if (r.statusCode() == 200) {
                                        history.acknowledged(id, title);
                                        editsInIdiom.incrementAndGet();
                                    } else if (r.statusCode() != 412 && r.statusCode() != 503) {
                                        findings.add("an edit through the API answered " + r.statusCode() + ": " + r.body());
                                    }
                                } catch (InterruptedException stopped) {
                                    return;
                                } catch (IOException died) {
                                    if (!(died instanceof java.net.ConnectException)) {
                                        history.unheard(id, title); // sent, and the node died before it answered
                                        editsUnheard.incrementAndGet();
                                    }
                                }
                            } else {
                                String account = side == 1 ? "users/1" : "users/2";
                                Optional<Replica> there = de.replicas().stream().filter(r -> account.equals(r.account())).findFirst();
                                if (there.isPresent()) {
                                    (side == 1 ? source : copy).editRemotely(there.get().remoteId(), title);
                                    history.acknowledged(id, title);
                                    editsInZotero.incrementAndGet();
                                }
                            }
                            pause(15); // ~50 edits a second, each owed to three copies
                        }
                    }));
                    if (curatorSyncs) {
                        SplittableRandom which = random.split();
                        workers.add(Thread.ofPlatform().name("kill-suite-curator").start(() -> {
                            while (on.get()) {
                                try {
                                    // a sync drains everything owed to every copy: under faults it can outlast a node's life of a few seconds
                                    HttpResponse<String> r = node.send("POST", "/api/tools/" + List.of("source", "copy", "file").get(which.nextInt(3)) + "/sync", "", null, CURATOR_PATIENCE);
                                    if (r.statusCode() == 200) {
                                        syncs.incrementAndGet();
                                    } else {
                                        if (syncsRefused.incrementAndGet() == 1) { // a fault met on the way, or an account held: the curator presses again
                                            firstRefusal.set(r.statusCode() + " " + r.body().substring(0, Math.min(200, r.body().length())));
                                        }
                                        pause(100);
                                    }
                                } catch (InterruptedException stopped) {
                                    return;
                                } catch (IOException died) {
                                    syncsCut.incrementAndGet();
                                    pause(50); // the node died under it, or is down: the curator presses again later
                                }
                            }
                        }));
                    }
                    // kill -9 inside a write to the copy (applied there, the answer not yet sent), then inside a pull of the source
                    long between = running.toNanos() / 3;
                    pause(between / 1_000_000);
                    node.killInside(copy, line -> (line.startsWith("POST /users/2/items") || line.startsWith("PATCH /users/2/items")) && !line.contains(" 4"));
                    pause(between / 1_000_000);
                    node.killInside(source, line -> line.startsWith("GET /users/1/items"));
                    pause(between / 1_000_000);
                    on.set(false);
                    for (Thread w : workers) {
                        w.join(CURATOR_PATIENCE.toMillis() + 5_000); // a curator's sync in flight is waited for: the press is answered or refused
                    }
                    long t2 = System.nanoTime();
                    toSource.share(0);
                    toCopy.share(0);
                    node.stop();
                    node.severe().forEach(findings::add);

                    int rounds = settle(reader.application(), reader, findings);
                    List<DigitalEntity> des = new ArrayList<>();
                    reader.store().foldAll(des::add);
                    Map<String, Map<String, String>> titles = Map.of("users/1", FaultHistory.titles(direct(source, "users/1")),
                            "users/2", FaultHistory.titles(direct(copy, "users/2")), "library.bib", FaultHistory.titles(new BibTeXFile(bib)));
                    findings.addAll(history.check(des, items, titles, source.itemVersions()));
                    String figures = String.format("seed %d: %d items, faults %s / %s of %d calls, %d kills, %d edits through the API (%d unheard), %d in Zotero, "
                            + "%d curator syncs answered (%d refused, the first: %s; %d cut by a death or the node down); import %.1f s, everything at once %.1f s, settling %.1f s in %d rounds", seed, items, toSource.counts(),
                            toCopy.counts(), toSource.calls() + toCopy.calls(), node.kills, editsInIdiom.get(), editsUnheard.get(), editsInZotero.get(),
                            syncs.get(), syncsRefused.get(), firstRefusal.get(), syncsCut.get(), (t1 - t0) / 1e9, (t2 - t1) / 1e9, (System.nanoTime() - t2) / 1e9, rounds);
                    LOG.info("KILLED-NODE FAULTS " + figures + "; findings: " + findings.size());
                    Path report = Path.of("target", "killed-node-schedule-" + seed + ".txt");
                    Files.createDirectories(report.getParent());
                    Files.write(report, findings);
                    assertEquals(2, node.kills, "two kills inside the schedule: " + figures);
                    assertTrue(editsInIdiom.get() > 0 && editsInZotero.get() > 0, "edits on both sides: " + figures);
                    assertEquals(List.of(), findings.subList(0, Math.min(20, findings.size())), figures + "; " + findings.size() + " findings, all in " + report);
                }
            } finally {
                node.destroy();
            }
        }
    }

    /** Every account synced and checked, then every owed push drained, until a whole round changes nothing. */
    private static int settle(Application app, Idiom reader, List<String> findings) throws InterruptedException {
        for (int round = 1; round <= 8; round++) {
            long head = reader.store().headPosition();
            for (String name : List.of("source", "copy", "file")) {
                if (app.sync().report().stream().anyMatch(a -> a.name().equals(name) && a.held() != null)) {
                    findings.add("account " + name + " held after the schedule");
                    app.sync().resume(name, false);
                }
                for (int attempt = 0; ; attempt++) {
                    try {
                        app.sync().sync(name, false, Progress.SILENT);
                        app.sync().check(name);
                        break;
                    } catch (RuntimeException e) {
                        if (attempt == 20) {
                            findings.add("settling " + name + " never got through: " + e);
                            break;
                        }
                        Thread.sleep(500); // e.g. the killed node's account lease still running out
                    }
                }
            }
            app.sync().planMirrors();
            for (int i = 0; i < 100 && !app.sync().owed(1).isEmpty(); i++) {
                app.sync().pushOwed();
            }
            if (round > 1 && reader.store().headPosition() == head && app.sync().owed(1).isEmpty()) {
                return round;
            }
        }
        return 8;
    }

    private static ZoteroTool direct(ZoteroStub stub, String library) {
        return new ZoteroTool(stub.uri(), library, ZoteroStub.KEY, new ToolHttp("Zotero", ZoteroTool.LIMITS, dev.idiom.db.TimeSource.SYSTEM,
                dev.idiom.wrappers.http.Pacing.SLEEP, 4));
    }

    private static void untilOk(Node node, String method, String path, String body) throws Exception {
        HttpResponse<String> last = null;
        for (int attempt = 0; attempt < 60; attempt++) {
            last = node.send(method, path, body, null);
            if (last.statusCode() == 200) {
                return;
            }
            Thread.sleep(200); // a fault met on the way: the curator tries again
        }
        throw new AssertionError(method + " " + path + " never got through: " + last.statusCode() + " " + last.body());
    }

    private static String json(String s) {
        return com.fasterxml.jackson.databind.node.TextNode.valueOf(s).toString();
    }

    private static void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The server process: started, killed with SIGKILL at a chosen moment, started again on the same store and data folder. */
    private static final class Node {
        private final String db;
        private final Path data;
        private final Path files;
        private final int port;
        private volatile Process process;
        private int starts;
        int kills;

        Node(String db, Path dir) throws IOException {
            this.db = db;
            this.data = Files.createDirectories(dir.resolve("node"));
            this.files = dir;
            try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
                this.port = s.getLocalPort();
            }
        }

        void start() throws Exception {
            String classpath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
            ProcessBuilder pb = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp", classpath,
                    "dev.idiom.services.IdiomMain", "serve", "--port", Integer.toString(port), "--db-url", db, "--data", data.toString(),
                    "--files-dir", files.toString(), "--sync-interval-ms", "100", "--sync-lease-ms", "1500", "--pull-interval-ms", "1000",
                    "--check-interval-ms", "0", "--local-tool-hosts", "true", "--tool-call-timeout-s", "2")
                    .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(data.resolve("node-" + ++starts + ".log").toFile()));
            pb.environment().putAll(ENV);
            process = pb.start();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
            while (System.nanoTime() < deadline) {
                if (!process.isAlive()) {
                    throw new AssertionError("the node exited with " + process.exitValue() + ": " + Files.readString(data.resolve("node-" + starts + ".log")));
                }
                try {
                    if (send("GET", "/api/ping", null, null).statusCode() == 204) {
                        return;
                    }
                } catch (IOException notYet) {
                    Thread.sleep(100);
                }
            }
            throw new AssertionError("the node did not answer within 90 s");
        }

        /** Kills the node with SIGKILL inside the next call {@code stub} answers that {@code where} picks (within 5 s, else wherever it is), then starts it again. */
        void killInside(ZoteroStub stub, java.util.function.Predicate<String> where) throws Exception {
            CountDownLatch killed = new CountDownLatch(1);
            AtomicBoolean once = new AtomicBoolean();
            stub.beforeReply(line -> {
                if (where.test(line) && once.compareAndSet(false, true)) {
                    kill();
                    killed.countDown();
                }
            });
            if (!killed.await(5, TimeUnit.SECONDS) && once.compareAndSet(false, true)) {
                kill(); // no such call came: killed wherever it was
            }
            stub.beforeReply(null);
            start();
        }

        private void kill() {
            process.destroyForcibly(); // SIGKILL
            try {
                process.waitFor(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            kills++;
        }

        /** A graceful stop (SIGTERM): the node finishes what it holds and lets its leases go. */
        void stop() throws InterruptedException {
            process.destroy();
            process.waitFor(60, TimeUnit.SECONDS);
        }

        void destroy() {
            if (process != null) {
                process.destroyForcibly();
            }
        }

        /** What the node logged at SEVERE, in every one of its lives. */
        List<String> severe() throws IOException {
            List<String> out = new ArrayList<>();
            for (int i = 1; i <= starts; i++) {
                for (String line : Files.readAllLines(data.resolve("node-" + i + ".log"))) {
                    if (line.contains("SEVERE")) {
                        out.add("node life " + i + " logged: " + line);
                    }
                }
            }
            return out;
        }

        HttpResponse<String> send(String method, String path, String body, String ifMatch) throws IOException, InterruptedException {
            return send(method, path, body, ifMatch, Duration.ofSeconds(60));
        }

        HttpResponse<String> send(String method, String path, String body, String ifMatch, Duration patience) throws IOException, InterruptedException {
            HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).timeout(patience)
                    .header("Authorization", "Bearer " + RunningIdiom.ADMIN_TOKEN)
                    .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
            if (body != null) {
                b.header("Content-Type", method.equals("PATCH") ? "application/merge-patch+json" : "application/json");
            }
            if (ifMatch != null) {
                b.header("If-Match", ifMatch);
            }
            return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
        }
    }
}
