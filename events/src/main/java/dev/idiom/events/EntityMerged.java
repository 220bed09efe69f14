package dev.idiom.events;

import java.util.UUID;

/**
 * The DE was merged into {@code into} (two DEs of one work the matcher missed): its replicas moved
 * there (each a {@link ReplicaLinked} on the winner) and its id now answers with the winner.
 *
 * @param duplicates its copies in accounts where the winner has one already: they stay linked here
 *     (the winner keeps one copy per account), to be removed from their tools where the account
 *     propagates deletions, left for a curator to remove where it keeps them
 */
public record EntityMerged(UUID into, java.util.List<DigitalEntity.CopyId> duplicates) implements EntityEvent {
    public EntityMerged {
        duplicates = duplicates == null ? java.util.List.of() : java.util.List.copyOf(duplicates);
    }

    public EntityMerged(UUID into) {
        this(into, java.util.List.of());
    }
}
