package dev.idiom.events;

/**
 * Minor event: a field was changed both in Idiom and in a replica since they last synced, to
 * different values, and a policy chose the winner. Both values and their common base are kept,
 * so nothing is silently lost; the DE's field takes {@code winner}.
 *
 * @param field the field (never tags: tags merge as sets and cannot conflict)
 * @param base the value both sides last agreed on
 * @param idiomValue the value in Idiom
 * @param remoteValue the value in the replica
 * @param winner the value chosen ({@code idiomValue} or {@code remoteValue})
 * @param policy the policy that chose it (prefer-idiom, prefer-remote, last-writer-wins, tool:NAME)
 * @param tool the replica's tool
 * @param account the replica's account
 */
public record ConflictResolved(Field field, Object base, Object idiomValue, Object remoteValue, Object winner, String policy, String tool,
        String account) implements EntityEvent {
    /** The policy that decides nothing: Idiom's value stays for now and the field's pushes wait for a curator. */
    public static final String ASK = "ask";

    public ConflictResolved {
        if (field == Field.TAGS) {
            throw new IllegalArgumentException("tags merge as sets and cannot conflict");
        }
    }
}
