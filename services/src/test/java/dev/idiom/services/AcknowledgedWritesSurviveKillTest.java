package dev.idiom.services;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.idiom.events.DigitalEntity;
import dev.idiom.events.RebuildReport;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Nothing acknowledged is lost: the service runs as its own process on the embedded MariaDB,
 * concurrent writers create and update DEs over REST, then the service and its database are killed
 * with SIGKILL mid-load. Restarted on the same data directory, every acknowledged write is there,
 * no DE holds more than the one write that was in flight when the kill came, and every projection
 * equals the fold of its events.
 */
@Tag("slow") // kills and restarts a whole service process: left out of ./mvnw -Pquick verify, run by ./mvnw verify
class AcknowledgedWritesSurviveKillTest {
    private static final int WRITERS = 16;

    @TempDir
    Path dir;

    /** One acknowledged write: the DE was at {@code version} with these notes. */
    private record Acked(UUID id, int version, String notes) {}

    @Test
    void everyAcknowledgedWriteSurvivesSigkillOfTheServiceAndItsDatabaseUnderConcurrentWriters() throws Exception {
        Path data = dir.resolve("data");
        int port = freePort();
        Process service = start(data, port);
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        String base = "http://127.0.0.1:" + port;
        try {
            awaitUp(http, base, service);
            // the first serve on a new data directory wrote an admin key, for its owner's eyes only
            Path keyFile = data.resolve("admin.key");
            assertEquals("rw-------", java.nio.file.attribute.PosixFilePermissions.toString(Files.getPosixFilePermissions(keyFile)));
            String key = Files.readString(keyFile).strip();
            ConcurrentLinkedQueue<Acked> acked = new ConcurrentLinkedQueue<>();
            AtomicBoolean stop = new AtomicBoolean();
            CountDownLatch done = new CountDownLatch(WRITERS);
            for (int w = 0; w < WRITERS; w++) {
                int writer = w;
                Thread.ofPlatform().start(() -> {
                    try {
                        write(http, base, key, writer, acked, stop);
                    } finally {
                        done.countDown();
                    }
                });
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (acked.size() < 2000 && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
            assertTrue(acked.size() >= 2000, "the writers got going: " + acked.size() + " acknowledged");

            // the crash: the database and the service, SIGKILL, while writes are in flight
            List<ProcessHandle> mariadb = service.toHandle().descendants()
                    .filter(h -> h.info().command().orElse("").contains("mariadbd")).toList();
            assertEquals(1, mariadb.size(), "the service runs its own embedded MariaDB");
            mariadb.forEach(ProcessHandle::destroyForcibly);
            service.destroyForcibly();
            service.waitFor(30, TimeUnit.SECONDS);
            stop.set(true);
            assertTrue(done.await(30, TimeUnit.SECONDS));
            System.out.printf("kill test: %d writes acknowledged before SIGKILL%n", acked.size());

            IdiomConfig config = IdiomConfig.from(Map.of("data", data.toString(), "port", "0", "cache.enabled", "false"), Map.of(), k -> null);
            try (Idiom restarted = Idiom.start(config)) {
                var store = restarted.store();
                Map<UUID, Integer> highest = new java.util.HashMap<>();
                for (Acked a : acked) {
                    DigitalEntity now = store.load(a.id()).orElseThrow(() -> new AssertionError("acknowledged DE lost: " + a));
                    assertTrue(now.version() >= a.version(), () -> "acknowledged version lost: " + a + ", found " + now.version());
                    assertEquals(a.notes(), store.asOfVersion(a.id(), a.version()).metadata().notes(), () -> "acknowledged value lost: " + a);
                    highest.merge(a.id(), a.version(), Math::max);
                }
                for (Map.Entry<UUID, Integer> h : highest.entrySet()) {
                    int stored = store.load(h.getKey()).orElseThrow().version();
                    assertTrue(stored <= h.getValue() + 1, "at most the one write in flight went in beyond the acknowledged: " + h + " vs " + stored);
                }
                RebuildReport report = store.verifyProjections();
                assertTrue(report.clean(), () -> "projections differ from their events: " + report.differing());
            }
        } finally {
            service.destroyForcibly();
        }
    }

    /** Creates a DE, then updates it until stopped, recording each acknowledged version. */
    private static void write(HttpClient http, String base, String key, int writer, ConcurrentLinkedQueue<Acked> acked, AtomicBoolean stop) {
        try {
            HttpResponse<String> created = http.send(HttpRequest.newBuilder(URI.create(base + "/api/entities")).header("Content-Type", "application/json")
                    .header("Authorization", "Bearer " + key)
                    .POST(HttpRequest.BodyPublishers.ofString("{\"metadata\":{\"title\":\"Crash test " + writer + "\",\"notes\":\"n0\"}}")).build(),
                    HttpResponse.BodyHandlers.ofString());
            if (created.statusCode() != 201) {
                return;
            }
            JsonNode de = RunningIdiom.json(created);
            UUID id = UUID.fromString(de.path("id").asText());
            int version = de.path("version").asInt();
            acked.add(new Acked(id, version, "n0"));
            for (int n = 1; !stop.get(); n++) {
                String notes = "w" + writer + "-" + n;
                HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(base + "/api/entities/" + id))
                        .header("Content-Type", "application/merge-patch+json").header("If-Match", "\"" + version + "\"")
                        .header("Authorization", "Bearer " + key)
                        .method("PATCH", HttpRequest.BodyPublishers.ofString("{\"metadata\":{\"notes\":\"" + notes + "\"}}")).build(),
                        HttpResponse.BodyHandlers.ofString());
                if (r.statusCode() != 200) {
                    return; // the server is going down
                }
                version = RunningIdiom.json(r).path("version").asInt();
                acked.add(new Acked(id, version, notes));
            }
        } catch (IOException | InterruptedException gone) {
            // the service was killed under this request: its outcome is unknown, and it was never acknowledged
        }
    }

    private static Process start(Path data, int port) throws IOException {
        String classpath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        Files.createDirectories(data);
        return new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp", classpath,
                "dev.idiom.services.IdiomMain", "serve", "--port", Integer.toString(port), "--data", data.toString())
                .redirectErrorStream(true).redirectOutput(data.resolve("service.log").toFile()).start();
    }

    private static void awaitUp(HttpClient http, String base, Process service) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        while (System.nanoTime() < deadline) {
            if (!service.isAlive()) {
                throw new AssertionError("the service exited with " + service.exitValue());
            }
            try {
                if (http.send(HttpRequest.newBuilder(URI.create(base + "/api/ping")).build(), HttpResponse.BodyHandlers.discarding()).statusCode() == 204) {
                    return;
                }
            } catch (IOException notYet) {
                Thread.sleep(200);
            }
        }
        throw new AssertionError("the service did not answer within 90 s");
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }
}
