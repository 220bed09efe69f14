package dev.idiom.services;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import dev.idiom.db.TestDatabase;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Behind a reverse proxy: the URLs Idiom writes (WSDL address, Location, OpenAPI servers) are the
 * ones clients reach it at, from a trusted proxy's forwarding headers or the public-url setting,
 * never from headers anyone could send; Host headers are parsed properly (IPv6, ports).
 */
class ReverseProxyTest {
    private static final Pattern ADDRESS = Pattern.compile("soap:address location=\"([^\"]+)\"");

    /** A proxy on its own port that terminates "TLS" for refs.example.org:8443 and forwards with the given headers. */
    private static HttpServer proxy(String target, Map<String, String> added) throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        HttpClient http = HttpClient.newHttpClient();
        server.createContext("/", exchange -> {
            try (exchange) {
                byte[] body = exchange.getRequestBody().readAllBytes();
                HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(target + exchange.getRequestURI()))
                        .method(exchange.getRequestMethod(), body.length == 0 ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofByteArray(body));
                for (String h : List.of("Content-Type", "SOAPAction", "Authorization")) {
                    String v = exchange.getRequestHeaders().getFirst(h);
                    if (v != null) {
                        b.header(h, v);
                    }
                }
                added.forEach(b::header);
                HttpResponse<byte[]> r = http.send(b.build(), HttpResponse.BodyHandlers.ofByteArray());
                r.headers().map().forEach((k, vs) -> {
                    if (!k.equalsIgnoreCase("content-length") && !k.equalsIgnoreCase("transfer-encoding") && !k.startsWith(":")) {
                        vs.forEach(v -> exchange.getResponseHeaders().add(k, v));
                    }
                });
                exchange.sendResponseHeaders(r.statusCode(), r.body().length == 0 ? -1 : r.body().length);
                exchange.getResponseBody().write(r.body());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        server.start();
        return server;
    }

    private static String address(String wsdl) {
        Matcher m = ADDRESS.matcher(wsdl);
        assertTrue(m.find(), wsdl);
        return m.group(1);
    }

    private static void assertPublicUrls(HttpClient http, String via, String expectedBase) throws Exception {
        String wsdl = http.send(HttpRequest.newBuilder(URI.create(via + "/services/DigitalEntityService?wsdl")).build(),
                HttpResponse.BodyHandlers.ofString()).body();
        assertEquals(expectedBase + "/services/DigitalEntityService", address(wsdl));
        HttpResponse<String> created = http.send(HttpRequest.newBuilder(URI.create(via + "/api/entities")).header("Content-Type", "application/json")
                .header("Authorization", "Bearer " + RunningIdiom.ADMIN_TOKEN).POST(HttpRequest.BodyPublishers.ofString("{\"metadata\":{\"title\":\"Behind a proxy\"}}")).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(201, created.statusCode(), created.body());
        String id = RunningIdiom.json(created).get("id").asText();
        assertEquals(expectedBase + "/api/entities/" + id, created.headers().firstValue("Location").orElseThrow());
        String openapi = http.send(HttpRequest.newBuilder(URI.create(via + "/api/openapi.json")).build(), HttpResponse.BodyHandlers.ofString()).body();
        assertEquals(expectedBase + "/api", RunningIdiom.JSON.readTree(openapi).path("servers").path(0).path("url").asText());
    }

    @Test
    void throughATrustedProxyTheUrlsAreThePublicOnes() throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        try (RunningIdiom idiom = new RunningIdiom(TestDatabase.freshUrl(), Map.of("trusted-proxies", "127.0.0.1"))) {
            HttpServer xf = proxy(idiom.server.url(), Map.of("X-Forwarded-Proto", "https", "X-Forwarded-Host", "refs.example.org",
                    "X-Forwarded-Port", "8443"));
            HttpServer rfc = proxy(idiom.server.url(), Map.of("Forwarded", "for=192.0.2.60;proto=https;host=\"refs.example.org\""));
            try {
                assertPublicUrls(http, "http://127.0.0.1:" + xf.getAddress().getPort(), "https://refs.example.org:8443");
                assertPublicUrls(http, "http://127.0.0.1:" + rfc.getAddress().getPort(), "https://refs.example.org");
            } finally {
                xf.stop(0);
                rfc.stop(0);
            }
        }
    }

    @Test
    void forwardingHeadersFromAnUntrustedClientAreIgnored() throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        try (RunningIdiom idiom = new RunningIdiom(Map.of())) {
            HttpServer forger = proxy(idiom.server.url(), Map.of("X-Forwarded-Proto", "https", "X-Forwarded-Host", "evil.example"));
            try {
                // the proxy's own requests carry Host 127.0.0.1:<idiom port>: that is what Idiom must use
                assertPublicUrls(http, "http://127.0.0.1:" + forger.getAddress().getPort(), idiom.server.url());
            } finally {
                forger.stop(0);
            }
        }
    }

    @Test
    void aConfiguredPublicUrlWinsWithItsPathPrefix() throws Exception {
        try (RunningIdiom idiom = new RunningIdiom(TestDatabase.freshUrl(), Map.of("public-url", "https://refs.example.org/idiom/"))) {
            assertPublicUrls(HttpClient.newHttpClient(), idiom.server.url(), "https://refs.example.org/idiom");
        }
    }

    @Test
    void anIpv6HostHeaderWithAPortIsKeptWhole() throws Exception {
        try (RunningIdiom idiom = new RunningIdiom(Map.of()); Socket s = new Socket("127.0.0.1", URI.create(idiom.server.url()).getPort())) {
            OutputStream out = s.getOutputStream();
            out.write("GET /services/DigitalEntityService?wsdl HTTP/1.1\r\nHost: [::1]:9999\r\nConnection: close\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = s.getInputStream();
            String response = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            assertEquals("http://[::1]:9999/services/DigitalEntityService", address(response));
        }
    }

    @Test
    void anInvalidPublicUrlStopsTheStartWithAClearMessage() {
        IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> new RunningIdiom(Map.of("public-url", "refs.example.org")));
        assertTrue(e.getMessage().contains("public-url must be an absolute http(s) URL"), e.getMessage());
        assertEquals(Set.of("10.0.0.1", "10.0.0.2"), dev.idiom.services.http.PublicUrl.proxies("10.0.0.1, 10.0.0.2"));
    }
}
