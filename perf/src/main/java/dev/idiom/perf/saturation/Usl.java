package dev.idiom.perf.saturation;

import java.util.List;

/**
 * The Universal Scalability Law, X(N) = λN / (1 + σ(N−1) + κN(N−1)), fitted to closed-model
 * points by least squares on its linear form N/X = 1/λ + (σ/λ)(N−1) + (κ/λ)N(N−1) (Gunther):
 * λ the throughput of one client, σ contention (the serial share), κ coherency (crosstalk).
 * With κ > 0 throughput peaks at N* = √((1−σ)/κ).
 */
record Usl(double lambda, double sigma, double kappa, double rSquared) {

    record Point(double clients, double throughput) {}

    /**
     * Null with fewer than three distinct client counts, or points that fit no positive λ. σ and κ
     * are kept non-negative (a negative one means nothing physical: noise that made 64 clients
     * look better than the curve): the best fit over the models that drop the offending terms.
     */
    static Usl fit(List<Point> points) {
        List<Point> usable = points.stream().filter(p -> p.throughput() > 0).toList();
        if (usable.stream().map(Point::clients).distinct().count() < 3) {
            return null;
        }
        Usl best = null;
        double bestError = Double.POSITIVE_INFINITY;
        // y = a + b·x1 + c·x2 with x1 = N−1, x2 = N(N−1): the full model, then without κ, without σ, with neither
        for (boolean[] terms : new boolean[][] {{true, true}, {true, false}, {false, true}, {false, false}}) {
            double[] abc = leastSquares(usable, terms[0], terms[1]);
            if (abc == null || abc[0] <= 0 || abc[1] < 0 || abc[2] < 0) {
                continue;
            }
            double error = 0;
            for (Point p : usable) {
                double n = p.clients();
                error += Math.pow(n / p.throughput() - (abc[0] + abc[1] * (n - 1) + abc[2] * n * (n - 1)), 2);
            }
            if (error < bestError) {
                bestError = error;
                best = new Usl(1 / abc[0], abc[1] / abc[0], abc[2] / abc[0], 0);
            }
        }
        if (best == null) {
            return null;
        }
        double mean = usable.stream().mapToDouble(Point::throughput).average().orElse(0);
        double residual = 0;
        double total = 0;
        for (Point p : usable) {
            residual += Math.pow(p.throughput() - best.throughput(p.clients()), 2);
            total += Math.pow(p.throughput() - mean, 2);
        }
        return new Usl(best.lambda, best.sigma, best.kappa, total == 0 ? 1 : 1 - residual / total);
    }

    /** Least squares of N/X on the chosen terms (normal equations); the terms left out come back 0. */
    private static double[] leastSquares(List<Point> points, boolean withSigma, boolean withKappa) {
        int k = 1 + (withSigma ? 1 : 0) + (withKappa ? 1 : 0);
        double[][] m = new double[k][k + 1];
        for (Point p : points) {
            double n = p.clients();
            double[] row = new double[k];
            int i = 0;
            row[i++] = 1;
            if (withSigma) {
                row[i++] = n - 1;
            }
            if (withKappa) {
                row[i] = n * (n - 1);
            }
            double y = n / p.throughput();
            for (int r = 0; r < k; r++) {
                for (int c = 0; c < k; c++) {
                    m[r][c] += row[r] * row[c];
                }
                m[r][k] += row[r] * y;
            }
        }
        double[] x = solve(m, k);
        if (x == null) {
            return null;
        }
        return new double[] {x[0], withSigma ? x[1] : 0, withKappa ? x[k - 1] : 0};
    }

    double throughput(double clients) {
        return lambda * clients / (1 + sigma * (clients - 1) + kappa * clients * (clients - 1));
    }

    /** The client count where the fitted throughput peaks, or infinity when it never does (κ ≤ 0). */
    double peakClients() {
        return kappa <= 0 ? Double.POSITIVE_INFINITY : Math.sqrt(Math.max(0, 1 - sigma) / kappa);
    }

    private static double[] solve(double[][] m, int n) {
        for (int col = 0; col < n; col++) {
            int pivot = col;
            for (int r = col + 1; r < n; r++) {
                if (Math.abs(m[r][col]) > Math.abs(m[pivot][col])) {
                    pivot = r;
                }
            }
            if (Math.abs(m[pivot][col]) < 1e-12) {
                return null;
            }
            double[] t = m[col];
            m[col] = m[pivot];
            m[pivot] = t;
            for (int r = 0; r < n; r++) {
                if (r != col) {
                    double f = m[r][col] / m[col][col];
                    for (int c = col; c <= n; c++) {
                        m[r][c] -= f * m[col][c];
                    }
                }
            }
        }
        double[] x = new double[n];
        for (int i = 0; i < n; i++) {
            x[i] = m[i][n] / m[i][i];
        }
        return x;
    }
}
