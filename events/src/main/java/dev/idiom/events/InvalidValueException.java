package dev.idiom.events;

/** A field value or request that the canonical metadata cannot hold; nothing was written. */
public class InvalidValueException extends RuntimeException {
    public InvalidValueException(String message) {
        super(message);
    }
}
