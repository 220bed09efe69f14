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

    /** Null with fewer than three distinct client counts, or points that fit no positive λ. */
    static Usl fit(List<Point> points) {
        List<Point> usable = points.stream().filter(p -> p.throughput() > 0).toList();
        if (usable.stream().map(Point::clients).distinct().count() < 3) {
            return null;
        }
        // normal equations of y = a + b·x1 + c·x2, x1 = N−1, x2 = N(N−1)
        double[][] m = new double[3][4];
        for (Point p : usable) {
            double n = p.clients();
            double[] row = {1, n - 1, n * (n - 1)};
            double y = n / p.throughput();
            for (int i = 0; i < 3; i++) {
                for (int j = 0; j < 3; j++) {
                    m[i][j] += row[i] * row[j];
                }
                m[i][3] += row[i] * y;
            }
        }
        double[] abc = solve(m);
        if (abc == null || abc[0] <= 0) {
            return null;
        }
        double lambda = 1 / abc[0];
        double sigma = abc[1] / abc[0];
        double kappa = abc[2] / abc[0];
        Usl usl = new Usl(lambda, sigma, kappa, 0);
        double mean = usable.stream().mapToDouble(Point::throughput).average().orElse(0);
        double residual = 0;
        double total = 0;
        for (Point p : usable) {
            residual += Math.pow(p.throughput() - usl.throughput(p.clients()), 2);
            total += Math.pow(p.throughput() - mean, 2);
        }
        return new Usl(lambda, sigma, kappa, total == 0 ? 1 : 1 - residual / total);
    }

    double throughput(double clients) {
        return lambda * clients / (1 + sigma * (clients - 1) + kappa * clients * (clients - 1));
    }

    /** The client count where the fitted throughput peaks, or infinity when it never does (κ ≤ 0). */
    double peakClients() {
        return kappa <= 0 ? Double.POSITIVE_INFINITY : Math.sqrt(Math.max(0, 1 - sigma) / kappa);
    }

    private static double[] solve(double[][] m) {
        int n = 3;
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
        return new double[] {m[0][3] / m[0][0], m[1][3] / m[1][1], m[2][3] / m[2][2]};
    }
}
