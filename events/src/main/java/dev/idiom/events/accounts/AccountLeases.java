package dev.idiom.events.accounts;

import java.time.Instant;

/**
 * Who may work on a tool account now, across the nodes that share one database: a lease a node
 * takes before it reads or writes the account's copies, renews while it works, and gives back
 * after. A node that dies holding one delays the account by at most the lease's length; a node
 * that restarts under the same holder name takes its own lease back at once.
 */
public interface AccountLeases {
    /** True if {@code holder} now holds the account's lease until {@code until} (taken, or renewed); false if another holds it. */
    boolean take(String account, String holder, Instant now, Instant until);

    /** Gives the lease back (nothing if {@code holder} does not hold it). */
    void release(String account, String holder);

    /** One node alone on its store: this process's own exclusion is all there is. */
    AccountLeases ALONE = new AccountLeases() {
        @Override
        public boolean take(String account, String holder, Instant now, Instant until) {
            return true;
        }

        @Override
        public void release(String account, String holder) {
        }
    };
}
