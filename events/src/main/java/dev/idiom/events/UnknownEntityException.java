package dev.idiom.events;

import java.util.UUID;

/** No digital entity has this id. */
public class UnknownEntityException extends RuntimeException {
    public UnknownEntityException(UUID id) {
        super("no digital entity with id " + id);
    }
}
