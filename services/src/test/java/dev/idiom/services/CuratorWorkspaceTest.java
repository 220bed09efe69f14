package dev.idiom.services;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.idiom.db.TestDatabase;
import java.net.URI;
import java.net.URLDecoder;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The curator's workspace over real HTTP, as a browser uses it: a curator logs in with a key (an
 * HttpOnly cookie scoped to /curator, no key in the page), sees each account and one inbox of what
 * waits for a person, and settles it there — a conflict resolved by taking the file's value, a likely
 * pair marked "not duplicates" — through forms that carry the session's CSRF token.
 */
class CuratorWorkspaceTest {
    @TempDir
    Path dir;

    private static final Pattern CSRF = Pattern.compile("name=\"csrf\" value=\"([^\"]+)\"");

    private static String key(RunningIdiom idiom, String name, String role) {
        HttpResponse<String> r = idiom.post("/api/keys", "application/json", "{\"name\":\"" + name + "\",\"role\":\"" + role + "\"}");
        assertEquals(201, r.statusCode(), r.body());
        return RunningIdiom.json(r).get("key").asText();
    }

    private static HttpResponse<String> browser(RunningIdiom idiom, String cookie, String path, String form) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(idiom.url(path))).header("Accept", "text/html");
        if (cookie != null) {
            b.header("Cookie", cookie);
        }
        if (form != null) {
            b.header("Content-Type", "application/x-www-form-urlencoded").POST(HttpRequest.BodyPublishers.ofString(form));
        }
        return idiom.anonymous(b);
    }

    private static String enc(String s) {
        return java.net.URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    @Test
    void aCuratorSettlesWhatWaitsForAPersonFromTheWorkspace() throws Exception {
        Path bib = Files.writeString(dir.resolve("gossip.bib"), """
                @article{demers87,
                  title = {Epidemic algorithms},
                  author = {Demers, Alan},
                  year = {1987},
                  doi = {10.1145/41840.41841},
                }

                @article{demers87erratum,
                  title = {Erratum: Epidemic algorithms},
                  author = {Demers, Alan},
                  year = {1988},
                  doi = {10.1145/41840.41841},
                }
                """);
        try (RunningIdiom idiom = new RunningIdiom(TestDatabase.freshUrl(), Map.of("files-dir", dir.toString(), "sync-interval-ms", "0",
                "pull-interval-ms", "0"))) {
            assertEquals(200, idiom.put("/api/tools/gossip", "{\"kind\":\"bibtex\",\"baseUrl\":\"" + bib + "\",\"conflictPolicy\":\"ask\"}").statusCode());
            assertEquals(200, idiom.post("/api/tools/gossip/sync", "application/json", "").statusCode());
            String curator = key(idiom, "cura", "curator");
            String reader = key(idiom, "portal", "reader");

            // no session: to the login form; a reader's key does not open the workspace
            HttpResponse<String> anonymous = browser(idiom, null, "/curator", null);
            assertEquals(303, anonymous.statusCode());
            assertTrue(anonymous.headers().firstValue("Location").orElse("").endsWith("/curator/login"));
            assertEquals(403, browser(idiom, null, "/curator/login", "key=" + enc(reader)).statusCode());
            HttpResponse<String> login = browser(idiom, null, "/curator/login", "key=" + enc(curator));
            assertEquals(303, login.statusCode(), login.body());
            String setCookie = login.headers().firstValue("Set-Cookie").orElseThrow();
            assertTrue(setCookie.contains("Path=/curator") && setCookie.contains("HttpOnly") && setCookie.contains("SameSite=Strict"), setCookie);
            String cookie = setCookie.substring(0, setCookie.indexOf(';'));
            assertEquals(401, idiom.anonymous(HttpRequest.newBuilder(URI.create(idiom.url("/api/entities"))).header("Cookie", cookie)).statusCode(),
                    "the workspace's cookie is no key to the API");

            // a title edited in Idiom and in the file: under "ask" it waits for the curator
            JsonNode de = null;
            for (JsonNode e : RunningIdiom.json(idiom.get("/api/entities?limit=10")).get("entities")) {
                if (e.get("metadata").get("title").asText().equals("Epidemic algorithms")) {
                    de = e;
                }
            }
            assertEquals(200, idiom.patch("/api/entities/" + de.get("id").asText(), "{\"metadata\":{\"title\":\"Epidemic algorithms for replicated databases\"}}",
                    "If-Match", "\"" + de.get("version").asInt() + "\"").statusCode());
            Files.writeString(bib, Files.readString(bib).replace("{Epidemic algorithms}", "{Epidemic algorithms (PODC)}"));
            assertEquals(200, idiom.post("/api/tools/gossip/sync", "application/json", "").statusCode());

            HttpResponse<String> page = browser(idiom, cookie, "/curator", null);
            assertEquals(200, page.statusCode(), page.body());
            assertTrue(page.headers().firstValue("Content-Security-Policy").orElse("").contains("script-src 'self'"));
            assertFalse(Pattern.compile("<script(?![^>]*\\bsrc=\"[^\"]*/admin/assets/)").matcher(page.body()).find(), "no inline script: only the served files");
            assertFalse(page.body().contains(curator), "the key is nowhere in the page");
            assertTrue(page.body().contains("<title>(2) Needs you — Idiom</title>"), "one conflict and one likely pair: " + page.body());
            assertTrue(page.body().contains("gossip") && page.body().contains("Epidemic algorithms (PODC)")
                    && page.body().contains("Epidemic algorithms for replicated databases"), "the conflict with both values");
            assertTrue(page.body().contains("doi: 10.1145/41840.41841"), "the pair with its evidence");
            Matcher m = CSRF.matcher(page.body());
            assertTrue(m.find());
            String csrf = m.group(1);
            Matcher conflict = Pattern.compile("/curator/actions/conflicts/([0-9a-f-]{36})/tool").matcher(page.body());
            assertTrue(conflict.find());

            // without the page's token an action is refused; with it, the file's value is taken and written back
            assertEquals(403, browser(idiom, cookie, "/curator/actions/conflicts/" + conflict.group(1) + "/tool", "").statusCode());
            HttpResponse<String> taken = browser(idiom, cookie, "/curator/actions/conflicts/" + conflict.group(1) + "/tool", "csrf=" + enc(csrf));
            assertEquals(303, taken.statusCode(), taken.body());
            String done = URLDecoder.decode(taken.headers().firstValue("Location").orElseThrow().replaceAll(".*done=", ""), StandardCharsets.UTF_8);
            assertTrue(done.startsWith("Resolved"), done);
            assertEquals("Epidemic algorithms (PODC)", RunningIdiom.json(idiom.get("/api/entities/" + de.get("id").asText())).get("metadata")
                    .get("title").asText());

            // the likely pair: not duplicates
            Matcher pair = Pattern.compile("/curator/actions/duplicates/([0-9a-f-]{36})/dismiss\"><input type=\"hidden\" name=\"csrf\" value=\"[^\"]+\">"
                    + "<input type=\"hidden\" name=\"other\" value=\"([0-9a-f-]{36})\"").matcher(browser(idiom, cookie, "/curator", null).body());
            assertTrue(pair.find());
            HttpResponse<String> dismissed = browser(idiom, cookie, "/curator/actions/duplicates/" + pair.group(1) + "/dismiss",
                    "csrf=" + enc(csrf) + "&other=" + pair.group(2));
            assertEquals(303, dismissed.statusCode());
            String after = browser(idiom, cookie, "/curator", null).body();
            assertTrue(after.contains("<title>All in step — Idiom</title>"), after);

            // sync now, with its result said
            HttpResponse<String> synced = browser(idiom, cookie, "/curator/actions/accounts/gossip/sync", "csrf=" + enc(csrf));
            String said = URLDecoder.decode(synced.headers().firstValue("Location").orElseThrow().replaceAll(".*done=", ""), StandardCharsets.UTF_8);
            assertTrue(said.startsWith("Synced gossip"), said);
            assertTrue(Files.readString(bib).contains("{Epidemic algorithms (PODC)}"));

            assertEquals(303, browser(idiom, cookie, "/curator/logout", "csrf=" + enc(csrf)).statusCode());
            assertEquals(303, browser(idiom, cookie, "/curator", null).statusCode(), "logged out: to the login form again");
        }
    }
}
