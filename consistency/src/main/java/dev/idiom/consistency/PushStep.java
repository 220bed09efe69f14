package dev.idiom.consistency;

import dev.idiom.consistency.report.PushOutcome;
import dev.idiom.events.Metadata;
import dev.idiom.events.Replica;

/**
 * What one write Idiom owes a copy comes to ({@link PushDecision}): a step the executor carries
 * out against the tool ({@link ReplicaWrite}), or a settlement that needs no call. A dry run
 * reads the same steps without running them.
 */
sealed interface PushStep {
    /** Send what the copy should hold; {@code takesRemoteChanges}: a change met there is merged in (else written over). */
    record Write(Replica replica, Metadata wanted, boolean takesRemoteChanges) implements PushStep {}

    /**
     * Make a copy holding {@code wanted}, private there if {@code keepPrivate}, under the DE's origin id; {@code source} names the
     * event; {@code form}: another copy in the tool's own form, whose unmodelled parts the new one takes (null: none).
     */
    record Copy(Metadata wanted, boolean keepPrivate, String source, String form) implements PushStep {
        Copy(Metadata wanted, boolean keepPrivate, String source) {
            this(wanted, keepPrivate, source, null);
        }
    }

    /** Take the copy {@code remoteId} a deletion removed back out of the tool's trash, else make it again. */
    record Restore(String remoteId) implements PushStep {}

    /** Delete the copy in the tool (into its trash where it has one) and unlink it; {@code why} says so in the event. */
    record Remove(Replica replica, String why, boolean deletion, boolean takesRemoteChanges) implements PushStep {}

    /** Nothing to write: the row is released as acknowledged up to {@code version}. */
    record Settle(PushOutcome outcome, int version) implements PushStep {}

    /** Nothing can be written until a curator acts: the row is parked with the reason. */
    record Park(String reason) implements PushStep {}

    /** A curator's request that cannot be carried out as asked (an upload), with the reason. */
    record Refuse(String reason) implements PushStep {}

    static Settle settle(PushOutcome outcome) {
        return new Settle(outcome, Integer.MAX_VALUE);
    }
}
