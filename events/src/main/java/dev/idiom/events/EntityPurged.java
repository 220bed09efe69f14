package dev.idiom.events;

/**
 * The DE left Idiom's trash for good (its retention ran out, or an admin emptied the trash): its
 * content and its copies' records are gone from the projection and it cannot be restored. The
 * events stay (the store is append-only); the links stay so that a copy kept in a tool is known.
 */
public record EntityPurged() implements EntityEvent {}
