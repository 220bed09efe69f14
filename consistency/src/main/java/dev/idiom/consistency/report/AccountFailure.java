package dev.idiom.consistency.report;

import java.time.Instant;

/**
 * Why an account's scheduled pull or check last failed: the error as the tool's adapter reported it,
 * when, how many times in a row, and when this node tries again.
 */
public record AccountFailure(String error, Instant at, int timesInARow, Instant retryAt) {
    /** The error as a person reads it: the tool's words, and how many times in a row when more than once. */
    public String said() {
        return error + (timesInARow > 1 ? " (" + timesInARow + " times in a row)" : "");
    }
}
