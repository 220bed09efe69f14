package dev.idiom.wrappers;

import java.time.Duration;
import java.time.Instant;

/**
 * A call the tool allows only at a later time (Pinboard's {@code posts/all}: once per five minutes)
 * was not made, because the caller asked to be answered at once rather than wait for its turn.
 */
public class ToolTurnException extends ToolException {
    private final Instant next;

    public ToolTurnException(String message, Instant next, Duration wait) {
        super(message, null, wait);
        this.next = next;
    }

    /** When the call may be made. */
    public Instant next() {
        return next;
    }
}
