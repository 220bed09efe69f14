package dev.idiom.consistency;

/**
 * The guard against mass deletion: a pull that would unlink more than a share of an account's
 * replicas (default 10%) is held and reported, not applied, until a curator allows it. A tool that
 * lost its data, a wrong account, a truncated export all look like "everything was deleted".
 */
public record DeletionHold(double share) {
    public static final DeletionHold DEFAULT = new DeletionHold(0.10);

    public DeletionHold {
        if (!(share >= 0 && share <= 1)) {
            throw new IllegalArgumentException("the share of replicas a pull may delete is between 0 and 1, got " + share);
        }
    }

    /** True if deleting {@code deletions} of {@code replicas} must wait for a curator. */
    public boolean holds(int deletions, int replicas) {
        return deletions > 0 && deletions > share * replicas;
    }
}
