package dev.idiom.services.app;

/** No active API key has that name. */
public final class UnknownKeyException extends RuntimeException {
    public UnknownKeyException(String name) {
        super("no active API key named '" + name + "'");
    }
}
