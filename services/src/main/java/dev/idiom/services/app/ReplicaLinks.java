package dev.idiom.services.app;

import dev.idiom.services.tools.UnknownToolAccountException;
import dev.idiom.consistency.ReplicaContent;
import dev.idiom.events.DigitalEntity;
import dev.idiom.events.Metadata;
import dev.idiom.events.EventStore;
import dev.idiom.events.NewEvent;
import dev.idiom.events.Replica;
import dev.idiom.events.ReplicaLinked;
import dev.idiom.events.StaleVersionException;
import dev.idiom.events.UnknownEntityException;
import dev.idiom.services.tools.Tools;
import dev.idiom.wrappers.AnnotationTool;
import dev.idiom.wrappers.RemoteRecord;
import java.util.List;
import java.util.Objects;
import java.util.UUID;

/** Upload = create the record in a tool from a DE, forming a replica, recorded as an event. */
public final class ReplicaLinks {
    private final EventStore store;
    private final EntityWrites writes;
    private final Tools tools;

    public ReplicaLinks(EventStore store, EntityWrites writes, Tools tools) {
        this.tools = tools;
        this.store = store;
        this.writes = writes;
    }

    /** Upload to the configured tool account {@code toolName}. */
    public Replica upload(UUID id, String toolName) {
        AnnotationTool tool;
        try {
            tool = tools.open(toolName);
        } catch (UnknownToolAccountException e) {
            // the body names it, not the address: the entity is there, the account is not (yet)
            throw new ConflictException(e.getMessage());
        }
        return upload(id, tool);
    }

    public Replica upload(UUID id, AnnotationTool tool) {
        DigitalEntity de = store.load(id).orElseThrow(() -> new UnknownEntityException(id));
        de.replicas().stream().filter(r -> r.tool().equals(tool.kind()) && Objects.equals(r.account(), tool.account())).findFirst()
                .ifPresent(r -> {
                    throw new ConflictException("entity " + id + " already has a replica in " + tool.kind() + " " + tool.account()
                            + " (" + r.remoteId() + ")");
                });
        // what this tool may hold of it (no private or acting tags from elsewhere), private there if private anywhere
        Metadata wanted = ReplicaContent.wanted(de, tool, null);
        RemoteRecord created = tool.create(wanted, ReplicaContent.keepPrivate(de));
        Replica replica = new Replica(tool.kind(), tool.account(), created.remoteId(), created.version(), wanted, null, created.shadow(),
                created.privateCopy());
        // the copy exists remotely now: record it even if the DE moved on meanwhile (the engine pushes the rest)
        for (int attempt = 0; ; attempt++) {
            try {
                writes.append(id, de.version(), List.of(new NewEvent(UUID.randomUUID(), "upload:" + tool.kind(),
                        new ReplicaLinked(replica.tool(), replica.account(), replica.remoteId(), replica.remoteVersion(), replica.synced(),
                                replica.shadow(), null, replica.privateCopy()))));
                return replica;
            } catch (StaleVersionException moved) {
                if (attempt == 3) {
                    throw moved;
                }
                de = store.load(id).orElseThrow();
            }
        }
    }
}
