package dev.idiom.consistency.report;

import dev.idiom.events.UnknownEntityException;

/** The DE was deleted: in Idiom's trash (restorable) or purged from it (HTTP 410, fault Gone). */
public class EntityGoneException extends UnknownEntityException {
    public EntityGoneException(String message) {
        super(message);
    }
}
