package dev.idiom.consistency.report;

import dev.idiom.events.UnknownEntityException;
import java.util.UUID;

/** The DE was merged into another: its id answers with the winner's (HTTP 308 to it, fault Moved naming it). */
public class EntityMovedException extends UnknownEntityException {
    private final UUID winner;

    public EntityMovedException(UUID id, UUID winner) {
        super("entity " + id + " was merged into " + winner + "; ask for " + winner);
        this.winner = winner;
    }

    public UUID winner() {
        return winner;
    }
}
