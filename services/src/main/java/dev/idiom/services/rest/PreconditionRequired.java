package dev.idiom.services.rest;

/** A write came without If-Match (HTTP 428). */
final class PreconditionRequired extends RuntimeException {
    PreconditionRequired(String message) {
        super(message);
    }
}
