package dev.idiom.consistency.report;

import dev.idiom.events.ConflictResolved;
import dev.idiom.events.ConflictSettled;
import dev.idiom.events.RecordedEvent;
import java.util.UUID;

/**
 * One conflict as a curator sees it: its id (the {@link ConflictResolved} event's), the event, the
 * DE's title now, and its state.
 *
 * @param state {@code open} (the {@code ask} policy left it to a curator), {@code settled} (a policy chose) or {@code resolved} (a curator chose)
 * @param settledBy the curator's choice once resolved (null before)
 */
public record ConflictEntry(UUID id, RecordedEvent event, String title, String state, ConflictSettled settledBy) {
    public ConflictResolved conflict() {
        return (ConflictResolved) event.event();
    }
}
