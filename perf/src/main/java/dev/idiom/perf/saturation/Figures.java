package dev.idiom.perf.saturation;

import java.util.Arrays;
import java.util.List;

/**
 * What a window of requests did: how many were sent and succeeded per second, the latency
 * percentiles (ms; a request's latency runs from its start, which in the open model is its
 * scheduled arrival), and the share that failed.
 */
record Figures(long requests, double seconds, double sentPerSecond, double achievedPerSecond, double mean, double p50, double p90, double p99,
               double p999, double max, long errors, double errorRate, double meanRequestBytes, double meanResponseBytes) {

    static Figures of(List<Sample> samples, double seconds) {
        long[] latencies = new long[samples.size()];
        long errors = 0;
        long sent = 0;
        long received = 0;
        long sum = 0;
        for (int i = 0; i < latencies.length; i++) {
            Sample s = samples.get(i);
            latencies[i] = s.elapsedMillis();
            sum += s.elapsedMillis();
            if (!s.success()) {
                errors++;
            }
            sent += s.sentBytes();
            received += s.receivedBytes();
        }
        Arrays.sort(latencies);
        long n = latencies.length;
        return new Figures(n, seconds, n / seconds, (n - errors) / seconds, n == 0 ? 0 : sum / (double) n, percentile(latencies, 50), percentile(latencies, 90),
                percentile(latencies, 99), percentile(latencies, 99.9), n == 0 ? 0 : latencies[latencies.length - 1], errors,
                n == 0 ? 0 : errors / (double) n, n == 0 ? 0 : sent / (double) n, n == 0 ? 0 : received / (double) n);
    }

    /** Nearest rank. */
    static double percentile(long[] sorted, double p) {
        if (sorted.length == 0) {
            return 0;
        }
        int rank = (int) Math.ceil(p / 100.0 * sorted.length);
        return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
    }
}
