package dev.idiom.perf.saturation;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class OfferedRatesTest {
    private static final double[] SMOKE = {0.5, 1.0, 1.5};

    @Test
    void everyFractionOfThePeakIsAStepWhenAllAreBelowTheCap() {
        assertEquals(List.of(1500.0, 3000.0, 4500.0), SaturationRun.offeredRates(3000, SMOKE, 8000));
    }

    @Test
    void theCapIsOneStepAndTheStepsAboveItAreDropped() {
        assertEquals(List.of(4640.0, 8000.0), SaturationRun.offeredRates(9280, SMOKE, 8000));
        assertEquals(List.of(8000.0), SaturationRun.offeredRates(20000, SMOKE, 8000));
    }

    @Test
    void aStepIsAtLeastOneMessageASecondAndNoStepRepeatsTheOneBefore() {
        assertEquals(List.of(1.0), SaturationRun.offeredRates(1.2, SMOKE, 8000)); // 0.6 and 1.2 both round to 1
        assertEquals(List.of(1.0, 2.0, 3.0), SaturationRun.offeredRates(2, SMOKE, 8000));
    }
}
