package dev.idiom.perf.saturation;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A saturation report: {@code summary.json} (every figure), {@code report.html} (charts, drawn
 * by Chart.js copied beside it) and JMeter's dashboard. Written after every operation, so an
 * interrupted or failed run leaves what it measured, marked incomplete with the reason.
 */
final class Report {
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    private static final String CHART_JS = "/META-INF/resources/webjars/chart.js/4.4.1/dist/chart.umd.js";

    /** One closed-model point: N clients with think time (and bytes added to each request), and where the server's time went. */
    record ClosedPoint(int clients, long thinkMillis, int payloadBytes, Figures figures, Double serverMicros, Double databaseMicros) {}

    /** What one operation did in this run. */
    record OperationResult(String name, String description, List<ClosedPoint> closed, Usl usl, Double uslPeakClients, double closedPeak,
                           double unloadedP99, Figures unloaded, List<Saturation.Step> open, Saturation saturation, Double ratioToEmpty,
                           Double peakRatioToEmpty, String problem) {}

    /** The whole run, as summary.json holds it. */
    record Summary(String tool, boolean complete, String incompleteReason, String startedAt, String finishedAt, String target,
                   Map<String, Object> settings, String rule, String baseline, Map<String, Object> machine, List<OperationResult> operations) {}

    private final Path dir;
    private final Instant startedAt = Instant.now();
    private final String target;
    private final Map<String, Object> settings;
    private final List<OperationResult> operations = new ArrayList<>();
    private volatile String incomplete = "the run is under way";
    private volatile boolean complete;

    Report(Path dir, String target, Map<String, Object> settings) {
        this.dir = dir;
        this.target = target;
        this.settings = settings;
    }

    Path dir() {
        return dir;
    }

    synchronized void add(OperationResult r) {
        operations.add(r);
    }

    synchronized List<OperationResult> operations() {
        return List.copyOf(operations);
    }

    /** A line for the settings: where things are, what the figures include. */
    synchronized void note(String line) {
        lines("notes", line);
    }

    /** Something a reader of the figures must know (e.g. a run that ran short of fresh rows). */
    synchronized void warn(String line) {
        lines("warnings", line);
    }

    @SuppressWarnings("unchecked")
    private void lines(String key, String line) {
        ((List<String>) settings.computeIfAbsent(key, k -> new ArrayList<String>())).add(line);
    }

    void incomplete(String reason) {
        complete = false;
        incomplete = reason;
    }

    void complete() {
        complete = true;
        incomplete = null;
    }

    synchronized Summary summary() {
        Map<String, Object> machine = Map.of("cores", Runtime.getRuntime().availableProcessors(), "java", Runtime.version().toString(),
                "os", System.getProperty("os.name") + " " + System.getProperty("os.version"),
                "note", "JMeter runs on the same machine as Idiom: both share its cores");
        return new Summary("./idiom perf", complete, complete ? null : incomplete, startedAt.toString(), Instant.now().toString(), target, settings, Saturation.RULE,
                Operation.BASELINE.sampler, machine, List.copyOf(operations));
    }

    /** Writes summary.json and report.html as they stand. */
    synchronized void write() throws IOException {
        Files.createDirectories(dir);
        Summary s = summary();
        String json = JSON.writeValueAsString(s);
        Files.writeString(dir.resolve("summary.json"), json);
        try (InputStream chart = Report.class.getResourceAsStream(CHART_JS)) {
            if (chart != null) {
                Files.copy(chart, dir.resolve("chart.umd.js"), StandardCopyOption.REPLACE_EXISTING);
            }
        }
        Files.writeString(dir.resolve("report.html"), ReportPage.html(s, json));
    }
}
