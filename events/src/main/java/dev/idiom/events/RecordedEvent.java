package dev.idiom.events;

import java.time.Instant;
import java.util.UUID;

/**
 * An event as the store keeps it.
 *
 * @param position its place in the global order (follows commit order)
 * @param version its place in the entity's stream, from 1
 * @param recordedAt when it was appended, microsecond precision
 */
public record RecordedEvent(long position, UUID eventId, UUID entityId, int version, String source,
                            Instant recordedAt, EntityEvent event) {}
