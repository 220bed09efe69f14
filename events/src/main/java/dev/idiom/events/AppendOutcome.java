package dev.idiom.events;

/**
 * What became of one append in a batch: its result, or why it alone was refused (a stale version,
 * an invalid value, event ids used before by a different append). A refused append wrote nothing.
 */
public record AppendOutcome(AppendResult result, RuntimeException failure) {

    public static AppendOutcome of(AppendResult result) {
        return new AppendOutcome(result, null);
    }

    public static AppendOutcome refused(RuntimeException failure) {
        return new AppendOutcome(null, failure);
    }

    public boolean succeeded() {
        return failure == null;
    }

    /** The result, or the refusal thrown as it was raised. */
    public AppendResult get() {
        if (failure != null) {
            throw failure;
        }
        return result;
    }
}
