package dev.idiom.services;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.idiom.db.TestDatabase;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.Map;

/**
 * A whole Idiom (embedded Tomcat, Axis2, Jersey, Ehcache) on a free port of 127.0.0.1, over a
 * fresh schema of the test MariaDB; and the HTTP calls the tests make to it.
 */
final class RunningIdiom implements AutoCloseable {
    static final ObjectMapper JSON = new ObjectMapper();
    final IdiomServer server;
    final HttpClient http = HttpClient.newHttpClient();

    RunningIdiom(Map<String, String> extra) {
        this(TestDatabase.freshUrl(), extra);
    }

    /** The secret-sealing key tests run with (IDIOM_SECRET_KEY). */
    static final String SECRET_KEY = java.util.Base64.getEncoder().encodeToString("0123456789abcdef0123456789abcdef".getBytes());

    /** The admin key tests present (IDIOM_ADMIN_TOKEN); {@link #send} adds it to a request that names no key of its own. */
    static final String ADMIN_TOKEN = "test-admin-token-9f1c-0123456789abcdef";

    RunningIdiom(String dbUrl, Map<String, String> extra) {
        this(dbUrl, extra, Map.of("IDIOM_SECRET_KEY", SECRET_KEY, "IDIOM_ADMIN_TOKEN", ADMIN_TOKEN));
    }

    RunningIdiom(String dbUrl, Map<String, String> extra, Map<String, String> env) {
        // the tests' tools are local stubs (and peers on this machine): local-tool-hosts
        Map<String, String> flags = new java.util.HashMap<>(Map.of("port", "0", "db-url", dbUrl, "local-tool-hosts", "true",
                "data", Path.of(System.getProperty("idiom.test.dataRoot", "target/test-data"), "services-e2e").toString()));
        flags.putAll(extra);
        server = IdiomServer.start(IdiomConfig.from(flags, env, k -> null));
    }

    String url(String path) {
        return server.url() + path;
    }

    /** Sends as the admin unless the request carries an Authorization header of its own. */
    HttpResponse<String> send(HttpRequest.Builder request) {
        HttpRequest r = request.build();
        return anonymous(r.headers().firstValue("Authorization").isPresent() ? request : request.header("Authorization", "Bearer " + ADMIN_TOKEN));
    }

    /** Sends the request as built: without a key unless it has one. */
    HttpResponse<String> anonymous(HttpRequest.Builder request) {
        try {
            return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    HttpResponse<String> get(String path, String... headers) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url(path))).GET();
        if (headers.length > 0) {
            b.headers(headers);
        }
        return send(b);
    }

    HttpResponse<String> post(String path, String contentType, String body, String... headers) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url(path))).header("Content-Type", contentType)
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (headers.length > 0) {
            b.headers(headers);
        }
        return send(b);
    }

    HttpResponse<String> put(String path, String body) {
        return send(HttpRequest.newBuilder(URI.create(url(path))).header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString(body)));
    }

    HttpResponse<String> delete(String path) {
        return send(HttpRequest.newBuilder(URI.create(url(path))).DELETE());
    }

    HttpResponse<String> patch(String path, String body, String... headers) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url(path))).header("Content-Type", "application/merge-patch+json")
                .method("PATCH", HttpRequest.BodyPublishers.ofString(body));
        if (headers.length > 0) {
            b.headers(headers);
        }
        return send(b);
    }

    /** Posts a SOAP 1.1 envelope whose body is {@code bodyXml} (elements in the de: namespace). */
    HttpResponse<String> soap(String bodyXml) {
        return post("/services/DigitalEntityService", "text/xml; charset=UTF-8", envelope(bodyXml), "SOAPAction", "\"\"");
    }

    static String envelope(String bodyXml) {
        return "<soapenv:Envelope xmlns:soapenv=\"http://schemas.xmlsoap.org/soap/envelope/\" xmlns:de=\"http://idiom.dev/de/1\">"
                + "<soapenv:Body>" + bodyXml + "</soapenv:Body></soapenv:Envelope>";
    }

    static JsonNode json(HttpResponse<String> response) {
        try {
            return JSON.readTree(response.body());
        } catch (IOException e) {
            throw new AssertionError("not JSON: " + response.body(), e);
        }
    }

    @Override
    public void close() {
        server.close();
    }
}
