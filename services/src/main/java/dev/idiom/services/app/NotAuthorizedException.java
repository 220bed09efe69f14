package dev.idiom.services.app;

/** The caller presented no key, or one Idiom does not know (or that was revoked); nothing was done. */
public final class NotAuthorizedException extends RuntimeException {
    public NotAuthorizedException(String message) {
        super(message);
    }
}
