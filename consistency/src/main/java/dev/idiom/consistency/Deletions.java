package dev.idiom.consistency;

import dev.idiom.events.DigitalEntity;
import dev.idiom.events.EntityDeleted;
import dev.idiom.events.EventStore;
import dev.idiom.events.NewEvent;
import dev.idiom.events.Replica;
import dev.idiom.events.ReplicaUnlinked;
import dev.idiom.events.accounts.ToolAccountRepository;
import dev.idiom.wrappers.AnnotationTool;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.logging.Logger;

/**
 * Copies deleted in a tool: their replicas are unlinked (an event; the DE stays, except that the
 * last copy of a DE deleted in an account that propagates deletions moves the DE to Idiom's trash
 * with it), unless that
 * would unlink more of the account's replicas than the {@link DeletionHold} allows, in which case
 * the account is held with the deletions kept for a curator. A copy whose DE still has another
 * copy in the same account moved (a new URL, a new hash); it was not deleted, and does not count
 * toward the hold.
 */
public final class Deletions {
    private static final Logger LOG = Logger.getLogger(Deletions.class.getName());

    /** How many copies were unlinked, and why the rest were held (null: none held). */
    public record Applied(int unlinked, String held) {}

    private final EventStore store;
    private final ToolAccountRepository states;
    private final DeletionHold hold;
    private final AccountReplicas replicas;
    private final OptimisticRetry retry;
    private final Clock clock;
    private final ToolDirectory tools;

    Deletions(EventStore store, AccountReplicas replicas, ToolAccountRepository states, DeletionHold hold, OptimisticRetry retry,
            Clock clock, ToolDirectory tools) {
        this.tools = tools;
        this.store = store;
        this.states = states;
        this.hold = hold;
        this.replicas = replicas;
        this.retry = retry;
        this.clock = clock;
    }

    /** Unlinks the copies the tool deleted, or holds the account ({@code allowed}: the curator has looked, nothing is held). */
    public Applied apply(AnnotationTool tool, List<String> remoteIds, boolean allowed) {
        if (remoteIds.isEmpty()) {
            return new Applied(0, null);
        }
        Map<String, UUID> linked = replicas.holders(tool, remoteIds);
        if (linked.isEmpty()) {
            return new Applied(0, null); // deletions of records Idiom never held
        }
        Map<UUID, DigitalEntity> des = store.loadAll(new HashSet<>(linked.values()));
        List<String> deleted = new ArrayList<>();
        List<String> moved = new ArrayList<>();
        for (Map.Entry<String, UUID> e : linked.entrySet()) {
            DigitalEntity de = des.get(e.getValue());
            long copiesHere = de == null ? 0 : de.replicas().stream().filter(r -> AccountReplicas.in(r, tool)).count();
            (copiesHere > 1 ? moved : deleted).add(e.getKey());
        }
        int count = replicas.count(tool.kind(), tool.account());
        unlink(tool, moved, linked, "moved in " + tool.kind());
        if (!allowed && hold.holds(deleted.size(), count)) {
            String why = String.format("a pull would unlink %d of the %d replicas in %s %s (more than %.0f%%); e.g. %s", deleted.size(), count,
                    tool.kind(), tool.account(), hold.share() * 100, sample(deleted, linked, des));
            hold(tool, new HeldDeletions(why, deleted));
            return new Applied(moved.size(), why);
        }
        boolean propagates = MirrorRules.of(tools).of(tool.kind(), tool.account()).rule().propagatesDeletions();
        unlink(tool, deleted, linked, "deleted in " + tool.kind() + " " + tool.account(), EventSources.replica(tool), propagates);
        return new Applied(moved.size() + deleted.size(), null);
    }

    /** Holds the account: nothing is pulled or pushed until a curator resumes it; held deletions are kept for that. */
    void hold(AnnotationTool tool, HeldDeletions held) {
        states.updateSyncState(tool.kind(), tool.account(), s -> s.held(held.json()), clock.instant());
        LOG.warning("tool account held: " + held.reason());
    }

    /** Unlinks each copy that is still linked (an event on its DE, through the one write door). */
    void unlink(AnnotationTool tool, List<String> remoteIds, Map<String, UUID> linked, String reason) {
        unlink(tool, remoteIds, linked, reason, EventSources.replica(tool), false);
    }

    /**
     * As {@link #unlink(AnnotationTool, List, Map, String)}, the events naming {@code source};
     * {@code deletesLast}: a live DE left without any copy goes to Idiom's trash in the same commit.
     */
    void unlink(AnnotationTool tool, List<String> remoteIds, Map<String, UUID> linked, String reason, String source, boolean deletesLast) {
        for (String id : remoteIds) {
            UUID entity = linked.get(id);
            retry.run("unlinking " + tool.kind() + " " + tool.account() + " " + id, () -> {
                DigitalEntity de = store.load(entity).orElse(null);
                Replica r = de == null ? null : de.replica(tool.kind(), tool.account(), id).orElse(null);
                if (r != null) {
                    List<NewEvent> events = new ArrayList<>(List.of(new NewEvent(UUID.randomUUID(), source,
                            new ReplicaUnlinked(r.tool(), r.account(), r.remoteId(), r.synced(), reason))));
                    if (deletesLast && de.live() && de.replicas().size() == 1) {
                        events.add(new NewEvent(UUID.randomUUID(), source, new EntityDeleted(reason + ", its last copy")));
                    }
                    store.append(entity, de.version(), events);
                }
                return r;
            });
        }
    }

    Map<String, UUID> holders(AnnotationTool tool, List<String> remoteIds) {
        return replicas.holders(tool, remoteIds);
    }

    private static String sample(List<String> deleted, Map<String, UUID> linked, Map<UUID, DigitalEntity> des) {
        List<String> out = new ArrayList<>();
        for (String id : deleted.subList(0, Math.min(5, deleted.size()))) {
            DigitalEntity de = des.get(linked.get(id));
            out.add(id + (de == null || de.metadata().title() == null ? "" : " \"" + de.metadata().title() + "\""));
        }
        return String.join(", ", out);
    }
}
