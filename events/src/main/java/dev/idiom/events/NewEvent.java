package dev.idiom.events;

import java.util.UUID;

/**
 * An event to append. The id makes a retried append a no-op.
 *
 * @param eventId unique per event, chosen by the caller (or the client, for idempotent retries)
 * @param source who caused it: "user:…", "portal:…", "replica:…", "idiom"
 * @param event what happened
 */
public record NewEvent(UUID eventId, String source, EntityEvent event) {
    public NewEvent {
        if (source == null || source.isBlank()) {
            throw new IllegalArgumentException("an event needs a source");
        }
        if (source.length() > 200) {
            throw new InvalidValueException("source is at most 200 characters");
        }
    }
}
