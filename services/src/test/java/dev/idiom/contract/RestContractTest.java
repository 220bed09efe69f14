package dev.idiom.contract;

import static org.junit.jupiter.api.Assertions.assertEquals;
import org.junit.jupiter.api.io.TempDir;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.atlassian.oai.validator.OpenApiInteractionValidator;
import com.atlassian.oai.validator.model.Request;
import com.atlassian.oai.validator.model.SimpleRequest;
import com.atlassian.oai.validator.model.SimpleResponse;
import com.atlassian.oai.validator.report.ValidationReport;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.idiom.db.TestDatabase;
import dev.idiom.services.IdiomConfig;
import dev.idiom.services.IdiomServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * REST exactly as the OpenAPI document says: every exchange below (successes and the documented
 * errors) is checked, request and response, against the document the server itself serves.
 */
class RestContractTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static IdiomServer server;
    private static OpenApiInteractionValidator validator;
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final List<String> problems = new ArrayList<>();
    private static final String ADMIN = "contract-admin-key-0123456789abcdef";
    @TempDir
    static java.nio.file.Path files;

    @BeforeAll
    static void start() throws Exception {
        server = IdiomServer.start(IdiomConfig.from(Map.of("port", "0", "db-url", TestDatabase.freshUrl(), "files-dir", files.toString()),
                Map.of("IDIOM_ADMIN_TOKEN", ADMIN), k -> null));
        String spec = HTTP.send(HttpRequest.newBuilder(URI.create(server.url() + "/api/openapi.json")).build(), HttpResponse.BodyHandlers.ofString()).body();
        validator = OpenApiInteractionValidator.createForInlineApiSpecification(spec).build();
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    /** Sends a request the document allows; checks request and response against it. */
    private static HttpResponse<String> exchange(String method, String path, String contentType, String body, String... headers) throws Exception {
        return exchange(true, method, path, contentType, body, headers);
    }

    /** Sends a request the document forbids (to provoke a documented error); checks the response against it. */
    private static HttpResponse<String> refused(String method, String path, String contentType, String body, String... headers) throws Exception {
        return exchange(false, method, path, contentType, body, headers);
    }

    private static HttpResponse<String> exchange(boolean allowed, String method, String path, String contentType, String body, String... headers)
            throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(server.url() + path))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        SimpleRequest.Builder request = new SimpleRequest.Builder(Request.Method.valueOf(method), URI.create(server.url() + path).getPath());
        URI uri = URI.create(server.url() + path);
        if (uri.getQuery() != null) {
            for (String kv : uri.getQuery().split("&")) {
                String[] p = kv.split("=", 2);
                request.withQueryParam(p[0], p.length > 1 ? p[1] : "");
            }
        }
        if (contentType != null) {
            b.header("Content-Type", contentType);
            request.withContentType(contentType);
        }
        boolean keyed = false;
        for (int i = 0; i + 1 < headers.length; i += 2) {
            b.header(headers[i], headers[i + 1]);
            request.withHeader(headers[i], headers[i + 1]);
            keyed |= headers[i].equalsIgnoreCase("Authorization");
        }
        if (!keyed) {
            b.header("Authorization", "Bearer " + ADMIN);
            request.withHeader("Authorization", "Bearer " + ADMIN);
        }
        if (body != null) {
            request.withBody(body);
        }
        HttpResponse<String> r = HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
        SimpleResponse.Builder response = SimpleResponse.Builder.status(r.statusCode());
        r.headers().map().forEach((k, vs) -> vs.forEach(v -> response.withHeader(k, v)));
        if (!r.body().isEmpty()) {
            response.withBody(r.body());
        }
        ValidationReport report = allowed ? validator.validate(request.build(), response.build())
                : validator.validateResponse(URI.create(server.url() + path).getPath(), Request.Method.valueOf(method), response.build());
        if (report.hasErrors()) {
            problems.add(method + " " + path + " -> " + r.statusCode() + ": " + report.getMessages());
        }
        return r;
    }

    @Test
    void everyOperationAndItsDocumentedErrorsMatchTheDocument() throws Exception {
        problems.clear();
        assertEquals(204, exchange("GET", "/api/ping", null, null).statusCode());
        HttpResponse<String> created = exchange("POST", "/api/entities", "application/json",
                "{\"metadata\":{\"type\":\"article-journal\",\"title\":\"Contract\",\"year\":2005,\"authors\":[{\"family\":\"Saito\",\"given\":\"Y\"}],\"tags\":[\"t\"]}}");
        assertEquals(201, created.statusCode(), created.body());
        JsonNode de = JSON.readTree(created.body());
        String id = de.get("id").asText();
        exchange("GET", "/api/entities/" + id, null, null);
        exchange("GET", "/api/entities/" + id + "?source=db", null, null);
        exchange("GET", "/api/entities/" + id + "?version=1", null, null);
        exchange("GET", "/api/entities/" + id, null, null, "If-None-Match", "\"1\"");
        exchange("PATCH", "/api/entities/" + id, "application/merge-patch+json", "{\"metadata\":{\"venue\":\"CSUR\",\"notes\":null}}", "If-Match", "\"1\"");
        exchange("GET", "/api/entities/" + id + "/events", null, null);
        exchange("GET", "/api/entities/" + id + "/provenance", null, null);
        exchange("GET", "/api/entities/" + id + "/replicas", null, null);
        exchange("GET", "/api/entities?tag=t&limit=5", null, null);
        exchange("GET", "/api/changes?after=0&limit=10", null, null);
        java.nio.file.Path bib = java.nio.file.Files.createTempFile(files, "idiom-contract", ".bib");
        java.nio.file.Files.writeString(bib, "@article{k1,\n  title = {From a file},\n  author = {Chen, W.},\n  year = {2010}\n}\n");
        exchange("PUT", "/api/tools/refs", "application/json", "{\"kind\":\"bibtex\",\"baseUrl\":\"" + bib.getFileName() + "\"}");
        exchange("GET", "/api/tools", null, null);
        exchange("POST", "/api/imports", "application/json", "{\"tool\":\"refs\",\"fromStart\":true}");
        exchange("POST", "/api/imports", "application/json", "{\"tool\":\"refs\",\"remoteId\":\"k1\"}");
        exchange("POST", "/api/entities/" + id + "/replicas", "application/json", "{\"tool\":\"refs\"}");
        // the documented errors
        assertEquals(412, exchange("PATCH", "/api/entities/" + id, "application/merge-patch+json", "{\"metadata\":{\"venue\":\"x\"}}", "If-Match", "\"1\"").statusCode());
        assertEquals(428, refused("PATCH", "/api/entities/" + id, "application/merge-patch+json", "{\"metadata\":{\"venue\":\"x\"}}").statusCode());
        assertEquals(404, exchange("GET", "/api/entities/0195f1e2-0000-7000-8000-000000000000", null, null).statusCode());
        assertEquals(400, refused("POST", "/api/entities", "application/json", "{\"metadata\":{\"year\":\"soon\"}}").statusCode());
        assertEquals(404, exchange("GET", "/api/entities/0195f1e2-0000-7000-8000-000000000000/events", null, null).statusCode());
        assertTrue(problems.isEmpty(), () -> "exchanges that disagree with the OpenAPI document:\n" + String.join("\n", problems));
    }
}
