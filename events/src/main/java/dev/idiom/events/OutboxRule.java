package dev.idiom.events;

import java.util.ArrayList;
import java.util.List;

/**
 * Which replicas a change of a DE must be pushed to: those whose last synced record differs from
 * the DE's new content, when the content changed. A change that came from a replica (its import
 * re-synced that replica to what the tool holds) is not pushed back to it unless the DE holds more
 * than the tool sent; a push's own acknowledgement changes no content, so it enqueues nothing
 * (no echo). A tool that cannot hold every field may be enqueued needlessly; its push then finds
 * nothing to send and makes no remote call.
 */
public final class OutboxRule {
    private OutboxRule() {}

    public static List<Replica> replicasToPush(DigitalEntity before, DigitalEntity after) {
        if (before.metadata().equals(after.metadata()) && before.heldFields().equals(after.heldFields())) {
            return List.of(); // a field whose pushes a settled conflict releases is owed too, though its value may not have changed
        }
        List<Replica> out = new ArrayList<>();
        for (Replica r : after.replicas()) {
            if (owes(after, r)) {
                out.add(r);
            }
        }
        return out;
    }

    /** Whether the copy {@code r} of {@code de} may be owed a push: the DE's content is not what the copy last held (the engine's push decides exactly). */
    public static boolean owes(DigitalEntity de, Replica r) {
        return !de.metadata().equals(r.synced());
    }
}
