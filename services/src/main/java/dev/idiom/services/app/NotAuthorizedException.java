package dev.idiom.services.app;

/** The caller did not present the right operator token; nothing was done. */
public final class NotAuthorizedException extends RuntimeException {
    public NotAuthorizedException(String message) {
        super(message);
    }
}
