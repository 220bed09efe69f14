package dev.idiom.events;

/** Minor event: a tag was added. */
public record TagAdded(String tag) implements EntityEvent {}
