package dev.idiom.events;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The pushes owed to replicas (rows written by the append transaction, see {@link OutboxRule}):
 * claimed under a lease so that, however many nodes share the database, each push is made by one
 * of them at a time; deleted only once a push of the DE's version was acknowledged.
 */
public interface Outbox {

    /** One owed push: the replica, the DE version that last enqueued it, and its retry state. */
    record Entry(UUID entityId, String tool, String account, String remoteId, int entityVersion, Instant enqueuedAt, int attempts,
            boolean parked, String lastError) {}

    /**
     * Claims up to {@code max} due, unparked, unleased rows of one tool account (or of any, tool
     * null) for {@code lease} (SELECT … FOR UPDATE SKIP LOCKED); paused accounts' rows are left.
     */
    List<Entry> claim(String owner, int max, Duration lease, String tool, String account);

    /** The tool accounts (tool, account) that have rows due now and not paused. */
    List<String[]> dueAccounts();

    /** The push of {@code pushedVersion} was acknowledged: the row goes unless a newer change re-enqueued it (then its lease ends). */
    void acknowledged(Entry e, int pushedVersion);

    /** Rows whose work was done for good (copies made or removed): they go, whatever version they were owed for. Default: one at a time. */
    default void doneAll(List<Entry> entries) {
        entries.forEach(e -> acknowledged(e, Integer.MAX_VALUE));
    }

    /** Every row owed to one account goes (the account is being removed). Returns how many. */
    int forget(String tool, String account);

    /** The push failed for now: try again at {@code due}. */
    void retryAt(Entry e, Instant due, String error);

    /** The tool refused the push for good: parked with the reason until a new change or a manual retry. */
    void park(Entry e, String reason);

    /** Every parked row of one account due again now (a curator's retry). */
    int unpark(String tool, String account);

    /**
     * The DEs owed a new copy in one account whose copy may have been tried already: claimed by a
     * node (which may have died holding the row) or failed at least once. Such a copy may be in the
     * tool without its link recorded (the answer lost, a crash between the write and its record).
     */
    java.util.Set<UUID> copiesTried(String tool, String account);

    /** Rows owed for one account or all (tool and account null): parked ones first, then by when they were enqueued. */
    List<Entry> list(String tool, String account, int max);

    /** A push to {@code r} is owed for {@code entityVersion} (anti-entropy found the replica behind with nothing enqueued). */
    default void owe(UUID entityId, Replica r, int entityVersion) {
        owe(List.of(new Owed(entityId, r.tool(), r.account(), r.remoteId(), entityVersion)));
    }

    /**
     * Work owed to one account for one DE: a push to its copy {@code remoteId}, or, with the remote
     * id {@link #NEW_COPY}, a copy to be made (a replication rule selects the DE and the account has none).
     */
    record Owed(UUID entityId, String tool, String account, String remoteId, int entityVersion) {}

    /** The remote id of a row that owes a copy not made yet. */
    String NEW_COPY = "";

    /** Enqueues each, in one statement; a row already owed keeps its place and takes the higher version (a parked one owed for a newer version is due again). */
    void owe(List<Owed> owed);

    /** Rows owed per account ({@link #accountKey}): due or retrying, parked, and the oldest enqueue time. */
    record Depth(int pending, int parked, Instant oldest) {}

    Map<String, Depth> depth();

    /** How the engine names a tool account in reports: "kind" or "kind:account". */
    static String accountKey(String tool, String account) {
        return account == null || account.isEmpty() ? tool : tool + ":" + account;
    }
}
