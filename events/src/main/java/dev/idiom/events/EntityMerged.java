package dev.idiom.events;

import java.util.UUID;

/**
 * The DE was merged into {@code into} (two DEs of one work the matcher missed): its replicas moved
 * there (each a {@link ReplicaLinked} on the winner) and its id now answers with the winner.
 */
public record EntityMerged(UUID into) implements EntityEvent {}
