package dev.idiom.services;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.idiom.db.TestDatabase;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A browsers' account's WebDAV folder against real WebDAV clients from Debian: litmus (the
 * compliance suite) and rclone (copying the bookmark file out and back in), each installed by
 * {@code src/test/debian/install-commands.sh} when missing.
 */
class WebDavClientsTest {
    @TempDir
    static Path dir;
    private static RunningIdiom idiom;
    private static List<String> clients;
    private static String password;

    @BeforeAll
    static void start() throws Exception {
        Process p = new ProcessBuilder("bash", "src/test/debian/install-commands.sh", "litmus=litmus", "rclone=rclone").redirectError(ProcessBuilder.Redirect.INHERIT).start();
        clients = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip().lines().toList();
        assertTrue(p.waitFor(10, TimeUnit.MINUTES), "installing litmus and rclone took over 10 minutes");
        assertEquals(0, p.exitValue(), "could not install litmus and rclone (see the messages above)");
        // an API body may be 64 KB here; a browser's whole bookmark file 300 KB
        idiom = new RunningIdiom(TestDatabase.freshUrl(), Map.of("files-dir", dir.toString(), "sync-interval-ms", "200", "max-body", "65536",
                "max-dav-body", "300000"));
        JsonNode a = RunningIdiom.json(idiom.put("/api/tools/webdav", "{\"kind\":\"xbel-dav\"}"));
        password = a.get("davPassword").asText();
    }

    @AfterAll
    static void stop() {
        if (idiom != null) {
            idiom.close();
        }
    }

    private static String run(Map<String, String> env, String... command) throws IOException, InterruptedException {
        ProcessBuilder b = new ProcessBuilder(command).redirectErrorStream(true).directory(dir.toFile());
        b.environment().putAll(env);
        Process p = b.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(5, TimeUnit.MINUTES), String.join(" ", command) + " took over 5 minutes");
        return out + "\nexit " + p.exitValue();
    }

    /** Each test's result as litmus printed it ("3. put_get ... pass"). */
    private static Map<String, String> results(String out) {
        Map<String, String> r = new HashMap<>();
        Matcher m = Pattern.compile("(?m)^\\s*\\d+\\.\\s+(\\w+)\\.*\\s+(pass|FAIL|SKIPPED|WARNING)").matcher(out);
        while (m.find()) {
            r.putIfAbsent(m.group(1), m.group(2));
        }
        return r;
    }

    /**
     * The suites for what Idiom serves pass whole: basic (OPTIONS, PUT, GET, DELETE, MKCOL), copymove
     * (COPY, MOVE, Overwrite, Depth), http (Expect: 100-continue), and the PROPFIND tests of props.
     * Out of scope: props' PROPPATCH tests (Idiom keeps no dead properties; floccus and rclone set
     * none: PROPPATCH answers 405) and locks (WebDAV LOCK is class 2; floccus locks with a lock file).
     */
    @Test
    void litmusPassesForEveryMethodServed() throws Exception {
        String out = run(Map.of("TESTS", "basic copymove http props"), clients.get(0), idiom.url("/dav/webdav/"), "floccus", password);
        for (String suite : new String[] {"basic': of 16 tests run: 16 passed, 0 failed", "copymove': of 13 tests run: 13 passed, 0 failed",
                "http': of 4 tests run: 4 passed, 0 failed"}) {
            assertTrue(out.contains("<- summary for `" + suite), "litmus: " + suite + "\n" + out);
        }
        Map<String, String> r = results(out);
        for (String propfind : new String[] {"propfind_invalid", "propfind_invalid2", "propfind_d0", "propwformed", "propextended"}) {
            assertEquals("pass", r.get(propfind), propfind + "\n" + out);
        }
        assertTrue(out.contains("PROPPATCH on `/dav/webdav/litmus/prop': 405"), "PROPPATCH is refused as not served\n" + out);
    }

    @Test
    void rcloneCopiesTheBookmarkFileOutAndBackIn() throws Exception {
        Map<String, String> env = new HashMap<>(Map.of("RCLONE_CONFIG_IDIOM_TYPE", "webdav", "RCLONE_CONFIG_IDIOM_URL", idiom.url("/dav/webdav/"),
                "RCLONE_CONFIG_IDIOM_VENDOR", "other", "RCLONE_CONFIG_IDIOM_USER", "rclone", "RCLONE_CONFIG", dir.resolve("rclone.conf").toString()));
        String obscured = run(Map.of(), clients.get(1), "obscure", password).lines().findFirst().orElseThrow().strip();
        env.put("RCLONE_CONFIG_IDIOM_PASS", obscured);
        Path in = Files.writeString(dir.resolve("in.xbel"), XBEL.formatted("A page"));
        String put = run(env, clients.get(1), "copyto", in.toString(), "idiom:bookmarks.xbel");
        assertTrue(put.endsWith("exit 0"), put);
        assertEquals("A page", title("https://example.org/rclone/a"), "the file written in is a pull: its bookmarks are DEs");

        String get = run(env, clients.get(1), "copyto", "idiom:bookmarks.xbel", dir.resolve("out.xbel").toString());
        assertTrue(get.endsWith("exit 0"), get);
        assertEquals(Files.readString(in), Files.readString(dir.resolve("out.xbel")), "out again byte for byte");
        String listed = run(env, clients.get(1), "lsjson", "idiom:");
        assertTrue(listed.contains("\"Path\":\"bookmarks.xbel\"") && listed.contains("\"Size\":" + Files.size(in)), listed);

        Files.writeString(in, XBEL.formatted("A page, renamed"));
        assertTrue(run(env, clients.get(1), "copyto", in.toString(), "idiom:bookmarks.xbel").endsWith("exit 0"));
        assertEquals("A page, renamed", title("https://example.org/rclone/a"));

        Path broken = Files.writeString(dir.resolve("broken.xbel"), "<?xml version=\"1.0\" encoding=\"UTF-8\"?><xbel><bookmark>");
        String refused = run(env, clients.get(1), "copyto", broken.toString(), "idiom:bookmarks.xbel");
        assertNotEquals("exit 0", refused.substring(refused.lastIndexOf("exit")), refused);
        assertTrue(refused.contains("422"), refused);
        assertEquals("A page, renamed", title("https://example.org/rclone/a"));
        assertTrue(Files.readString(dir.resolve(".dav/webdav/bookmarks.xbel")).contains("A page, renamed"), "nothing changed by the refusal");
    }

    private static final String XBEL = """
            <?xml version="1.0" encoding="UTF-8"?>
            <xbel version="1.0">
            <folder id="1">
              <title>Copied with rclone</title>
              <bookmark href="https://example.org/rclone/a" id="2">
                <title>%s</title>
              </bookmark>
            </folder>
            </xbel>
            """;

    private static String title(String url) {
        List<String> titles = new ArrayList<>();
        for (JsonNode de : RunningIdiom.json(idiom.get("/api/entities?limit=200")).get("entities")) {
            if (url.equals(de.path("metadata").path("url").asText())) {
                titles.add(de.get("metadata").get("title").asText());
            }
        }
        assertEquals(1, titles.size(), "one DE for " + url + ": " + titles);
        return titles.getFirst();
    }

    @Test
    void aBookmarkFileMayBeLargerThanAnApiBodyUpToItsOwnLimit() throws Exception {
        FloccusBrowser client = new FloccusBrowser("client", idiom.url("/dav/webdav/"), password, "bookmarks.xbel");
        StringBuilder big = new StringBuilder("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<xbel version=\"1.0\">\n");
        for (int i = 0; big.length() < 200_000; i++) {
            big.append("<bookmark href=\"https://example.org/many/").append(i).append("\" id=\"").append(i + 1).append("\">\n  <title>Bookmark ")
                    .append(i).append("</title>\n</bookmark>\n");
        }
        String file = big.append("</xbel>").toString();
        HttpResponse<String> taken = client.send("PUT", "big.xbel", "application/xml", file);
        assertEquals(201, taken.statusCode(), "over max-body (64 KB), under max-dav-body: " + taken.body());
        String tooBig = file + " ".repeat(150_000);
        HttpResponse<String> refused = client.send("PUT", "big.xbel", "application/xml", tooBig);
        assertEquals(413, refused.statusCode(), refused.body());
        assertTrue(refused.body().contains("max-dav-body"), refused.body());
        java.net.http.HttpRequest chunked = java.net.http.HttpRequest.newBuilder(java.net.URI.create(idiom.url("/dav/webdav/big.xbel")))
                .header("Authorization", "Basic " + java.util.Base64.getEncoder().encodeToString(("x:" + password).getBytes(StandardCharsets.UTF_8)))
                .PUT(java.net.http.HttpRequest.BodyPublishers.ofInputStream(() -> new java.io.ByteArrayInputStream(tooBig.getBytes(StandardCharsets.UTF_8))))
                .build();
        HttpResponse<String> cut = java.net.http.HttpClient.newHttpClient().send(chunked, HttpResponse.BodyHandlers.ofString());
        assertEquals(413, cut.statusCode(), "a chunked body cut off at the limit: " + cut.body());
        assertEquals(file, Files.readString(dir.resolve(".dav/webdav/big.xbel")), "nothing of either refusal was written");
    }
}
