package dev.idiom.perf.saturation;

import java.util.List;

/**
 * The saturation point of an operation from its open-model steps, by one stated rule: the highest
 * offered rate, climbing from the lowest step, at which the server still kept up — achieved at
 * least 97% of offered, fewer than 0.1% errors, and p99 under ten times the unloaded p99 (the open
 * model at 2% of the closed model's peak, same client; at least 1 ms, JMeter's resolution). The
 * first step that fails ends the climb.
 */
record Saturation(double msgPerSecond, boolean reached, String limitedBy) {
    static final String RULE = "saturation point = the highest offered rate, climbing from the lowest step, at which achieved >= 97% of offered, "
            + "errors < 0.1% and p99 < 10 x the unloaded p99 (open model at 2% of the closed model's peak, same client; at least 1 ms); "
            + "the first failing step ends the climb; a step the load generator could not send is its limit, not the server's";

    /** One step of the open model. */
    record Step(double offered, Figures figures, boolean kept, String failed) {}

    static Step judge(double offered, Figures f, double unloadedP99) {
        double p99Limit = 10 * Math.max(1, unloadedP99);
        // a generator that could not start requests on time says nothing about the server: said apart
        String failed = f.sentPerSecond() < 0.97 * offered ? String.format("the load generator sent only %.0f of %.0f msg/s", f.sentPerSecond(), offered)
                : f.achievedPerSecond() < 0.97 * offered ? String.format("achieved %.0f of %.0f msg/s", f.achievedPerSecond(), offered)
                : f.errorRate() >= 0.001 ? String.format("errors %.2f%%", 100 * f.errorRate())
                : f.p99() >= p99Limit ? String.format("p99 %.0f ms >= %.0f ms", f.p99(), p99Limit) : null;
        return new Step(offered, f, failed == null, failed);
    }

    /** The point as a reader wants it: a rate, a lower bound ("+"), or below the lowest step when even that one failed. */
    String label(List<Step> steps) {
        if (msgPerSecond == 0 && reached && !steps.isEmpty()) {
            return String.format("below %,.0f msg/s", steps.getFirst().offered());
        }
        return String.format("%,.0f msg/s%s", msgPerSecond, reached ? "" : "+");
    }

    static Saturation of(List<Step> steps) {
        double point = 0;
        for (Step s : steps) {
            if (!s.kept()) {
                return new Saturation(point, true, s.failed() + " at " + Math.round(s.offered()) + " msg/s");
            }
            point = s.offered();
        }
        return new Saturation(point, false, steps.isEmpty() ? "no steps ran" : "kept up at every step offered: the point is higher");
    }
}
