package dev.idiom.perf.saturation;

import dev.idiom.perf.ApiKey;
import dev.idiom.perf.GrowthProbe;
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
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The Idiom a run loads: one already running ({@code --target}), or one this run seeds and starts —
 * on the embedded launcher ({@code ./idiom serve}) or on a standalone Tomcat ({@code tomcat-conf/deploy}) —
 * with the baselines mounted, and stops at the end.
 */
final class Target implements AutoCloseable {
    private static final Pattern SEARCH_FEED = Pattern.compile("\"searchFeed\":\\{\"healthy\":(?:true|false),\"message\":\"([^\"]*)\"");
    private static final Pattern SERVED = Pattern.compile("\"served\":(\\d+),\"servedMicros\":(\\d+),\"databaseMicros\":(\\d+)");

    final String url;
    final String how;
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(5)).build();
    private Process server;
    private List<String> stop;
    private Path root;

    private Target(String url, String how) {
        this.url = url.replaceAll("/+$", "");
        this.how = how;
    }

    static Target running(String url) {
        return new Target(url, "running server at " + url);
    }

    /** Seeds {@code data} once with {@code entities} DEs (kept for later runs), then starts Idiom on it. */
    static Target start(Path root, String deploy, Path data, long entities, Consumer<String> progress) throws IOException, InterruptedException {
        if (!Files.exists(data.resolve("seeded"))) {
            progress.accept("seeding " + String.format("%,d", entities) + " DEs into " + root.relativize(data) + " (once; later runs reuse it)");
            deleteTree(data);
            Files.createDirectories(data);
            exec(root, data.resolve("seed.log"), List.of("./idiom", "seed", "--entities", Long.toString(entities), "--events-per-entity", "1",
                    "--data", data.toString()), Duration.ofHours(2));
            Files.writeString(data.resolve("seeded"), entities + "\n");
        }
        int port = freePort();
        String secretKey = secretKey(data);
        Target t;
        if (deploy.equals("tomcat")) {
            Path dir = root.resolve("perf/target/standalone");
            t = new Target("http://127.0.0.1:" + port, "standalone Tomcat (tomcat-conf/deploy) on the embedded-default database, " + entities + " DEs seeded");
            progress.accept("deploying Idiom on a standalone Tomcat at " + t.url);
            ProcessBuilder pb = new ProcessBuilder("tomcat-conf/deploy", "--port", Integer.toString(port), "--dir", dir.toString(), "--data", data.toString())
                    .directory(root.toFile()).redirectErrorStream(true).redirectOutput(data.resolve("deploy.log").toFile());
            pb.environment().put("IDIOM_BASELINE", "true");
            pb.environment().put("IDIOM_SECRET_KEY", secretKey);
            pb.environment().put("IDIOM_LOCAL_TOOL_HOSTS", "true"); // the download and upload plans register a local Zotero stub
            t.root = root;
            t.stop = List.of("tomcat-conf/deploy", "--stop", "--dir", dir.toString());
            Process p = pb.start();
            if (!p.waitFor(10, TimeUnit.MINUTES) || p.exitValue() != 0) {
                throw new IOException("tomcat-conf/deploy failed; see " + data.resolve("deploy.log") + ":\n" + tail(data.resolve("deploy.log")));
            }
        } else {
            t = new Target("http://127.0.0.1:" + port, "embedded Tomcat (./idiom serve) on the embedded-default database, " + entities + " DEs seeded");
            progress.accept("starting Idiom (./idiom serve --baseline true) at " + t.url);
            ProcessBuilder pb = new ProcessBuilder("./idiom", "serve", "--port", Integer.toString(port), "--data", data.toString(), "--baseline", "true")
                    .directory(root.toFile()).redirectErrorStream(true).redirectOutput(data.resolve("serve.log").toFile());
            pb.environment().put("IDIOM_SECRET_KEY", secretKey);
            pb.environment().put("IDIOM_LOCAL_TOOL_HOSTS", "true"); // the download and upload plans register a local Zotero stub
            t.server = pb.start();
        }
        try {
            awaitStarted(t, data);
            ApiKey.use(Files.readString(data.resolve("admin.key")).strip());
            return t;
        } catch (IOException | InterruptedException | RuntimeException e) {
            t.close(); // a server that failed to become usable is not left running on the data folder
            throw e;
        }
    }

    private static void awaitStarted(Target t, Path data) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
        while (!t.pings()) {
            if (t.server != null && !t.server.isAlive()) {
                throw new IOException("Idiom exited during start; the end of " + data.resolve("serve.log") + ":\n" + tail(data.resolve("serve.log")));
            }
            if (System.nanoTime() > deadline) {
                throw new IOException("Idiom did not answer " + t.url + "/api/ping within 5 minutes");
            }
            Thread.sleep(500);
        }
    }

    /**
     * The key that seals the tool secrets of this data folder (the download and upload plans store
     * one): made once and kept beside the data, since a server refuses to start on secrets it cannot open.
     */
    private static String secretKey(Path data) throws IOException {
        Path file = data.resolve("perf-secret.key");
        if (!Files.exists(file)) {
            byte[] key = new byte[32];
            new java.security.SecureRandom().nextBytes(key);
            Files.writeString(file, java.util.Base64.getEncoder().encodeToString(key) + "\n");
        }
        return Files.readString(file).strip();
    }

    /**
     * Waits (at most two minutes) until the node's search index has caught up with the store, as
     * {@code /admin/health} reports it: preparing rows through the API leaves indexing behind, which
     * would otherwise run inside the next timed window.
     */
    void awaitSettled(Consumer<String> progress) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
        boolean said = false;
        while (true) {
            HttpResponse<String> r = GrowthProbe.get(http, url + "/admin/health");
            Matcher m = SEARCH_FEED.matcher(r.body());
            if (!m.find() || m.group(1).startsWith("up to date")) {
                return; // caught up, or a server that does not say: nothing to wait for
            }
            if (System.nanoTime() > deadline) {
                progress.accept("  the search index is still behind after 2 minutes (" + m.group(1) + "); measuring anyway");
                return;
            }
            if (!said) {
                progress.accept("  waiting for the search index to catch up (" + m.group(1) + ")");
                said = true;
            }
            Thread.sleep(250);
        }
    }

    boolean pings() {
        try {
            return http.send(HttpRequest.newBuilder(URI.create(url + "/api/ping")).timeout(Duration.ofSeconds(5)).build(),
                    HttpResponse.BodyHandlers.discarding()).statusCode() == 204;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** Whether the bare servlet and Axis2 echo are mounted (Idiom started with {@code --baseline true}). */
    boolean hasBaselines() throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(URI.create(url + "/baseline/servlet")).build(), HttpResponse.BodyHandlers.discarding()).statusCode() == 204;
    }

    /** Idiom's own count of requests served, time inside Idiom and time on the database (µs), from /admin/metrics. */
    record ServerTime(long served, long servedMicros, long databaseMicros) {
        ServerTime minus(ServerTime before) {
            return new ServerTime(served - before.served, servedMicros - before.servedMicros, databaseMicros - before.databaseMicros);
        }
    }

    ServerTime serverTime() {
        try {
            HttpResponse<String> r = GrowthProbe.get(http, url + "/admin/metrics");
            Matcher m = SERVED.matcher(r.body());
            return r.statusCode() == 200 && m.find() ? new ServerTime(Long.parseLong(m.group(1)), Long.parseLong(m.group(2)), Long.parseLong(m.group(3))) : null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        } catch (Exception e) {
            return null; // no figures from the server: the report leaves the breakdown empty
        }
    }

    HttpClient http() {
        return http;
    }

    @Override
    public void close() {
        try {
            if (server != null && server.isAlive()) {
                server.destroy(); // SIGTERM: Idiom drains and stops its database
                if (!server.waitFor(60, TimeUnit.SECONDS)) {
                    server.destroyForcibly();
                }
            }
            if (stop != null) {
                new ProcessBuilder(stop).directory(root.toFile()).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                        .start().waitFor(90, TimeUnit.SECONDS);
                stop = null;
            }
        } catch (IOException | InterruptedException e) {
            System.err.println("perf: could not stop the server cleanly: " + e.getMessage());
        }
    }

    private static void exec(Path root, Path log, List<String> command, Duration limit) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).directory(root.toFile()).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        if (!p.waitFor(limit.toMinutes(), TimeUnit.MINUTES) || p.exitValue() != 0) {
            p.destroyForcibly();
            throw new IOException(String.join(" ", command) + " failed; the end of " + log + ":\n" + tail(log));
        }
    }

    static String tail(Path log) {
        try {
            List<String> lines = Files.readAllLines(log);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 15), lines.size()));
        } catch (IOException e) {
            return "(no log)";
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    private static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        List<Path> all = new ArrayList<>();
        try (var walk = Files.walk(dir)) {
            walk.forEach(all::add);
        }
        for (int i = all.size() - 1; i >= 0; i--) {
            Files.delete(all.get(i));
        }
    }
}
