package dev.idiom.consistency;

import dev.idiom.consistency.report.SyncRefusedException;
import dev.idiom.events.DigitalEntity;
import dev.idiom.events.EventStore;
import dev.idiom.events.Metadata;
import dev.idiom.events.NewEvent;
import dev.idiom.events.Replica;
import dev.idiom.events.ReplicaLinked;
import dev.idiom.events.UnknownEntityException;
import dev.idiom.wrappers.AnnotationTool;
import dev.idiom.wrappers.RemoteRecord;
import java.util.List;
import java.util.UUID;

/**
 * Upload: a new copy of a DE made in a tool account, forming a replica, recorded as an event.
 * The copy holds what that tool may hold of the DE (no private or acting tags from elsewhere) and
 * is private there if the DE is private anywhere. It is made as a push makes one: under the DE's
 * origin id (so an upload sent again after its answer was lost finds the copy it made rather than
 * making a second), and linked with what the tool holds, not with what was asked of it.
 */
public final class Upload {
    private final EventStore store;
    private final OptimisticRetry retry;
    private final ToolDirectory tools;
    private final AccountExclusion exclusion;

    Upload(EventStore store, OptimisticRetry retry, ToolDirectory tools, AccountExclusion exclusion) {
        this.exclusion = exclusion;
        this.tools = tools;
        this.store = store;
        this.retry = retry;
    }

    /** Creates the copy; refused if the DE has one in this account already. */
    public Replica upload(UUID id, AnnotationTool tool) {
        return exclusion.holding(tool, () -> uploaded(id, tool));
    }

    private Replica uploaded(UUID id, AnnotationTool tool) {
        DigitalEntity de = store.load(id).orElseThrow(() -> new UnknownEntityException(id));
        if (!de.live()) { // in the trash, purged or merged: nothing of it is written to tools
            throw new SyncRefusedException("entity " + id + " is " + de.lifecycle().state().name().toLowerCase(java.util.Locale.ROOT)
                    + (de.lifecycle().trashed() ? ": restore it first (POST /api/entities/" + id + "/restore)" : ""));
        }
        if (!MirrorRules.of(tools).of(tool.kind(), tool.account()).rule().direction().written()) {
            throw new SyncRefusedException(tool.kind() + " " + tool.account() + " is receive-only: Idiom does not write to it");
        }
        de.replicas().stream().filter(r -> AccountReplicas.in(r, tool)).findFirst().ifPresent(r -> {
            throw new SyncRefusedException("entity " + id + " already has a replica in " + tool.kind() + " " + tool.account() + " (" + r.remoteId() + ")");
        });
        Metadata wanted = ReplicaContent.wanted(de, tool, null);
        RemoteRecord created = tool.create(wanted, ReplicaContent.keepPrivate(de), de.id());
        ReplicaLinked link = ReplicaPush.linkOf(tool, wanted, created);
        Replica replica = new Replica(link.tool(), link.account(), link.remoteId(), link.remoteVersion(), link.synced(), null, link.shadow(),
                link.privateCopy());
        // the copy exists remotely now: record it even if the DE moved on meanwhile (the engine pushes the rest)
        NewEvent linked = new NewEvent(UUID.randomUUID(), EventSources.upload(tool.kind()), link);
        retry.appendOnLatest("linking the new copy " + created.remoteId() + " in " + tool.kind() + " to entity " + id, store, id,
                de.version(), List.of(linked));
        return replica;
    }
}
