package dev.idiom.consistency;

import dev.idiom.events.DigitalEntity;
import dev.idiom.events.Replica;
import java.util.List;
import java.util.Set;
import java.util.UUID;

/**
 * What a push decision needs of a DE's history in one account, beside the DE itself: read from the
 * store for a real push or a dry run ({@link #of}), given as values in a decision test.
 */
interface PushFacts {
    /** True if a curator deleted (or unlinked) this DE's copy in the account: a rule does not put it back. */
    boolean deletedThere(UUID id);

    /** The copies of this DE that Idiom's deletion removed from the account since it was last deleted. */
    List<String> removedByDeletion(UUID id);

    /** True if a replication rule made this copy (not the account's own record, nor a curator's upload). */
    boolean madeByRule(DigitalEntity de, Replica r);

    /** A DE with no history in the account yet (one a dry run's pull would make). */
    PushFacts NONE = new PushFacts() {
        @Override
        public boolean deletedThere(UUID id) {
            return false;
        }

        @Override
        public List<String> removedByDeletion(UUID id) {
            return List.of();
        }

        @Override
        public boolean madeByRule(DigitalEntity de, Replica r) {
            return false;
        }
    };

    /** The facts as the store holds them, each read only when a decision asks; {@code deletedThere} read ahead for a batch. */
    static PushFacts of(Mirrors mirrors, String kind, String account, Set<UUID> deletedThere) {
        return new PushFacts() {
            @Override
            public boolean deletedThere(UUID id) {
                return deletedThere != null ? deletedThere.contains(id) : !mirrors.deletedThere(List.of(id), kind, account).isEmpty();
            }

            @Override
            public List<String> removedByDeletion(UUID id) {
                return mirrors.removedByDeletion(List.of(id), kind, account).getOrDefault(id, List.of());
            }

            @Override
            public boolean madeByRule(DigitalEntity de, Replica r) {
                return mirrors.madeByRule(de, r);
            }
        };
    }

    /** As above, each fact read when asked. */
    static PushFacts of(Mirrors mirrors, String kind, String account) {
        return of(mirrors, kind, account, null);
    }
}
