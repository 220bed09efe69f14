package dev.idiom.consistency;

import dev.idiom.consistency.report.SyncRefusedException;
import dev.idiom.events.Outbox;
import dev.idiom.events.accounts.SyncState;
import dev.idiom.events.accounts.ToolAccountRepository;
import dev.idiom.wrappers.AnnotationTool;
import java.time.Clock;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.UUID;
import java.util.logging.Logger;

/**
 * A curator's say over one account: pause it, resume it (applying what a held pull kept back only
 * when the curator allows deletions), restore what a held pull would have unlinked (the records
 * were deleted by mistake: each is put back in the tool from its DE), retry parked pushes, and
 * remove the account.
 */
public final class AccountHold {
    private static final Logger LOG = Logger.getLogger(AccountHold.class.getName());

    private final ToolDirectory tools;
    private final ToolAccountRepository states;
    private final Deletions deletions;
    private final Upload upload;
    private final Outbox outbox;
    private final Clock clock;
    private final AccountReplicas replicas;
    private final Mirrors mirrors;

    AccountHold(ToolDirectory tools, ToolAccountRepository states, Deletions deletions, Upload upload, Outbox outbox, AccountReplicas replicas,
                Mirrors mirrors, Clock clock) {
        this.replicas = replicas;
        this.mirrors = mirrors;
        this.tools = tools;
        this.states = states;
        this.deletions = deletions;
        this.upload = upload;
        this.outbox = outbox;
        this.clock = clock;
    }

    /** No pull or push until it is resumed. */
    public SyncState pause(String name) {
        AnnotationTool tool = tools.open(name);
        return states.updateSyncState(tool.kind(), tool.account(), s -> s.paused(true), clock.instant());
    }

    /** Resumes the account. A hold is released only with {@code allowDeletions} (the curator has looked): then the deletions it kept are applied. */
    public SyncState resume(String name, boolean allowDeletions) {
        AnnotationTool tool = tools.open(name);
        HeldDeletions held = HeldDeletions.read(states.syncState(tool.kind(), tool.account()).held());
        if (held != null && !allowDeletions) {
            throw new SyncRefusedException("tool account '" + name + "' is held: " + held.reason()
                    + "; resume with allowDeletions=true once you have checked the tool");
        }
        if (held != null) {
            deletions.apply(tool, held.deletions(), true);
            mirrors.allowRemovals(tool.kind(), tool.account()); // a replication rule's removals held: allowed now
        }
        return states.updateSyncState(tool.kind(), tool.account(), s -> s.paused(false), clock.instant());
    }

    /** Rejects a held mass deletion: each record is put back in the tool (the gone copy unlinked, a new one uploaded); returns how many. */
    public int restore(String name) {
        AnnotationTool tool = tools.open(name);
        HeldDeletions held = HeldDeletions.read(states.syncState(tool.kind(), tool.account()).held());
        if (held == null) {
            throw new SyncRefusedException("tool account '" + name + "' holds nothing to restore");
        }
        if (held.deletions().isEmpty()) {
            throw new SyncRefusedException("tool account '" + name + "' is held for another reason than deletions (" + held.reason()
                    + "); check the tool and resume with allowDeletions=true");
        }
        Map<String, UUID> linked = deletions.holders(tool, held.deletions());
        deletions.unlink(tool, held.deletions(), linked, "deleted in " + tool.kind() + " " + tool.account() + "; put back by a curator");
        int restored = 0;
        for (UUID entity : new LinkedHashSet<>(linked.values())) {
            try {
                upload.upload(entity, tool);
                restored++;
            } catch (SyncRefusedException another) {
                // the DE has another copy in this account already: nothing to put back
            }
        }
        LOG.info("restored " + restored + " records in " + tool.kind() + " " + tool.account() + " that a held pull would have unlinked");
        states.updateSyncState(tool.kind(), tool.account(), s -> s.paused(false), clock.instant());
        return restored;
    }

    /**
     * Removes the account: every copy in it unlinked (the records stay in the tool), what it was
     * owed dropped, and the account forgotten with its secret, cursor and state. Returns how many
     * copies were unlinked. Safe to run again if it was cut short: the account goes last.
     */
    public int remove(String name) {
        AnnotationTool tool = tools.open(name);
        String library = tool.account() == null ? "" : tool.account();
        java.util.Optional<String> sharing = tools.configured().stream().filter(a -> !a.name().equals(name) && a.kind().equals(tool.kind())
                && (a.account() == null ? "" : a.account()).equals(library)).map(ToolDirectory.Account::name).findFirst();
        if (sharing.isPresent()) { // another account names the same library (saved before two were refused): the copies are its too
            states.forget(name);
            LOG.warning("removed tool account " + name + " (" + tool.kind() + " " + tool.account() + "): its copies stay linked, as tool account "
                    + sharing.get() + " names the same library");
            return 0;
        }
        Map<String, UUID> linked = new java.util.LinkedHashMap<>();
        replicas.forEach(tool, (de, r) -> linked.put(r.remoteId(), de.id()));
        deletions.unlink(tool, new java.util.ArrayList<>(linked.keySet()), linked, "its tool account " + name + " was removed",
                EventSources.accountRemoved(tool), false);
        outbox.forget(tool.kind(), tool.account());
        states.remove(name, tool.kind(), tool.account());
        LOG.info("removed tool account " + name + " (" + tool.kind() + " " + tool.account() + "): " + linked.size() + " copies unlinked");
        return linked.size();
    }

    /** Parked pushes of the account are due again now (the curator fixed the record, or the tool); returns how many. */
    public int retryParked(String name) {
        AnnotationTool tool = tools.open(name);
        return outbox.unpark(tool.kind(), tool.account());
    }
}
