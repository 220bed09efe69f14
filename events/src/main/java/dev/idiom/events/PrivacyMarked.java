package dev.idiom.events;

/**
 * Minor event: a curator marked the DE private (only keys allowed to see private records see it),
 * or took the mark away. A DE whose every copy is private is private without a mark; see
 * {@link Visibility}.
 *
 * @param marked true: private whatever its copies; false: as its copies say
 */
public record PrivacyMarked(boolean marked) implements EntityEvent {}
