package dev.idiom.events;

import java.io.Serializable;
import java.time.Instant;
import java.util.UUID;

/**
 * Where a DE stands in its life: live, in Idiom's trash (restorable), purged from the trash (its
 * content gone, its copies' links kept so that a copy kept in a tool is not brought in again), or
 * merged into another DE (its id answers with the winner's).
 *
 * @param since when it was trashed or purged (null when live or merged)
 * @param mergedInto the DE it was merged into (only when merged)
 */
public record Lifecycle(State state, Instant since, UUID mergedInto) implements Serializable {
    public enum State { LIVE, TRASHED, PURGED, MERGED }

    public static final Lifecycle LIVE = new Lifecycle(State.LIVE, null, null);

    public boolean live() {
        return state == State.LIVE;
    }

    public boolean trashed() {
        return state == State.TRASHED;
    }
}
