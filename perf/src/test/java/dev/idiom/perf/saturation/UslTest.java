package dev.idiom.perf.saturation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class UslTest {

    private static List<Usl.Point> curve(double lambda, double sigma, double kappa, int... clients) {
        Usl truth = new Usl(lambda, sigma, kappa, 1);
        return IntStream.of(clients).mapToObj(n -> new Usl.Point(n, truth.throughput(n))).toList();
    }

    @Test
    void recoversTheParametersOfAnExactCurve() {
        Usl usl = Usl.fit(curve(2500, 0.05, 0.0004, 1, 4, 16, 64));
        assertEquals(2500, usl.lambda(), 1);
        assertEquals(0.05, usl.sigma(), 1e-4);
        assertEquals(0.0004, usl.kappa(), 1e-6);
        assertEquals(1, usl.rSquared(), 1e-9);
        assertEquals(Math.sqrt(0.95 / 0.0004), usl.peakClients(), 0.01);
    }

    @Test
    void neverReportsNegativeCoherencyWhenTheLastPointRisesAgain() {
        // the shape a noisy run gives: flat from 4 to 16 clients, then higher at 64 — unconstrained, κ comes out negative
        Usl usl = Usl.fit(List.of(new Usl.Point(1, 2945), new Usl.Point(4, 4459), new Usl.Point(16, 4200), new Usl.Point(64, 5700)));
        assertTrue(usl.sigma() >= 0, "sigma " + usl.sigma());
        assertEquals(0, usl.kappa(), 0, "kappa");
        assertEquals(Double.POSITIVE_INFINITY, usl.peakClients());
    }

    @Test
    void linearScalingFitsNoContention() {
        Usl usl = Usl.fit(curve(1000, 0, 0, 1, 2, 4, 8));
        assertEquals(1000, usl.lambda(), 0.01);
        assertEquals(0, usl.sigma(), 1e-9);
        assertEquals(0, usl.kappa(), 1e-12);
    }

    @Test
    void needsThreeDistinctClientCounts() {
        assertNull(Usl.fit(curve(1000, 0.1, 0, 1, 4, 4)));
    }
}
