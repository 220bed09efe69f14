package dev.idiom.consistency;

import dev.idiom.consistency.report.PushOutcome;
import dev.idiom.events.Append;
import dev.idiom.events.AppendOutcome;
import dev.idiom.events.DigitalEntity;
import dev.idiom.events.EventStore;
import dev.idiom.events.NewEvent;
import dev.idiom.events.Outbox;
import dev.idiom.wrappers.AnnotationTool;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Where what a push came to is recorded, in one order for every step: the event (on the DE's
 * newer version if it moved meanwhile: a newer change is owed its own push), then the outbox row,
 * then a change owed again under a copy's new id, then the propagation lag.
 */
final class PushLedger {
    private final EventStore store;
    private final OptimisticRetry retry;
    private final Outbox outbox;
    private final PropagationLag lag;

    PushLedger(EventStore store, OptimisticRetry retry, Outbox outbox, PropagationLag lag) {
        this.store = store;
        this.retry = retry;
        this.outbox = outbox;
        this.lag = lag;
    }

    /** Records {@code r} for the row {@code owed} of {@code de} (null if gone) in {@code tool}'s account (null if none is configured). */
    PushOutcome record(Outbox.Entry owed, DigitalEntity de, AnnotationTool tool, PushResult r) {
        if (r.event() != null) {
            event(de, r.event());
        }
        switch (r.row()) {
            case PushResult.Row.Acknowledged a -> outbox.acknowledged(owed, a.version());
            case PushResult.Row.Parked p -> outbox.park(owed, p.reason());
            case PushResult.Row.Due d -> outbox.retryAt(owed, d.at(), d.error());
        }
        if (r.owedAgainUnder() != null) {
            oweWhatCameMeanwhile(store.load(de.id()).orElseThrow(), tool, r.owedAgainUnder());
        }
        if (r.reached()) {
            lag.acknowledged(Outbox.accountKey(tool.kind(), tool.account()), owed.enqueuedAt());
        }
        return r.outcome();
    }

    /** Appends one step's event to the DE, on its newest version if it moved meanwhile. */
    void event(DigitalEntity de, NewEvent e) {
        retry.appendOnLatest(e.source() + " of entity " + de.id(), store, de.id(), de.version(), List.of(e));
    }

    /**
     * The links of copies made together, in one commit (a DE that moved meanwhile gets its link on
     * its newer version), their rows released in one statement.
     */
    List<PushOutcome> copied(List<Outbox.Entry> owed, List<DigitalEntity> des, List<NewEvent> links, AnnotationTool tool) {
        List<Append> appends = new ArrayList<>();
        for (int k = 0; k < owed.size(); k++) {
            appends.add(new Append(des.get(k).id(), des.get(k).version(), List.of(links.get(k))));
        }
        List<AppendOutcome> committed = appends.isEmpty() ? List.of() : store.appendAll(appends);
        for (int k = 0; k < owed.size(); k++) {
            if (!committed.get(k).succeeded()) {
                retry.appendOnLatest("linking the new copy in " + tool.kind() + " to entity " + des.get(k).id(), store, des.get(k).id(),
                        appends.get(k).expectedVersion(), appends.get(k).events());
            }
            lag.acknowledged(Outbox.accountKey(tool.kind(), tool.account()), owed.get(k).enqueuedAt());
        }
        outbox.doneAll(owed);
        Map<java.util.UUID, DigitalEntity> latest = store.loadAll(des.stream().map(DigitalEntity::id).toList());
        for (int k = 0; k < owed.size(); k++) {
            DigitalEntity now = latest.get(des.get(k).id());
            if (now != null) {
                oweWhatCameMeanwhile(now, tool, ((dev.idiom.events.ReplicaLinked) links.get(k).event()).remoteId());
            }
        }
        return java.util.Collections.nCopies(owed.size(), PushOutcome.COPIED);
    }

    /**
     * A change the DE took while its copy {@code remoteId} was being written (a new copy made from
     * the DE as it was loaded, a copy that took a new id) is owed to that copy now: the row it came
     * with is gone with the write, and the outbox's rule owed it to no copy of that id yet.
     */
    private void oweWhatCameMeanwhile(DigitalEntity latest, AnnotationTool tool, String remoteId) {
        latest.replica(tool.kind(), tool.account(), remoteId)
                .filter(now -> ReplicaContent.owed(latest, tool, now))
                .ifPresent(now -> outbox.owe(latest.id(), now, latest.version()));
    }
}
