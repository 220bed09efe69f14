package dev.idiom.perf.saturation;

import dev.idiom.perf.ApiKey;
import dev.idiom.perf.GrowthProbe;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code ./idiom perf}: finds each operation's saturation point. Per operation, after a warm-up:
 * the closed model at each client count (throughput, latency, and Idiom's own account of where the
 * time went), the USL fitted to those points, then the open model — arrivals at fixed rates
 * stepped from a quarter to 1.25× the closed model's peak — judged step by step by
 * {@link Saturation#RULE}. The empty SOAP baseline runs first, in the same run, and every
 * operation is reported as a ratio to it.
 *
 * <pre>./idiom perf [--ops a,b] [--duration S] [--target URL --key K] [--deploy tomcat] [--entities N] [--smoke]</pre>
 */
public final class SaturationRun {
    private static final Pattern VERSION = Pattern.compile("\"version\":(\\d+)");
    private static final Pattern TITLE = Pattern.compile("\"title\":\"([^\"]*)\"");
    private static final Pattern ID = Pattern.compile("\"id\":\"([0-9a-f-]{36})\"");
    private static final Pattern WORD = Pattern.compile("[A-Za-z]{5,}");
    private static final Pattern HOST_PORT = Pattern.compile("^https?://([^:/]+)(?::(\\d+))?");

    private final Path root;
    private final Map<String, String> opts;
    private final JMeter jmeter;
    private final Report report;
    private volatile String now = "starting";
    private volatile boolean finished;
    private volatile boolean interruptedNow;
    private Target target;
    private ZoteroLibrary zotero;
    /** Per operation, the closed-model rates measured so far (clients, msg/s): how many fresh rows the next run needs. */
    private final Map<Operation, List<double[]>> measured = new java.util.EnumMap<>(Operation.class);
    private int rowsGiven;
    private int run;
    private int runs;

    private SaturationRun(Path root, Map<String, String> opts, JMeter jmeter, Report report) {
        this.root = root;
        this.opts = opts;
        this.jmeter = jmeter;
        this.report = report;
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> opts = options(args);
        if (opts == null) {
            System.out.print(PerfHelp.TEXT);
            return;
        }
        Path root = Path.of("").toAbsolutePath();
        if (!Files.exists(root.resolve("perf/plans/saturation.jmx"))) {
            throw new IllegalStateException("run from the repository root (perf/plans/saturation.jmx not found under " + root + ")");
        }
        Path out = opts.containsKey("out") ? Path.of(opts.get("out")).toAbsolutePath()
                : root.resolve("perf/reports").resolve(LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH-mm-ss")));
        Map<String, Object> settings = new LinkedHashMap<>(opts);
        settings.remove("key");
        SaturationRun r = new SaturationRun(root, opts, JMeter.locate(root), new Report(out, opts.getOrDefault("target", opts.get("deploy")), settings));
        Thread hook = new Thread(r::interrupted, "perf-interrupted");
        Runtime.getRuntime().addShutdownHook(hook);
        boolean ok = r.runAll();
        System.exit(ok ? 0 : 1);
    }

    /** Ctrl-C (or a kill): stop JMeter and the server, and leave the report marked incomplete. */
    private void interrupted() {
        if (finished) {
            return;
        }
        // the reason is set before JMeter is stopped: the run's thread then sees JMeter die and must not take that for the cause
        report.incomplete("interrupted during " + now);
        interruptedNow = true;
        jmeter.stop();
        try {
            report.write();
            System.err.println("\nperf: interrupted; the partial report (marked incomplete) is in " + report.dir());
        } catch (IOException e) {
            System.err.println("\nperf: interrupted, and the partial report could not be written: " + e.getMessage());
        }
        closeTargets();
    }

    private void closeTargets() {
        if (zotero != null) {
            zotero.close();
        }
        if (target != null) {
            target.close();
        }
    }

    private boolean runAll() {
        try {
            List<Operation> ops = new ArrayList<>();
            ops.add(Operation.BASELINE); // always, first: every ratio is to it
            for (String name : opts.get("ops").split(",")) {
                Operation o = Operation.named(name.strip());
                if (!ops.contains(o)) {
                    ops.add(o);
                }
            }
            List<Integer> clients = Arrays.stream(opts.get("clients").split(",")).map(String::strip).map(Integer::parseInt).toList();
            double[] steps = Arrays.stream(opts.get("steps").split(",")).map(String::strip).mapToDouble(Double::parseDouble).toArray();
            boolean warm = Integer.parseInt(opts.get("warmup")) > 0;
            int perOp = opts.containsKey("matrix") ? clients.size() * thinks().size() * opts.get("payload").split(",").length
                    : clients.size() + 1;
            runs = ops.size() * (perOp + (warm ? 1 : 0));
            if (opts.containsKey("target")) {
                target = Target.running(opts.get("target"));
                if (opts.containsKey("key")) {
                    ApiKey.use(opts.get("key"));
                }
                if (!target.pings()) {
                    throw new IOException("no Idiom answers " + target.url + "/api/ping: is it running, and is the URL right?");
                }
            } else {
                long entities = Long.parseLong(opts.get("entities"));
                target = Target.start(root, opts.get("deploy"), root.resolve("perf/target/growth-" + entities + "-1"), entities, this::say);
            }
            if (ApiKey.current() == null) {
                throw new IOException("no key: pass --key (an admin key of the target) or set IDIOM_KEY");
            }
            if (!target.hasBaselines()) {
                int before = ops.size();
                ops.removeIf(o -> o.bare);
                if (ops.size() < before) {
                    say("the target has no baselines mounted (start it with --baseline true): bare-servlet and bare-axis2-echo left out");
                    runs = ops.size() * (perOp + (warm ? 1 : 0));
                }
            }
            // JMeter's files (its properties hold the key; raw results are large) stay out of the report
            Path work = root.resolve("perf/target/perf-runs").resolve(report.dir().getFileName());
            Files.createDirectories(work);
            report.note("raw JMeter results and logs: " + work);
            Data data = Data.prepare(target, Integer.parseInt(opts.get("sample")), work, this::say);
            say(String.format("%d operations, %d JMeter runs; report in %s", ops.size(), runs, report.dir()));
            Report.OperationResult baseline = null;
            for (Operation op : ops) {
                Report.OperationResult r = measure(op, clients, steps, data, work, baseline);
                if (op == Operation.BASELINE) {
                    baseline = r;
                }
                report.add(r);
                report.write();
            }
            now = "building JMeter's dashboard";
            say("building JMeter's dashboard of every request…");
            Path all = work.resolve("all.csv");
            concatenate(work, all);
            if (jmeter.dashboard(all, report.dir().resolve("jmeter-dashboard")) != 0) {
                say("JMeter's dashboard could not be built; see " + report.dir().resolve("dashboard.log"));
            }
            Files.deleteIfExists(all);
            boolean failed = report.operations().stream().anyMatch(o -> o.problem() != null);
            if (failed) {
                report.incomplete("some operations failed; see each one's problem");
            } else {
                report.complete();
            }
            report.write();
            finished = true;
            say((failed ? "done, with failures: " : "done: ") + report.dir().resolve("report.html"));
            return !failed;
        } catch (Exception e) {
            if (!interruptedNow) {
                report.incomplete(e.getMessage() == null ? e.toString() : e.getMessage());
            }
            try {
                report.write();
            } catch (IOException w) {
                e.addSuppressed(w);
            }
            finished = true;
            System.err.println("perf: " + report.summary().incompleteReason() + "\nperf: the partial report (marked incomplete) is in " + report.dir());
            return false;
        } finally {
            finished = true;
            closeTargets();
        }
    }

    private Report.OperationResult measure(Operation op, List<Integer> clients, double[] fractions, Data data, Path work,
                                           Report.OperationResult baseline) throws Exception {
        int seconds = Integer.parseInt(opts.get("duration"));
        int warmup = Integer.parseInt(opts.get("warmup"));
        long think = thinks().getFirst();
        try {
            if (warmup > 0) {
                closed(op, clients.getLast(), warmup, 0, 0, data, work.resolve(op.sampler + "-warmup.csv"), "warm-up");
            }
            if (opts.containsKey("matrix")) {
                return matrix(op, clients, seconds, data, work);
            }
            List<Report.ClosedPoint> closed = new ArrayList<>();
            for (int n : clients) {
                closed.add(point(op, n, think, 0, seconds, data, work.resolve(op.sampler + "-closed-" + n + ".csv"), "closed N=" + n));
            }
            Usl usl = Usl.fit(closed.stream().map(c -> new Usl.Point(c.clients(), c.figures().achievedPerSecond())).toList());
            double peak = closed.stream().mapToDouble(c -> c.figures().achievedPerSecond()).max().orElse(0);
            Open open;
            try {
                open = open(op, peak, fractions, seconds, data, work.resolve(op.sampler + "-open.csv"));
            } catch (PlanFailed e) {
                if (interruptedNow) {
                    throw e;
                }
                say("  " + op.sampler + " open model FAILED: " + e.getMessage());
                return new Report.OperationResult(op.sampler, op.description, closed, usl, usl == null ? null : usl.peakClients(), peak, 0, null,
                        List.of(), null, null, baseline == null || baseline.closedPeak() == 0 ? null : peak / baseline.closedPeak(), e.getMessage());
            }
            double unloaded = open.unloaded().p99();
            Saturation sat = Saturation.of(open.steps());
            Double ratio = baseline == null || baseline.saturation() == null || baseline.saturation().msgPerSecond() == 0 ? null
                    : sat.msgPerSecond() / baseline.saturation().msgPerSecond();
            Double peakRatio = baseline == null || baseline.closedPeak() == 0 ? null : peak / baseline.closedPeak();
            if (op == Operation.BASELINE) {
                ratio = 1.0;
                peakRatio = 1.0;
            }
            say(String.format("  %s: saturation %s (%s), closed peak %,.0f msg/s%s", op.sampler, sat.label(open.steps()), sat.limitedBy(), peak, ratio == null ? "" : String.format("; %.2f× empty", ratio)));
            return new Report.OperationResult(op.sampler, op.description, closed, usl, usl == null ? null : usl.peakClients(), peak, unloaded,
                    open.unloaded(), open.steps(), sat, ratio, peakRatio, null);
        } catch (PlanFailed e) {
            say("  " + op.sampler + " FAILED: " + e.getMessage());
            if (interruptedNow) {
                throw e; // Ctrl-C killed JMeter: not the operation's failure
            }
            return new Report.OperationResult(op.sampler, op.description, List.of(), null, null, 0, 0, null, List.of(), null, null, null, e.getMessage());
        }
    }

    /** One closed-model point, with Idiom's own account of where the time went. */
    private Report.ClosedPoint point(Operation op, int n, long think, int payload, int seconds, Data data, Path csv, String what) throws Exception {
        Target.ServerTime before = target.serverTime();
        Figures f = closed(op, n, seconds, think, payload, data, csv, what);
        Target.ServerTime after = target.serverTime();
        Target.ServerTime d = before == null || after == null ? null : after.minus(before);
        boolean counted = d != null && d.served() >= f.requests() / 2; // the bare baselines pass no Idiom code
        return new Report.ClosedPoint(n, think, payload, f, counted ? d.servedMicros() / (double) d.served() : null,
                counted ? d.databaseMicros() / (double) d.served() : null);
    }

    /**
     * Matrix mode, like the 18-749 evaluation: the closed model over clients × payload × think time.
     * Payload is bytes added to the request: a SOAP header block, or UpdateDE's notes; a REST GET has none.
     */
    private Report.OperationResult matrix(Operation op, List<Integer> clients, int seconds, Data data, Path work) throws Exception {
        List<Report.ClosedPoint> points = new ArrayList<>();
        boolean carries = op.sampler.startsWith("soap-") || op.sampler.startsWith("bare-axis2") || op.rows == Operation.Rows.UPDATES;
        for (int payload : Arrays.stream(opts.get("payload").split(",")).map(String::strip).map(Integer::parseInt).toList()) {
            if (payload > 0 && !carries) {
                continue;
            }
            for (long think : thinks()) {
                for (int n : clients) {
                    String what = String.format("N=%d think=%dms +%dB", n, think, payload);
                    points.add(point(op, n, think, payload, seconds, data, work.resolve(op.sampler + "-matrix-" + n + "-" + think + "-" + payload + ".csv"), what));
                }
            }
        }
        double peak = points.stream().mapToDouble(c -> c.figures().achievedPerSecond()).max().orElse(0);
        return new Report.OperationResult(op.sampler, op.description, points, null, null, peak, 0, null, List.of(), null, null, null, null);
    }

    private List<Long> thinks() {
        return Arrays.stream(opts.get("think").split(",")).map(String::strip).map(Long::parseLong).toList();
    }

    /** A plan run that produced nothing usable: the operation is reported as failed and the run goes on. */
    private static final class PlanFailed extends Exception {
        PlanFailed(String message) {
            super(message);
        }
    }

    private Figures closed(Operation op, int n, int seconds, long think, int payload, Data data, Path csv, String what) throws Exception {
        int settle = settle();
        Map<String, String> props = props(op, data, csv, payload, rowsNeeded(op, n, settle + seconds));
        props.put("clients", Integer.toString(n));
        props.put("seconds", Integer.toString(settle + seconds));
        props.put("thinkMillis", Long.toString(think));
        List<Sample> samples = jmeterRun(op, what, props, csv, settle + seconds + 120L);
        long from = samples.stream().mapToLong(Sample::startMillis).min().orElse(0) + settle * 1000L;
        Figures f = Figures.of(window(samples, from, seconds), seconds);
        measured.computeIfAbsent(op, k -> new ArrayList<>()).add(new double[] {n, f.sentPerSecond()}); // failed requests used up rows too
        progress(op, what, f);
        return f;
    }

    /**
     * Rows for a closed-model run of an operation that uses up a row per request: what it can send
     * in {@code seconds}. Fewer clients send no more than more clients did, so a point measured with
     * at least as many clients (the warm-up runs with the most) bounds it, twice over for a margin;
     * without one, four times the fastest point so far; before any point (a smoke run has no warm-up),
     * 500 msg/s a client up to 4,000: one client uploads to the local stub at ~350 msg/s here, and at
     * 100 a smoke run's rows ran out and recycled. Too few rows are reported (the rows recycle); too
     * many only cost preparation time.
     */
    private int rowsNeeded(Operation op, int clients, int seconds) {
        if (!op.rows.usedUp()) {
            return 0;
        }
        List<double[]> points = measured.getOrDefault(op, List.of());
        double fromMore = points.stream().filter(p -> p[0] >= clients).mapToDouble(p -> p[1]).max().orElse(-1);
        double most = points.stream().mapToDouble(p -> p[1]).max().orElse(-1);
        double rate = fromMore >= 0 ? 2 * fromMore : most >= 0 ? 4 * most : Math.min(500.0 * clients, 4000);
        return 100 + (int) Math.ceil(rate * seconds);
    }

    /** The open model's unloaded window (its p99 is the rule's reference) and its judged steps. */
    private record Open(Figures unloaded, List<Saturation.Step> steps) {}

    /**
     * The open model's offered rates: each fraction of the closed peak, none above {@code cap}; the
     * steps stop at the first that the cap would make no higher than the one before (a second step
     * at the cap would measure the same thing again), so a fast operation may have fewer steps.
     */
    static List<Double> offeredRates(double peak, double[] fractions, double cap) {
        List<Double> offered = new ArrayList<>();
        for (double fraction : fractions) {
            // JMeter starts a thread per arrival: past a few thousand a second here it cannot keep the schedule and the run drags on
            double rate = Math.max(1, Math.min(cap, Math.round(peak * fraction)));
            if (!offered.isEmpty() && rate <= offered.getLast()) {
                break;
            }
            offered.add(rate);
        }
        return offered;
    }

    private Open open(Operation op, double peak, double[] fractions, int seconds, Data data, Path csv) throws Exception {
        int settle = settle();
        StringBuilder schedule = new StringBuilder();
        List<Double> offered = offeredRates(peak, fractions, Double.parseDouble(opts.get("max-rate")));
        for (double rate : offered) {
            // a flat step: the same rate at both ends of its arrivals
            schedule.append(String.format("rate(%.0f/sec) even_arrivals(%d sec) rate(%.0f/sec) ", rate, seconds, rate));
        }
        // first a lead-in, not measured (each run is a fresh JMeter: its first seconds are its own warm-up), then the
        // unloaded window at 2% of the peak: the same client, the same connections, no load; its p99 is the rule's reference
        double quiet = Math.max(5, Math.round(peak * 0.02));
        schedule.insert(0, String.format("rate(%.0f/sec) even_arrivals(%d sec) rate(%.0f/sec) rate(%.0f/sec) even_arrivals(%d sec) rate(%.0f/sec) ",
                quiet, settle, quiet, quiet, seconds, quiet));
        // no arrivals at the end, so the last requests finish rather than being cut off when the test ends
        schedule.append(String.format("pause(%d sec)", Math.max(2, Math.min(5, seconds))));
        double arrivals = quiet * (settle + seconds) + offered.stream().mapToDouble(r -> r * seconds).sum();
        Map<String, String> props = props(op, data, csv, 0, op.rows.usedUp() ? 100 + (int) Math.ceil(arrivals * 1.02) : 0);
        props.put("schedule", schedule.toString());
        String what = String.format("open %,.0f→%,.0f msg/s", offered.getFirst(), offered.getLast());
        List<Sample> samples = jmeterRun(op, what, props, csv, (long) seconds * (offered.size() + 1) + settle + 300);
        long t0 = JMeter.scheduleStart(csv).orElse(samples.stream().mapToLong(Sample::startMillis).min().orElse(0)) + settle * 1000L;
        Figures unloaded = Figures.of(window(samples, t0, seconds), seconds);
        List<Saturation.Step> steps = new ArrayList<>();
        for (int i = 0; i < offered.size(); i++) {
            steps.add(Saturation.judge(offered.get(i), Figures.of(window(samples, t0 + (i + 1) * seconds * 1000L, seconds), seconds), unloaded.p99()));
        }
        Saturation.Step last = steps.getLast();
        progress(op, what, last.figures());
        return new Open(unloaded, steps);
    }

    private List<Sample> jmeterRun(Operation op, String what, Map<String, String> props, Path csv, long timeoutSeconds) throws Exception {
        now = op.sampler + " " + what;
        Files.deleteIfExists(csv);
        int exit = jmeter.run(root.resolve("perf/plans/saturation.jmx"), props, csv, timeoutSeconds);
        List<Sample> samples = Sample.read(csv);
        if (op.rows.usedUp() && samples.size() > rowsGiven) {
            String w = String.format("%s %s: %,d requests but %,d fresh rows prepared; the rest reused rows (%s)", op.sampler, what, samples.size(), rowsGiven,
                    op.rows == Operation.Rows.DOWNLOADS ? "a record already imported: the plan counts it an error" : "a DE already uploaded: a 409 fault");
            say("  " + w);
            report.warn(w);
        }
        if (exit != 0 || samples.isEmpty()) {
            throw new PlanFailed(what + ": JMeter " + (exit == JMeter.TIMED_OUT ? "did not finish in " + timeoutSeconds + " s and was stopped" : "exited " + exit)
                    + " with " + samples.size() + " samples; see " + csv.getFileName() + ".log and .out in " + csv.getParent());
        }
        return samples;
    }

    private Map<String, String> props(Operation op, Data data, Path csv, int payload, int fresh) throws Exception {
        Matcher m = HOST_PORT.matcher(target.url);
        if (!m.find()) {
            throw new IllegalArgumentException("not an http URL: " + target.url);
        }
        Map<String, String> p = new LinkedHashMap<>();
        p.put("host", m.group(1));
        p.put("port", m.group(2) == null ? "80" : m.group(2));
        p.put("key", ApiKey.current());
        p.put("op", op.sampler);
        p.put("timeoutMillis", "10000");
        p.put("rows", rows(op, data, csv.resolveSibling(csv.getFileName() + ".rows.tsv"), fresh).toString());
        p.put("runId", Long.toString(System.currentTimeMillis()));
        if (op.rows == Operation.Rows.UPDATES) {
            p.put("pad", "x".repeat(3300 + payload)); // the paper's UpdateDE message is ~3.7 KB
        } else if (payload > 0) {
            p.put("soapHeader", "<soapenv:Header><p:pad xmlns:p=\"urn:idiom:perf\">" + "x".repeat(payload) + "</p:pad></soapenv:Header>");
        }
        return p;
    }

    /** The rows file of one JMeter run; for downloads and uploads, {@code fresh} rows made for it, outside the timed run. */
    private Path rows(Operation op, Data data, Path file, int fresh) throws Exception {
        if (!op.rows.usedUp()) {
            return data.rows(op.rows, target, file);
        }
        List<String> ids;
        try {
            if (zotero == null) {
                now = "registering the perf tool account";
                zotero = ZoteroLibrary.register(target);
                report.note("download and upload talk to a local Zotero Web API v3 stub in the perf JVM (tool account " + ZoteroLibrary.ACCOUNT
                        + ", paused so the engine's scheduled pulls leave its records to the plan); its time is in their figures");
            }
            now = op.sampler + ": preparing " + fresh + " fresh rows";
            ids = op.rows == Operation.Rows.DOWNLOADS ? zotero.add(fresh) : Data.freshEntities(target, fresh, this::say);
        } catch (IOException e) {
            throw new PlanFailed("preparing its rows failed: " + e.getMessage()); // this operation fails; the others go on
        }
        if (op.rows == Operation.Rows.UPLOADS) {
            target.awaitSettled(this::say); // creating them left the search index behind: let it catch up before the timed run
        }
        StringBuilder b = new StringBuilder();
        ids.forEach(id -> b.append(id).append("\t0\t-\n"));
        Files.writeString(file, b);
        rowsGiven = ids.size();
        return file;
    }

    private static List<Sample> window(List<Sample> samples, long from, int seconds) {
        return samples.stream().filter(s -> s.startMillis() >= from && s.startMillis() < from + seconds * 1000L).toList();
    }

    /** Seconds at the start of every JMeter run that are not measured (JMeter's own warm-up). */
    private int settle() {
        return Integer.parseInt(opts.get("settle"));
    }

    private void progress(Operation op, String what, Figures f) {
        run++;
        say(String.format("[%2d/%d] %-20s %-28s %,9.0f msg/s  p50 %5.0f ms  p99 %6.0f ms  errors %.2f%%", run, runs, op.sampler, what,
                f.achievedPerSecond(), f.p50(), f.p99(), 100 * f.errorRate()));
    }

    private void say(String line) {
        System.out.println("perf: " + line);
    }

    private static void concatenate(Path work, Path all) throws IOException {
        List<Path> csvs;
        try (var list = Files.list(work)) {
            csvs = list.filter(p -> p.getFileName().toString().endsWith(".csv") && !p.getFileName().toString().contains("warmup")).sorted().toList();
        }
        try (var out = Files.newBufferedWriter(all)) {
            boolean header = false;
            for (Path csv : csvs) {
                List<String> lines = Files.readAllLines(csv);
                if (lines.isEmpty()) {
                    continue;
                }
                int columns = Sample.fields(lines.getFirst()).size();
                for (int i = header ? 1 : 0; i < lines.size(); i++) {
                    // a run JMeter was stopped in leaves its last line cut off, and the dashboard refuses the whole file for it
                    if (Sample.fields(lines.get(i)).size() == columns) {
                        out.write(lines.get(i));
                        out.write('\n');
                    }
                }
                header = true;
            }
        }
    }

    /** The DEs a run reads and writes: sampled across the store (created when there are too few), and search words from their titles. */
    record Data(List<String> ids, List<String> queries, Path dir) {
        static Data prepare(Target target, int want, Path dir, java.util.function.Consumer<String> say) throws Exception {
            HttpClient http = target.http();
            List<String> ids = new ArrayList<>(GrowthProbe.sample(http, target.url, want));
            int missing = Math.min(want, 50) - ids.size();
            if (missing > 0) {
                say.accept("the store holds few DEs: creating " + missing);
                for (int i = 0; i < missing; i++) {
                    HttpResponse<String> r = http.send(ApiKey.signed(HttpRequest.newBuilder(URI.create(target.url + "/api/entities"))
                            .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(
                                    "{\"metadata\":{\"type\":\"article-journal\",\"title\":\"Optimistic replication survey " + i + "\",\"year\":2005,"
                                            + "\"venue\":\"ACM Computing Surveys\",\"authors\":[{\"family\":\"Saito\",\"given\":\"Yasushi\"}],"
                                            + "\"tags\":[\"replication\"]}}"))).build(), HttpResponse.BodyHandlers.ofString());
                    if (r.statusCode() != 201) {
                        throw new IOException("creating a DE answered " + r.statusCode() + ": " + r.body());
                    }
                    Matcher id = ID.matcher(r.body());
                    if (id.find()) {
                        ids.add(id.group(1));
                    }
                }
            }
            Set<String> words = new LinkedHashSet<>();
            for (String id : ids.subList(0, Math.min(ids.size(), 200))) {
                Matcher t = TITLE.matcher(GrowthProbe.get(http, target.url + "/api/entities/" + id).body());
                if (t.find()) {
                    Matcher w = WORD.matcher(t.group(1));
                    while (w.find()) {
                        words.add(w.group().toLowerCase(java.util.Locale.ROOT));
                    }
                }
            }
            say.accept(String.format("%d DEs sampled across the store, %d search words from their titles", ids.size(), words.size()));
            return new Data(ids, List.copyOf(words), dir);
        }

        /** {@code n} new DEs (16 requests in flight), for a plan that uploads each once; their ids. */
        static List<String> freshEntities(Target target, int n, java.util.function.Consumer<String> say) throws Exception {
            long started = System.nanoTime();
            String run = Long.toString(System.currentTimeMillis(), 36);
            java.util.concurrent.Semaphore inFlight = new java.util.concurrent.Semaphore(16);
            List<java.util.concurrent.CompletableFuture<String>> created = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                inFlight.acquire();
                String body = "{\"metadata\":{\"type\":\"article-journal\",\"title\":\"Replica convergence in practice, upload " + run + "-" + i + "\","
                        + "\"year\":" + (1990 + i % 35) + ",\"venue\":\"Journal of Federated Annotation\",\"authors\":[{\"family\":\"Saito\","
                        + "\"given\":\"Yasushi\"}],\"tags\":[\"perf\"]}}";
                created.add(target.http().sendAsync(ApiKey.signed(HttpRequest.newBuilder(URI.create(target.url + "/api/entities"))
                                .timeout(java.time.Duration.ofSeconds(30)).header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body))).build(),
                        HttpResponse.BodyHandlers.ofString()).whenComplete((r, e) -> inFlight.release()).thenApply(r -> {
                            Matcher id = ID.matcher(r.body());
                            if (r.statusCode() != 201 || !id.find()) {
                                throw new IllegalStateException("creating a DE to upload answered " + r.statusCode() + ": " + r.body());
                            }
                            return id.group(1);
                        }));
            }
            List<String> ids = new ArrayList<>(n);
            for (var f : created) {
                try {
                    ids.add(f.join());
                } catch (java.util.concurrent.CompletionException e) {
                    throw new IOException(e.getCause().getMessage(), e.getCause());
                }
            }
            if (n >= 1000) {
                say.accept(String.format("  created %,d DEs to upload in %.1f s", n, (System.nanoTime() - started) / 1e9));
            }
            return ids;
        }

        /** The plan's rows file for {@code kind}: ids, ids with their current versions, or search queries. */
        Path rows(Operation.Rows kind, Target target, Path file) throws Exception {
            StringBuilder b = new StringBuilder();
            switch (kind) {
                case NONE -> b.append("-\t0\t-\n");
                case DOWNLOADS, UPLOADS -> throw new IllegalArgumentException(kind + " rows are made fresh per run, not from the sample");
                case IDS -> ids.forEach(id -> b.append(id).append("\t0\t-\n"));
                case QUERIES -> {
                    for (String w : queries.isEmpty() ? List.of("replication") : queries) {
                        b.append("-\t0\tq=").append(URLEncoder.encode(w, StandardCharsets.UTF_8)).append('\n');
                    }
                }
                case UPDATES -> {
                    // each DE's version now; the plan follows it from there (see the plan's rows comment)
                    for (String id : ids) {
                        Matcher v = VERSION.matcher(GrowthProbe.get(target.http(), target.url + "/api/entities/" + id + "?source=db").body());
                        b.append(id).append('\t').append(v.find() ? v.group(1) : "1").append("\t-\n");
                    }
                }
            }
            Files.writeString(file, b);
            return file;
        }
    }

    /** Options with their defaults; null when help was asked for. */
    static Map<String, String> options(String[] args) {
        Map<String, String> o = new LinkedHashMap<>();
        o.put("ops", String.join(",", Operation.names()));
        o.put("duration", "10");
        o.put("warmup", "5");
        o.put("clients", "1,4,16,64");
        o.put("think", "0");
        o.put("payload", "0,4096,32768");
        o.put("max-rate", "8000");
        o.put("steps", "0.25,0.5,0.75,0.9,1.0,1.1,1.25");
        o.put("entities", "100000");
        o.put("deploy", "embedded");
        o.put("sample", "2000");
        o.put("settle", "2");
        Set<String> known = new LinkedHashSet<>(o.keySet());
        known.addAll(List.of("target", "key", "out", "smoke", "matrix"));
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (a.equals("-h") || a.equals("--help") || a.equals("help")) {
                return null;
            }
            String name = a.replaceFirst("^--", "");
            if (!a.startsWith("--") || !known.contains(name)) {
                throw new IllegalArgumentException("unknown option " + a + " (./idiom perf --help lists them)");
            }
            if (name.equals("smoke") || name.equals("matrix")) {
                o.put(name, "true");
                continue;
            }
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException(a + " needs a value");
            }
            o.put(name, args[++i]);
        }
        if (o.containsKey("smoke")) {
            // every operation, a second or so each: the plan, the run and the report work; the figures mean nothing
            for (String[] kv : new String[][] {{"duration", "1"}, {"warmup", "0"}, {"clients", "1,2,4"}, {"steps", "0.5,1.0,1.5"}, {"entities", "300"},
                    {"sample", "100"}, {"settle", "1"}}) {
                if (!Arrays.asList(args).contains("--" + kv[0])) {
                    o.put(kv[0], kv[1]);
                }
            }
        }
        if (!o.get("deploy").equals("embedded") && !o.get("deploy").equals("tomcat")) {
            throw new IllegalArgumentException("--deploy is embedded or tomcat, got '" + o.get("deploy") + "'");
        }
        return o;
    }
}
