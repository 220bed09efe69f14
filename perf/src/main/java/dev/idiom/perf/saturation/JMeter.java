package dev.idiom.perf.saturation;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * JMeter 5.6.3 as the jmeter-maven-plugin laid it out (perf/target/config.json names the folder),
 * run in non-GUI mode as its own process, one plan run at a time.
 */
final class JMeter {
    private static final Pattern DIR = Pattern.compile("\"jmeterDirectoryPath\":\"([^\"]+)\"");
    private static final Pattern JAR = Pattern.compile("\"runtimeJarName\":\"([^\"]+)\"");

    private final Path jar;
    private final String java;
    private volatile Process running;
    /** What {@link #run} answers when JMeter had to be stopped. */
    static final int TIMED_OUT = -2;

    private JMeter(Path jar) {
        this.jar = jar;
        this.java = ProcessHandle.current().info().command().orElse("java");
    }

    static JMeter locate(Path root) throws IOException {
        Path config = root.resolve("perf/target/config.json");
        if (!Files.exists(config)) {
            throw new IOException("JMeter is not set up (no " + config + "): run ./mvnw -pl perf com.lazerycode.jmeter:jmeter-maven-plugin:3.8.0:configure"
                    + " (./idiom perf does it)");
        }
        // one configuration per plugin execution (./idiom perf's, the build's): the newest one still on disk
        String json = Files.readString(config);
        Matcher dir = DIR.matcher(json);
        Matcher jar = JAR.matcher(json);
        Path path = null;
        while (dir.find() && jar.find()) {
            Path candidate = Path.of(dir.group(1), "bin", jar.group(1));
            if (Files.exists(candidate)) {
                path = candidate;
            }
        }
        if (path == null) {
            throw new IOException(config + " names no JMeter that exists; run ./mvnw -pl perf com.lazerycode.jmeter:jmeter-maven-plugin:3.8.0:configure");
        }
        return new JMeter(path);
    }

    /**
     * Runs {@code plan} with {@code props} (JMeter properties), samples to {@code results}; returns
     * JMeter's exit code. The CSV and JMeter's log land beside {@code results}.
     */
    int run(Path plan, Map<String, String> props, Path results, long timeoutSeconds) throws IOException, InterruptedException {
        Path propsFile = results.resolveSibling(results.getFileName() + ".properties");
        Properties p = new Properties();
        p.putAll(props);
        p.put("jmeter.save.saveservice.output_format", "csv");
        p.put("jmeterengine.force.system.exit", "true"); // otherwise the open model's housekeeping keeps JMeter alive a minute
        Files.deleteIfExists(propsFile);
        Files.createFile(propsFile, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------"))); // holds the key
        try (Writer w = Files.newBufferedWriter(propsFile, StandardCharsets.UTF_8)) {
            p.store(w, "JMeter properties of this run");
        }
        // the JDK's keep-alive pool, shared by every thread: the open model's thread per arrival reuses connections
        List<String> cmd = new ArrayList<>(List.of(java, "-Xms512m", "-Xmx2g", "-Dhttp.maxConnections=1000", "-jar", jar.toString(), "-n", "-t", plan.toString(), "-q",
                propsFile.toString(), "-l", results.toString(), "-j", results.resolveSibling(results.getFileName() + ".log").toString(),
                // three log lines per thread: with the open model's thread per arrival, logging them slowed JMeter itself
                "-Lorg.apache.jmeter.threads.JMeterThread=WARN"));
        Process proc = new ProcessBuilder(cmd).redirectErrorStream(true)
                .redirectOutput(results.resolveSibling(results.getFileName() + ".out").toFile()).start();
        running = proc;
        try {
            if (!proc.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                proc.destroyForcibly();
                return TIMED_OUT;
            }
            return proc.exitValue();
        } finally {
            running = null;
        }
    }

    // the open model counts its schedule from the test's start time, which the engine sets as it logs this line (the thread
    // group's own "Starting" line comes ~150 ms later: windows cut there clip each step's first arrivals and miss its rate)
    private static final Pattern SCHEDULE_START = Pattern.compile("^(\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d,\\d{3}) INFO o\\.a\\.j\\.e\\.StandardJMeterEngine: Running the test!");

    /**
     * When the open model's schedule began (epoch ms), from JMeter's log of the run: the first
     * sample comes one inter-arrival time later, plus JMeter's own delay, so it would misplace the
     * step boundaries.
     */
    static OptionalLong scheduleStart(Path results) throws IOException {
        Path log = results.resolveSibling(results.getFileName() + ".log");
        if (!Files.exists(log)) {
            return OptionalLong.empty();
        }
        for (String line : Files.readAllLines(log)) {
            Matcher m = SCHEDULE_START.matcher(line);
            if (m.find()) {
                LocalDateTime t = LocalDateTime.parse(m.group(1), DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss,SSS"));
                return OptionalLong.of(t.atZone(ZoneId.systemDefault()).toInstant().toEpochMilli());
            }
        }
        return OptionalLong.empty();
    }

    /** Builds JMeter's own HTML dashboard from a results CSV. */
    int dashboard(Path results, Path out) throws IOException, InterruptedException {
        Process proc = new ProcessBuilder(java, "-jar", jar.toString(), "-g", results.toString(), "-o", out.toString(),
                "-Jjmeter.reportgenerator.overall_granularity=1000", "-j", out.resolveSibling("dashboard.log").toString())
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        running = proc;
        try {
            return proc.waitFor(10, TimeUnit.MINUTES) ? proc.exitValue() : -1;
        } finally {
            running = null;
        }
    }

    /** Stops the run under way (Ctrl-C). */
    void stop() {
        Process p = running;
        if (p != null) {
            p.destroyForcibly();
        }
    }
}
