package dev.idiom.wrappers;

/** A tool call failed; the message says how, for a person to act on. */
public class ToolException extends RuntimeException {
    public ToolException(String message) {
        super(message);
    }

    public ToolException(String message, Throwable cause) {
        super(message, cause);
    }
}
