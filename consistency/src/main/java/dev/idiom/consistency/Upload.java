package dev.idiom.consistency;

import dev.idiom.consistency.report.SyncRefusedException;
import dev.idiom.events.DigitalEntity;
import dev.idiom.events.EventStore;
import dev.idiom.events.NewEvent;
import dev.idiom.events.Replica;
import dev.idiom.events.ReplicaLinked;
import dev.idiom.events.UnknownEntityException;
import dev.idiom.wrappers.AnnotationTool;
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
    private final ToolDirectory tools;
    private final AccountExclusion exclusion;
    private final ReplicaWrite write;
    private final PushLedger ledger;

    Upload(EventStore store, ToolDirectory tools, AccountExclusion exclusion, ReplicaWrite write, PushLedger ledger) {
        this.store = store;
        this.tools = tools;
        this.exclusion = exclusion;
        this.write = write;
        this.ledger = ledger;
    }

    /** Creates the copy; refused if the DE is not live, the account receive-only, or the DE has a copy there already. */
    public Replica upload(UUID id, AnnotationTool tool) {
        return exclusion.holding(tool, () -> uploaded(id, tool));
    }

    private Replica uploaded(UUID id, AnnotationTool tool) {
        DigitalEntity de = store.load(id).orElseThrow(() -> new UnknownEntityException(id));
        PushStep step = PushDecision.upload(de, MirrorRules.of(tools).of(tool.kind(), tool.account()), tool);
        if (step instanceof PushStep.Refuse refused) {
            throw new SyncRefusedException(refused.reason());
        }
        PushStep.Copy copy = (PushStep.Copy) step;
        ReplicaLinked link = write.make(tool, de, copy);
        // the copy exists remotely now: record it even if the DE moved on meanwhile (the engine pushes the rest)
        ledger.event(de, new NewEvent(UUID.randomUUID(), copy.source(), link));
        return new Replica(link.tool(), link.account(), link.remoteId(), link.remoteVersion(), link.synced(), null, link.shadow(), link.privateCopy());
    }
}
