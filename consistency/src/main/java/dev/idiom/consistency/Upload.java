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
 * is private there if the DE is private anywhere.
 */
public final class Upload {
    private final EventStore store;
    private final EntityAppends appends;
    private final OptimisticRetry retry;
    private final ToolDirectory tools;

    public Upload(EventStore store, EntityAppends appends, OptimisticRetry retry, ToolDirectory tools) {
        this.tools = tools;
        this.store = store;
        this.appends = appends;
        this.retry = retry;
    }

    /** Creates the copy; refused if the DE has one in this account already. */
    public Replica upload(UUID id, AnnotationTool tool) {
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
        RemoteRecord created = tool.create(wanted, ReplicaContent.keepPrivate(de));
        Replica replica = new Replica(tool.kind(), tool.account(), created.remoteId(), created.version(), wanted, null, created.shadow(),
                created.privateCopy());
        // the copy exists remotely now: record it even if the DE moved on meanwhile (the engine pushes the rest)
        NewEvent linked = new NewEvent(UUID.randomUUID(), EventSources.upload(tool.kind()), new ReplicaLinked(replica.tool(), replica.account(),
                replica.remoteId(), replica.remoteVersion(), replica.synced(), replica.shadow(), null, replica.privateCopy()));
        retry.appendOnLatest("linking the new copy " + created.remoteId() + " in " + tool.kind() + " to entity " + id, appends, store, id,
                de.version(), List.of(linked));
        return replica;
    }
}
