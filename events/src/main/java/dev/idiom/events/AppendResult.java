package dev.idiom.events;

/**
 * What an append did.
 *
 * @param entity the entity after the append
 * @param lastPosition global position of the last appended event
 * @param replayed true when the events had been recorded before and nothing was written now
 * @param json the entity as the projection stores it (its deterministic JSON), so callers need not serialise it again
 */
public record AppendResult(DigitalEntity entity, long lastPosition, boolean replayed, String json) {}
