package dev.idiom.perf.saturation;

/**
 * {@code ./idiom perf --help}: a file of its own with nothing to import, so that the launcher can
 * print it with {@code java PerfHelp.java} before anything is built. {@code PerfHelpTest} holds its
 * list of operations to {@link Operation}'s.
 */
public final class PerfHelp {
    /** The operations of perf/plans/saturation.jmx, as {@code --ops} names them. */
    static final String OPERATIONS = "bare-servlet, bare-axis2-echo, soap-empty, rest-empty, soap-moreinfo-cache, soap-moreinfo-db, rest-moreinfo-cache, rest-moreinfo-db, soap-update, rest-update, rest-search, soap-download, soap-upload";

    static final String TEXT = """
            ./idiom perf: each operation's saturation point, against the empty SOAP baseline of the same run
              --ops a,b,…          operations (default: all): {ops}
              --duration S         seconds per closed-model point and per open-model step (default 10)
              --warmup S           seconds of warm-up per operation, not recorded (default 5)
              --settle S           seconds at the start of every JMeter run that are not measured (default 2)
              --clients 1,4,16,64  closed model: client counts (at least three for the USL fit)
              --think MS           closed model: think time between a client's requests (default 0; a list in matrix mode)
              --matrix             the closed model only, over clients × payload × think time (--payload 0,4096,32768 bytes
                                   added to each request: a SOAP header block, or UpdateDE's notes; --think 0,20)
              --steps 0.25,…,1.25  open model: offered rates as fractions of the closed model's peak
              --max-rate R         open model: no step above R msg/s (default 8000: JMeter's thread per arrival cannot keep
                                   a faster schedule on this machine, and the run would drag on)
              --entities N         DEs seeded before the run when this run starts Idiom (default 100000)
              --deploy embedded|tomcat   start Idiom with ./idiom serve (default) or on a standalone Tomcat (tomcat-conf/deploy)
              --target URL --key K       load a running Idiom instead (start it with --baseline true for the bare baselines)
              --out DIR            report folder (default perf/reports/<time>)
              --smoke              a few seconds per operation: checks the plan, the run and the report, measures nothing
            """.replace("{ops}", OPERATIONS);

    private PerfHelp() {}

    public static void main(String[] args) {
        System.out.print(TEXT);
    }
}
