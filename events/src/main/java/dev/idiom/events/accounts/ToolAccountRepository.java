package dev.idiom.events.accounts;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The relational state of tool accounts, outside the event log: the accounts and where the last
 * import from each stopped. Adapters sit beside the event-store adapters.
 */
public interface ToolAccountRepository {
    /** Creates the account or replaces the one of the same name. */
    void save(StoredToolAccount account);

    /** Every account, by name. */
    List<StoredToolAccount> list();

    Optional<StoredToolAccount> find(String name);

    /** Where the last import from this tool account stopped, if one did. */
    Optional<String> cursor(String kind, String account);

    void saveCursor(String kind, String account, String cursor, Instant at);

    /** The engine's state of this tool account (the initial state if none was saved). */
    SyncState syncState(String kind, String account);

    /** The engine's state of every tool account that has one. */
    List<SyncState> syncStates();

    void saveSyncState(SyncState state, Instant at);

    /** Applies {@code change} to the account's state under a row lock, so two nodes cannot lose each other's update. */
    SyncState updateSyncState(String kind, String account, java.util.function.UnaryOperator<SyncState> change, Instant at);

    /**
     * Replaces every stored sealed secret by {@code reseal} of its account (the row as stored), all in
     * one transaction: if any throws, none is changed. Returns how many were resealed.
     */
    int resealSecrets(java.util.function.Function<StoredToolAccount, String> reseal, Instant at);

    /**
     * Forgets the account called {@code name} (its copies named {@code kind}/{@code account}): the
     * account and its sealed secret, its cursor, its engine state, its mirror plan and its call turns,
     * in one transaction. Returns false if there was no such account.
     */
    boolean remove(String name, String kind, String account);

    /**
     * Forgets the account row called {@code name} alone (its sealed secret with it), leaving the state
     * of its copies to another account that names the same library. Returns false if there was none.
     */
    boolean forget(String name);

    /** How far the account's replication rule has been planned, if it ever was. */
    Optional<MirrorPlan> mirrorPlan(String kind, String account);

    /** Saves how far planning got: under the same rule a position only moves on; a new rule's plan replaces the old. */
    void saveMirrorPlan(String kind, String account, MirrorPlan plan, Instant at);
}
