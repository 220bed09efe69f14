package dev.idiom.events;

/**
 * Major lifecycle event: the DE was moved to Idiom's trash (by a curator, or because its last copy
 * was deleted in an account that propagates deletions). It is restorable until purged; its copies
 * are deleted only in accounts that propagate deletions (the engine's work, not this event's).
 *
 * @param reason why, for the history (e.g. "deleted by a curator")
 */
public record EntityDeleted(String reason) implements EntityEvent {}
