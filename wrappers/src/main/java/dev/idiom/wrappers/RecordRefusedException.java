package dev.idiom.wrappers;

/**
 * The tool refuses this record for good (a field over its limit, a required field missing, a 4xx
 * answer that retrying cannot change): a push that meets it is parked with the reason, not retried.
 */
public class RecordRefusedException extends ToolException {
    public RecordRefusedException(String message) {
        super(message);
    }
}
