package dev.idiom.wrappers;

import java.time.Duration;

/** A tool call failed; the message says how, for a person to act on. */
public class ToolException extends RuntimeException {
    private final transient Duration retryAfter;

    public ToolException(String message) {
        this(message, null, null);
    }

    public ToolException(String message, Throwable cause) {
        this(message, cause, null);
    }

    /** @param retryAfter how long the tool asked callers to wait ({@code Retry-After}, {@code Backoff}), or null */
    public ToolException(String message, Throwable cause, Duration retryAfter) {
        super(message, cause);
        this.retryAfter = retryAfter;
    }

    /** How long the tool asked callers to wait before the next try, if it said. */
    public java.util.Optional<Duration> retryAfter() {
        return java.util.Optional.ofNullable(retryAfter);
    }
}
