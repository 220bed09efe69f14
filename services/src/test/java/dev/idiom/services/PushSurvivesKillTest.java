package dev.idiom.services;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idiom.db.TestDatabase;
import dev.idiom.events.Author;
import dev.idiom.events.DigitalEntity;
import dev.idiom.events.Field;
import dev.idiom.events.Metadata;
import dev.idiom.events.Replica;
import dev.idiom.services.app.Application;
import dev.idiom.wrappers.zotero.ZoteroStub;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A node killed with SIGKILL after the tool applied its push and before the node recorded the
 * acknowledgement: another node takes the push over once the lease runs out, finds the tool already
 * holds the change, and neither loses it nor makes a second remote record.
 */
@Tag("slow") // kills and restarts a whole service process: left out of ./mvnw -Pquick verify, run by ./mvnw verify
class PushSurvivesKillTest {
    @TempDir
    Path dir;

    @Test
    void aNodeKilledBetweenPushAndAcknowledgementLeavesNoLostAndNoDuplicatedRemoteRecord() throws Exception {
        String db = TestDatabase.freshUrl();
        Map<String, String> env = Map.of("IDIOM_SECRET_KEY", RunningIdiom.SECRET_KEY);
        try (ZoteroStub zotero = new ZoteroStub()) {
            UUID id;
            String key;
            // set up on one node: an account, a DE uploaded to Zotero, then a change owed to it
            try (Idiom setup = Idiom.start(IdiomConfig.from(Map.of("db-url", db, "data", dir.resolve("setup").toString(), "sync-interval-ms", "0",
                    "local-tool-hosts", "true"), env,
                    k -> null))) {
                Application app = setup.application();
                app.tools().accounts().put("zot", "zotero", zotero.uri().toString(), ZoteroStub.LIBRARY, ZoteroStub.KEY);
                Metadata paper = Metadata.EMPTY.with(Field.TYPE, "article-journal").with(Field.TITLE, "Crash consistency")
                        .with(Field.AUTHORS, List.of(new Author("Lamport", "Leslie"))).with(Field.YEAR, 1978);
                id = app.writes().create(paper, "test").entity().id();
                app.replicas().upload(id, "zot");
                key = setup.store().load(id).orElseThrow().replicas().getFirst().remoteId();
                app.writes().patch(id, Map.of(Field.TITLE, "Crash consistency, pushed once"), setup.store().load(id).orElseThrow().version(), "test");
            }

            // the node that pushes: its own process; the stub applies the write, then the node dies before it hears back
            AtomicReference<Process> node = new AtomicReference<>();
            CountDownLatch killed = new CountDownLatch(1);
            zotero.beforeReply(line -> {
                if (line.startsWith("PATCH ") && line.endsWith(" 204")) {
                    node.get().destroyForcibly();
                    try {
                        node.get().waitFor(30, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    killed.countDown();
                }
            });
            Path data = dir.resolve("node");
            Files.createDirectories(data);
            String classpath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
            ProcessBuilder pb = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp", classpath,
                    "dev.idiom.services.IdiomMain", "serve", "--port", "0", "--db-url", db, "--data", data.toString(), "--sync-interval-ms", "100",
                    "--sync-lease-ms", "1500", "--pull-interval-ms", "0", "--check-interval-ms", "0", "--local-tool-hosts", "true")
                    .redirectErrorStream(true).redirectOutput(data.resolve("node.log").toFile());
            pb.environment().putAll(env);
            node.set(pb.start());
            assertTrue(killed.await(90, TimeUnit.SECONDS), "the node pushed: " + Files.readString(data.resolve("node.log")));
            zotero.beforeReply(null);
            assertEquals(1, zotero.writes().stream().filter(l -> l.startsWith("PATCH ") && l.endsWith(" 204")).count());
            assertEquals("Crash consistency, pushed once", zotero.data(key).path("title").asText(), "the tool holds the change");

            // another node takes over once the dead node's lease ran out
            try (Idiom survivor = Idiom.start(IdiomConfig.from(Map.of("db-url", db, "data", dir.resolve("survivor").toString(), "sync-interval-ms", "0",
                    "local-tool-hosts", "true"),
                    env, k -> null))) {
                Application app = survivor.application();
                assertEquals(1, app.sync().owed(10).size(), "the push is still owed: its acknowledgement was never recorded");
                Thread.sleep(1600);
                app.sync().pushOwed();
                assertEquals(List.of(), app.sync().owed(10), "acknowledged now");
                assertEquals(1, zotero.size(), "no second remote record");
                assertEquals(1, zotero.writes().stream().filter(l -> l.startsWith("PATCH ") && l.endsWith(" 204")).count(),
                        "the change was not written twice: " + zotero.writes());
                assertEquals(1, zotero.writes().stream().filter(l -> l.startsWith("POST ") && l.endsWith(" 200")).count(),
                        "one create (the upload), none after: " + zotero.writes());
                DigitalEntity de = survivor.store().load(id).orElseThrow();
                Replica r = de.replicas().getFirst();
                assertEquals(zotero.data(key).path("version").asText(), r.remoteVersion(), "the replica knows the version the tool holds");
                assertEquals("Crash consistency, pushed once", r.synced().title());
                assertEquals("Crash consistency, pushed once", de.metadata().title(), "the change is not lost");
            }
        }
    }
}
