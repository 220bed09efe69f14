package dev.idiom.consistency.report;

/**
 * A sync, resume, restore or upload the account's current state does not allow (HTTP 409, fault
 * Conflict): the account is paused or held, holds nothing to restore, or already has a copy.
 */
public final class SyncRefusedException extends RuntimeException {
    public SyncRefusedException(String message) {
        super(message);
    }
}
