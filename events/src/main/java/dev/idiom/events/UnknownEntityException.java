package dev.idiom.events;

import java.util.UUID;

/** No digital entity has this id. */
public class UnknownEntityException extends RuntimeException {
    public UnknownEntityException(UUID id) {
        super("no digital entity with id " + id);
    }

    /** The entity exists, but not as asked: not yet at that time, or not at that version. */
    public UnknownEntityException(String message) {
        super(message);
    }
}
