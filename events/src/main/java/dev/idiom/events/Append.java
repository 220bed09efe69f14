package dev.idiom.events;

import java.util.List;
import java.util.UUID;

/**
 * One append request: {@code events} for the entity's stream, if it is at {@code expectedVersion}
 * (0 for a new entity).
 */
public record Append(UUID entityId, int expectedVersion, List<NewEvent> events) {
    public Append {
        events = List.copyOf(events);
        if (events.isEmpty()) {
            throw new IllegalArgumentException("nothing to append");
        }
    }
}
