package dev.idiom.consistency.report;

import java.time.Instant;

/**
 * Why an account's scheduled pull or check last failed: the error as the tool's adapter reported it,
 * when, how many times in a row, and when this node tries again.
 */
public record AccountFailure(String error, Instant at, int timesInARow, Instant retryAt) {}
