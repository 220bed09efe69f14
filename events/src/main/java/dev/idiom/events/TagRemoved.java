package dev.idiom.events;

/** Minor event: a tag was removed. */
public record TagRemoved(String tag) implements EntityEvent {}
