package dev.idiom.services.rest;

/** A request body over the configured limit (HTTP 413). */
public final class BodyTooLarge extends RuntimeException {
    public BodyTooLarge(long limit) {
        super("request body is larger than the limit of " + limit + " bytes");
    }
}
