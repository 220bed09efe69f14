package dev.idiom.services.app;

/** The caller's key is good but its role does not allow this; nothing was done. */
public final class ForbiddenException extends RuntimeException {
    public ForbiddenException(String message) {
        super(message);
    }
}
