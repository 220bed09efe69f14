package dev.idiom.services;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A corpus of hostile requests over both protocols. Each must get a clean 4xx (or a SOAP fault),
 * carry no file content, secret or stack trace, and leave the event log as it was.
 */
class HostileInputTest {
    @TempDir
    static Path dir;
    private static RunningIdiom idiom;
    private static Path secretFile;
    private static String entity;
    private static final String SECRET = "TOP-SECRET-FILE-CONTENT-4711";

    @BeforeAll
    static void start() throws Exception {
        idiom = new RunningIdiom(Map.of("sync-interval-ms", "0"));
        secretFile = dir.resolve("secret.txt");
        Files.writeString(secretFile, SECRET);
        entity = RunningIdiom.json(idiom.post("/api/entities", "application/json", "{\"metadata\":{\"title\":\"Target\"}}")).get("id").asText();
    }

    @AfterAll
    static void stop() {
        idiom.close();
    }

    /** One hostile request and its name. */
    private record Attack(String name, HttpRequest.Builder request) {}

    private static Attack rest(String name, String method, String path, String contentType, String body) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(idiom.url(path)))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (contentType != null) {
            b.header("Content-Type", contentType);
        }
        if (method.equals("PATCH")) {
            b.header("If-Match", "\"1\"");
        }
        return new Attack(name, large(b, body));
    }

    private static Attack soap(String name, String envelope) {
        return new Attack("SOAP " + name, large(HttpRequest.newBuilder(URI.create(idiom.url("/services/DigitalEntityService")))
                .header("Content-Type", "text/xml; charset=UTF-8").header("SOAPAction", "\"\"").POST(HttpRequest.BodyPublishers.ofString(envelope)), envelope));
    }

    /**
     * A body over 1 MB goes the way curl sends one: asking {@code Expect: 100-continue} first. Otherwise
     * the server's 413, sent while the client still writes megabytes it will not read, races the
     * connection's close, and the client may see a broken pipe instead of the answer.
     */
    private static HttpRequest.Builder large(HttpRequest.Builder b, String body) {
        return body != null && body.length() > 1024 * 1024 ? b.expectContinue(true) : b;
    }

    private static String create(String title) {
        return "<de:createDE><de:entity><de:title>" + title + "</de:title></de:entity></de:createDE>";
    }

    private static List<Attack> corpus() {
        String file = secretFile.toUri().toString();
        String env = "<soapenv:Envelope xmlns:soapenv=\"http://schemas.xmlsoap.org/soap/envelope/\" xmlns:de=\"http://idiom.dev/de/1\"><soapenv:Body>";
        String end = "</soapenv:Body></soapenv:Envelope>";
        String laughs = "<!DOCTYPE l [<!ENTITY a \"lol\"><!ENTITY b \"&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;\"><!ENTITY c \"&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;\">"
                + "<!ENTITY d \"&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;\"><!ENTITY e \"&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;\">]>";
        String big = "x".repeat(50_000);
        List<Attack> all = new ArrayList<>(List.of(
                soap("XXE external file entity", "<?xml version=\"1.0\"?><!DOCTYPE e [<!ENTITY x SYSTEM \"" + file + "\">]>" + env + create("&x;") + end),
                soap("XXE parameter entity", "<?xml version=\"1.0\"?><!DOCTYPE e [<!ENTITY % p SYSTEM \"" + file + "\"> %p;]>" + env + create("t") + end),
                soap("billion laughs", "<?xml version=\"1.0\"?>" + laughs + env + create("&e;") + end),
                soap("quadratic blowup", "<?xml version=\"1.0\"?><!DOCTYPE q [<!ENTITY a \"" + big + "\">]>" + env + create("&a;&a;&a;&a;&a;&a;&a;&a;") + end),
                soap("XInclude", env + "<de:createDE xmlns:xi=\"http://www.w3.org/2001/XInclude\"><de:entity><de:title><xi:include href=\"" + file
                        + "\" parse=\"text\"/></de:title></de:entity></de:createDE>" + end),
                soap("10 MB body", env + create("y".repeat(10 * 1024 * 1024)) + end),
                soap("truncated envelope", env + "<de:createDE><de:entity><de:title>cut"),
                soap("wrong namespace", "<soapenv:Envelope xmlns:soapenv=\"http://schemas.xmlsoap.org/soap/envelope/\"><soapenv:Body>"
                        + "<createDE xmlns=\"urn:other\"><entity><title>t</title></entity></createDE>" + end),
                soap("not XML", "{\"metadata\":{}}"),
                soap("huge version", env + "<de:updateDE><de:id>" + entity + "</de:id><de:field>notes</de:field><de:value>n</de:value>"
                        + "<de:expectedVersion>99999999999999999999</de:expectedVersion></de:updateDE>" + end),
                soap("negative version", env + "<de:updateDE><de:id>" + entity + "</de:id><de:field>notes</de:field><de:value>n</de:value>"
                        + "<de:expectedVersion>-1</de:expectedVersion></de:updateDE>" + end),
                soap("unknown id", env + "<de:moreInfo><de:id>00000000-0000-0000-0000-000000000000</de:id></de:moreInfo>" + end),
                soap("control character", env + create("a&#1;b") + end),
                rest("10 MB JSON", "POST", "/api/entities", "application/json", "{\"metadata\":{\"title\":\"" + "z".repeat(10 * 1024 * 1024) + "\"}}"),
                rest("deep JSON", "POST", "/api/entities", "application/json", "[".repeat(100_000) + "]".repeat(100_000)),
                rest("deep JSON object", "POST", "/api/entities", "application/json",
                        "{\"metadata\":{\"title\":\"t\",\"x\":" + "{\"a\":".repeat(500) + "1" + "}".repeat(500) + "}}"),
                rest("malformed JSON", "POST", "/api/entities", "application/json", "{\"metadata\":{\"title\":"),
                rest("100,000 tags", "POST", "/api/entities", "application/json", "{\"metadata\":{\"title\":\"t\",\"tags\":["
                        + String.join(",", java.util.stream.IntStream.range(0, 100_000).mapToObj(i -> "\"t" + i + "\"").toList()) + "]}}"),
                rest("600 authors", "POST", "/api/entities", "application/json", "{\"metadata\":{\"title\":\"t\",\"authors\":["
                        + String.join(",", java.util.Collections.nCopies(600, "{\"family\":\"F\"}")) + "]}}"),
                rest("huge family name", "POST", "/api/entities", "application/json", "{\"metadata\":{\"title\":\"t\",\"authors\":[{\"family\":\"" + "f".repeat(5000) + "\"}]}}"),
                rest("XML to JSON endpoint", "POST", "/api/entities", "application/xml", "<!DOCTYPE x [<!ENTITY e SYSTEM \"" + file + "\">]><x>&e;</x>"),
                rest("huge version", "PATCH", "/api/entities/" + entity, "application/merge-patch+json", "{\"metadata\":{\"notes\":\"n\"}}"),
                rest("unknown id", "GET", "/api/entities/00000000-0000-0000-0000-000000000000", null, null),
                rest("SQL in path", "GET", "/api/entities/" + URLEncoder.encode("1' OR '1'='1", StandardCharsets.UTF_8), null, null),
                rest("SQL in tool name", "POST", "/api/tools/" + URLEncoder.encode("x'; DROP TABLE event; --", StandardCharsets.UTF_8) + "/sync", null, null),
                rest("non-ASCII tool name", "POST", "/api/tools/" + URLEncoder.encode("zötero", StandardCharsets.UTF_8) + "/sync", null, null),
                rest("non-ASCII key name", "DELETE", "/api/keys/" + URLEncoder.encode("ключ", StandardCharsets.UTF_8), null, null),
                rest("negative change position", "GET", "/api/changes?after=-1", null, null),
                rest("huge limit", "GET", "/api/entities?limit=99999999999", null, null),
                rest("bad cursor", "GET", "/api/entities?cursor=" + URLEncoder.encode("' OR 1=1 --", StandardCharsets.UTF_8), null, null)));
        // SQL metacharacters, non-ASCII and control characters in every string field
        for (String field : List.of("title", "venue", "volume", "pages", "doi", "url", "abstract", "notes")) {
            all.add(rest("control character in " + field, "PATCH", "/api/entities/" + entity, "application/merge-patch+json",
                    "{\"metadata\":{\"" + field + "\":\"a\\u0000b'; DROP TABLE event; --\"}}"));
        }
        all.add(rest("control character in a tag", "PATCH", "/api/entities/" + entity, "application/merge-patch+json", "{\"metadata\":{\"tags\":[\"a\\u0007\"]}}"));
        all.add(rest("unpaired surrogate", "PATCH", "/api/entities/" + entity, "application/merge-patch+json", "{\"metadata\":{\"title\":\"a\\ud800b\"}}"));
        return all;
    }

    @Test
    void everyHostileRequestGetsACleanRefusalLeaksNothingAndWritesNothing() {
        long head = head();
        List<String> wrong = new ArrayList<>();
        List<Long> micros = new ArrayList<>();
        java.util.Map<String, Long> slowest = new java.util.HashMap<>();
        // five rounds, so the p99 of the time to refuse is not just the slowest single request
        for (Attack a : java.util.Collections.nCopies(5, corpus()).stream().flatMap(List::stream).toList()) {
            HttpRequest.Builder b = a.request();
            if (a.name().equals("huge version")) {
                b.setHeader("If-Match", "\"99999999999999999999\"");
            }
            long t0 = System.nanoTime();
            HttpResponse<String> r = idiom.send(b);
            micros.add((System.nanoTime() - t0) / 1000);
            slowest.merge(a.name(), micros.getLast(), Math::max);
            boolean soap = a.name().startsWith("SOAP");
            boolean refused = soap ? r.statusCode() == 500 && r.body().contains("Fault") || r.statusCode() == 413 : r.statusCode() >= 400 && r.statusCode() < 500;
            if (!refused) {
                wrong.add(a.name() + ": not refused cleanly: " + r.statusCode() + " " + r.body().substring(0, Math.min(300, r.body().length())));
            }
            if (soap && r.statusCode() == 500 && (r.body().contains("<de:code>Internal</de:code>") || r.body().contains("<de:code>Unavailable</de:code>"))) {
                wrong.add(a.name() + ": reported as the service's failure, not the input's: " + r.body());
            }
            for (String leak : List.of(SECRET, RunningIdiom.ADMIN_TOKEN, RunningIdiom.SECRET_KEY, "Exception", "\tat ", "lollollol")) {
                if (r.body().contains(leak)) {
                    wrong.add(a.name() + ": the answer holds '" + leak + "'");
                }
            }
        }
        assertTrue(wrong.isEmpty(), String.join("\n", wrong));
        assertEquals(head, head(), "no hostile request changed the event log");
        long[] sorted = micros.stream().mapToLong(Long::longValue).sorted().toArray();
        String slowestAttack = slowest.entrySet().stream().max(java.util.Map.Entry.comparingByValue()).map(java.util.Map.Entry::getKey).orElseThrow();
        System.out.printf("hostile corpus: %d requests refused; time to refuse p50 %.1f ms, p99 %.1f ms, max %.1f ms (%s)%n", sorted.length,
                sorted[sorted.length / 2] / 1000.0, sorted[(int) Math.ceil(sorted.length * 0.99) - 1] / 1000.0, sorted[sorted.length - 1] / 1000.0,
                slowestAttack);
        assertTrue(sorted.length >= 200, "the whole corpus ran five times: " + sorted.length);
    }

    private static long head() {
        return RunningIdiom.json(idiom.get("/api/changes?after=0&limit=1")).path("head").asLong();
    }

    @Test
    void aRequestTomcatRefusesBeforeIdiomSeesItStillGetsAProblemDocument() {
        // a request line past Tomcat's header limit never reaches a servlet: the host's error valve answers
        var r = idiom.get("/api/entities?q=" + "x".repeat(20_000));
        assertTrue(r.statusCode() >= 400 && r.statusCode() < 500, "status " + r.statusCode());
        assertTrue(r.headers().firstValue("Content-Type").orElse("").startsWith("application/problem+json"), r.headers().toString());
        assertTrue(r.body().contains("\"status\":" + r.statusCode()) && !r.body().contains("Tomcat") && !r.body().contains("<html"), r.body());
    }
}
