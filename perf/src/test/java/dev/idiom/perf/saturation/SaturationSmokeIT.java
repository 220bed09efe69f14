package dev.idiom.perf.saturation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * {@code ./idiom perf} end to end, as a user runs it: it seeds and starts Idiom with the baselines,
 * runs every operation of perf/plans/saturation.jmx through JMeter for a second or so per point,
 * and writes the report. The figures of a smoke run mean nothing; that the run, the plan and the
 * analysis hold together is what is checked. Also: a target that is down, and Ctrl-C.
 */
class SaturationSmokeIT {
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void aSmokeRunOfEveryOperationWritesACompleteReport() throws Exception {
        Path out = Path.of("target/smoke-report").toAbsolutePath();
        Run run = perf(List.of("--smoke", "--out", out.toString()), null);
        assertEquals(0, run.exit, "./idiom perf --smoke exits 0; it printed:\n" + run.output);
        JsonNode s = JSON.readTree(out.resolve("summary.json").toFile());
        assertTrue(s.path("complete").asBoolean(), "complete: " + s.path("incompleteReason"));
        assertEquals("soap-empty", s.path("baseline").asText());
        List<String> names = new ArrayList<>();
        for (JsonNode o : s.path("operations")) {
            String name = o.path("name").asText();
            names.add(name);
            assertTrue(o.path("problem").isNull(), name + ": " + o.path("problem"));
            assertEquals(3, o.path("closed").size(), name + " has a point per client count");
            for (JsonNode c : o.path("closed")) {
                assertTrue(c.path("figures").path("requests").asLong() > 0, name + " closed N=" + c.path("clients") + " sent requests");
                assertEquals(0, c.path("figures").path("errors").asLong(), name + " closed N=" + c.path("clients") + " had errors");
                // Idiom's own account of its time exists exactly for the operations that pass through Idiom
                assertEquals(name.startsWith("bare-"), c.path("serverMicros").isNull(), name + " server time " + c.path("serverMicros"));
            }
            // the smoke run's steps are 0.5, 1.0 and 1.5 of the closed peak, none above 8,000 msg/s: a fast operation has fewer
            List<Double> offered = SaturationRun.offeredRates(o.path("closedPeak").asDouble(), new double[] {0.5, 1.0, 1.5}, 8000);
            assertEquals(offered.size(), o.path("open").size(), name + " has a figure per open-model step offered " + offered);
            for (int i = 0; i < offered.size(); i++) {
                assertEquals(offered.get(i), o.path("open").get(i).path("offered").asDouble(), name + " step " + i);
            }
            for (JsonNode st : o.path("open")) {
                assertTrue(st.path("figures").path("requests").asLong() > 0, name + " open step at " + st.path("offered") + " sent requests");
            }
            assertTrue(o.path("saturation").has("msgPerSecond") && o.path("saturation").has("limitedBy"), name + " has a saturation verdict");
            assertTrue(o.path("closedPeak").asDouble() > 0);
            assertFalse(o.path("ratioToEmpty").isMissingNode());
        }
        assertEquals(Operation.names(), names.stream().sorted((a, b) -> Operation.named(a).ordinal() - Operation.named(b).ordinal()).toList(),
                "every operation of the plan ran");
        assertEquals(1.0, s.path("operations").get(0).path("peakRatioToEmpty").asDouble(), "the baseline runs first and is 1× itself");
        String html = Files.readString(out.resolve("report.html"));
        assertTrue(html.contains("Idiom saturation report") && html.contains("\"operations\""), "report.html embeds the summary");
        assertTrue(Files.size(out.resolve("chart.umd.js")) > 100_000, "Chart.js beside the report, for offline viewing");
        assertTrue(Files.exists(out.resolve("jmeter-dashboard/index.html")), "JMeter's own dashboard");
        try (var files = Files.walk(out)) {
            String key = Files.readString(ROOT.resolve("perf/target/growth-300-1/admin.key")).strip();
            for (Path f : files.filter(Files::isRegularFile).toList()) {
                assertFalse(Files.readString(f, StandardCharsets.ISO_8859_1).contains(key), "the admin key leaked into " + f);
            }
        }
    }

    @Test
    void aTargetThatIsDownGivesAClearMessageAndAnIncompleteReport() throws Exception {
        Path out = Path.of("target/down-report").toAbsolutePath();
        Run run = perf(List.of("--target", "http://127.0.0.1:9", "--key", "k", "--out", out.toString()), null);
        assertEquals(1, run.exit, run.output);
        assertTrue(run.output.contains("no Idiom answers http://127.0.0.1:9/api/ping"), run.output);
        JsonNode s = JSON.readTree(out.resolve("summary.json").toFile());
        assertFalse(s.path("complete").asBoolean());
        assertTrue(s.path("incompleteReason").asText().contains("no Idiom answers"));
        assertTrue(Files.readString(out.resolve("report.html")).contains("INCOMPLETE"));
    }

    @Test
    void ctrlCLeavesThePartialReportMarkedIncomplete() throws Exception {
        Path out = Path.of("target/interrupted-report").toAbsolutePath();
        Run run = perf(List.of("--smoke", "--ops", "soap-empty,rest-empty", "--duration", "3", "--out", out.toString()), "[ 2/");
        assertNotEquals(0, run.exit, run.output);
        assertTrue(run.output.contains("interrupted"), run.output);
        JsonNode s = JSON.readTree(out.resolve("summary.json").toFile());
        assertFalse(s.path("complete").asBoolean());
        assertTrue(s.path("incompleteReason").asText().startsWith("interrupted during "), s.path("incompleteReason").asText());
        assertNotNull(s.path("startedAt").asText(null));
        assertNull(s.path("operations").get(0), "nothing finished before the interruption, and nothing is made up");
    }

    private record Run(int exit, String output) {}

    /** Runs ./idiom perf from the repository root; with {@code interruptAt}, sends SIGINT once a line contains it. */
    private static Run perf(List<String> args, String interruptAt) throws IOException, InterruptedException {
        // Ctrl-C's SIGINT reaches the run only if it is not ignored: a job started in the background (CI, nohup, `&`) inherits
        // SIGINT ignored, and a JVM leaves an ignored SIGINT ignored. env restores the default, as a terminal would have it.
        List<String> cmd = new ArrayList<>(List.of("env", "--default-signal=INT", "./idiom", "perf"));
        cmd.addAll(args);
        Process p = new ProcessBuilder(cmd).directory(ROOT.toFile()).redirectErrorStream(true).start();
        StringBuilder output = new StringBuilder();
        boolean interrupted = false;
        try (BufferedReader in = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                output.append(line).append('\n');
                if (interruptAt != null && !interrupted && line.contains(interruptAt)) {
                    interrupted = true;
                    new ProcessBuilder("kill", "-INT", Long.toString(p.pid())).start().waitFor(); // what Ctrl-C sends
                }
            }
        }
        if (!p.waitFor(20, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            throw new AssertionError("./idiom perf did not finish in 20 minutes:\n" + output);
        }
        return new Run(p.exitValue(), output.toString());
    }
}
