package dev.idiom.events;

/** The DE was taken out of Idiom's trash: live again, and its copies that the deletion removed are made again. */
public record EntityRestored() implements EntityEvent {}
