package dev.idiom.services;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * tomcat-conf/deploy end to end (an integration test: it needs the packaged idiom.war): installs the
 * Tomcat 11 distribution from Maven Central, applies tomcat-conf/, deploys the WAR on the
 * embedded-default database, and both endpoints answer over real HTTP; then --stop stops it.
 */
class StandaloneTomcatIT {
    private static final String ADMIN = "it-admin-token-4b1d-0123456789abcdef";
    private final HttpClient http = HttpClient.newHttpClient();

    @Test
    void deployInstallsTomcatAppliesTheConfigurationAndServesBothEndpoints() throws Exception {
        int port;
        try (ServerSocket free = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            port = free.getLocalPort();
        }
        Path dir = Path.of("target", "standalone-tomcat").toAbsolutePath();
        String base = "http://127.0.0.1:" + port;
        try {
            assertEquals(0, deploy("--port", Integer.toString(port), "--dir", dir.toString()), "deploy started Tomcat");

            HttpResponse<String> ping = send(HttpRequest.newBuilder(URI.create(base + "/api/ping")).GET(), false);
            assertEquals(204, ping.statusCode());
            assertFalse(ping.headers().firstValue("Server").orElse("").contains("Tomcat"), "the container is not named");
            assertEquals(401, send(HttpRequest.newBuilder(URI.create(base + "/api/entities")).GET(), false).statusCode(), "keys are checked");

            HttpResponse<String> created = send(HttpRequest.newBuilder(URI.create(base + "/api/entities")).header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString("{\"metadata\":{\"title\":\"On a standalone Tomcat\"}}")), true);
            assertEquals(201, created.statusCode(), created.body());
            String id = RunningIdiom.json(created).get("id").asText();

            HttpResponse<String> soap = send(HttpRequest.newBuilder(URI.create(base + "/services/DigitalEntityService"))
                    .header("Content-Type", "text/xml; charset=UTF-8").header("SOAPAction", "\"\"")
                    .POST(HttpRequest.BodyPublishers.ofString(RunningIdiom.envelope("<de:moreInfo><de:id>" + id + "</de:id></de:moreInfo>"))), true);
            assertEquals(200, soap.statusCode(), soap.body());
            assertTrue(soap.body().contains("On a standalone Tomcat"), soap.body());
            HttpResponse<String> wsdl = send(HttpRequest.newBuilder(URI.create(base + "/services/DigitalEntityService?wsdl")).GET(), false);
            assertEquals(200, wsdl.statusCode());
            assertTrue(wsdl.body().contains("definitions"), "the WSDL is served anonymously");
        } finally {
            assertEquals(0, deploy("--stop", "--dir", dir.toString()), "deploy --stop");
        }
        try (Socket s = new Socket("127.0.0.1", port)) {
            throw new AssertionError("Tomcat still listens on " + port + " after --stop");
        } catch (IOException stopped) {
            // expected: nothing listens any more
        }
    }

    private HttpResponse<String> send(HttpRequest.Builder b, boolean admin) throws IOException, InterruptedException {
        if (admin) {
            b.header("Authorization", "Bearer " + ADMIN);
        }
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    }

    private static int deploy(String... args) throws IOException, InterruptedException {
        List<String> command = new java.util.ArrayList<>(List.of("bash", Path.of("..", "tomcat-conf", "deploy").toString()));
        command.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(command).inheritIO();
        pb.environment().put("IDIOM_ADMIN_TOKEN", ADMIN);
        pb.environment().put("IDIOM_SECRET_KEY", RunningIdiom.SECRET_KEY);
        Process p = pb.start();
        if (!p.waitFor(5, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            throw new AssertionError("deploy " + String.join(" ", args) + " took over 5 minutes");
        }
        return p.exitValue();
    }
}
