package dev.idiom.perf.saturation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The help printed before anything is built names the operations the plan has, no more and no fewer. */
class PerfHelpTest {
    @Test
    void theHelpListsEveryOperationOfThePlan() {
        assertEquals(String.join(", ", Operation.names()), PerfHelp.OPERATIONS);
        assertTrue(PerfHelp.TEXT.contains("--ops a,b,…          operations (default: all): " + String.join(", ", Operation.names())));
    }
}
