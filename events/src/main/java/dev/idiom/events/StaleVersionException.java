package dev.idiom.events;

import java.util.UUID;

/** An append named an expected version that is no longer the entity's; nothing was written. */
public class StaleVersionException extends RuntimeException {
    private final int expected;
    private final int actual;

    public StaleVersionException(UUID entityId, int expected, int actual) {
        super("entity " + entityId + " is at version " + actual + ", not the expected " + expected);
        this.expected = expected;
        this.actual = actual;
    }

    public int expected() {
        return expected;
    }

    public int actual() {
        return actual;
    }
}
