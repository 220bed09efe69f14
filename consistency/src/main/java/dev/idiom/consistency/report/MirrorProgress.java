package dev.idiom.consistency.report;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;

/**
 * Where an account's mirror stands: its replication rule (as the API shows it) and direction, how
 * far the rule has been planned through the change feed (of the events there were when it was set:
 * a first mirror), how many writes the account is owed, and when they should be done at the tool's
 * pace (one write per least interval between its calls); and the writes the tool refused, parked
 * (with a few of them): a mirror with any is not complete.
 */
public record MirrorProgress(String name, JsonNode mirror, String direction, long planned, long of, int owed, Duration estimate, int parked,
                             java.util.List<ParkedWrite> parkedSamples) {
    /** Planned through, nothing owed, nothing refused. */
    public boolean complete() {
        return planned >= of && owed == 0 && parked == 0;
    }
}
