package dev.idiom.services.app;

/**
 * A well-formed request the resource's current state does not allow (HTTP 409, fault Conflict):
 * a key name already used, a replica that exists, a paused tool account.
 */
public class ConflictException extends RuntimeException {
    public ConflictException(String message) {
        super(message);
    }
}
