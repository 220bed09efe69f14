package dev.idiom.wrappers;

import java.time.Duration;

/**
 * How hard a tool may be driven.
 *
 * @param maxBatch most records in one read or write call
 * @param minInterval least time between two calls
 * @param maxConcurrent most calls in flight at once
 */
public record ToolLimits(int maxBatch, Duration minInterval, int maxConcurrent) {
    public static final ToolLimits LOCAL_FILE = new ToolLimits(Integer.MAX_VALUE, Duration.ZERO, 1);
}
