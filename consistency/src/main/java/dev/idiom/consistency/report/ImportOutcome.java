package dev.idiom.consistency.report;

import java.util.UUID;

/**
 * What importing one record did.
 *
 * @param entityId the DE it created, merged into or updated (null when skipped)
 * @param reason why it was skipped, or what was left alone
 * @param conflicts fields changed on both sides that a conflict policy decided (kept as ConflictResolved events)
 */
public record ImportOutcome(Kind kind, String remoteId, UUID entityId, String reason, int conflicts) {
    public ImportOutcome(Kind kind, String remoteId, UUID entityId, String reason) {
        this(kind, remoteId, entityId, reason, 0);
    }

    public ImportOutcome withConflicts(int n) {
        return new ImportOutcome(kind, remoteId, entityId, reason, n);
    }

    public enum Kind {
        /** a new DE */
        CREATED,
        /** the record describes a work Idiom had: linked as a replica, empty fields filled */
        MERGED,
        /** an already-linked record changed remotely: its changes applied where Idiom had not changed the field */
        UPDATED,
        /** already imported at this version */
        UNCHANGED,
        /** not imported, see the reason */
        SKIPPED
    }
}
