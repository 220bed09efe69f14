package dev.idiom.consistency;

import dev.idiom.consistency.report.PushOutcome;
import dev.idiom.events.DigitalEntity;
import dev.idiom.events.EventStore;
import dev.idiom.events.NewEvent;
import dev.idiom.events.Outbox;
import dev.idiom.wrappers.AnnotationTool;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The copies owed one account in a claim, made together: each row decided as a single row is
 * ({@link PushDecision}), those still owed a copy made with one {@link AnnotationTool#createAll}
 * (as few calls as the tool takes: Zotero's 50 a request) and linked in one commit.
 */
final class CopyBatch {
    private final EventStore store;
    private final Mirrors mirrors;
    private final ReplicaWrite write;
    private final PushLedger ledger;

    CopyBatch(EventStore store, Mirrors mirrors, ReplicaWrite write, PushLedger ledger) {
        this.store = store;
        this.mirrors = mirrors;
        this.write = write;
        this.ledger = ledger;
    }

    /** One outcome per row, in order. */
    List<PushOutcome> copyAll(List<Outbox.Entry> owed, MirrorRules.Selection rule, AnnotationTool tool) {
        Map<UUID, DigitalEntity> des = store.loadAll(owed.stream().map(Outbox.Entry::entityId).toList());
        PushFacts facts = PushFacts.of(mirrors, tool.kind(), tool.account(), mirrors.deletedThere(des.keySet(), tool.kind(), tool.account()));
        List<PushOutcome> out = new ArrayList<>(java.util.Collections.nCopies(owed.size(), (PushOutcome) null));
        List<Integer> toMake = new ArrayList<>();
        List<PushStep.Copy> steps = new ArrayList<>();
        List<AnnotationTool.NewCopy> copies = new ArrayList<>();
        for (int i = 0; i < owed.size(); i++) {
            Outbox.Entry e = owed.get(i);
            DigitalEntity de = des.get(e.entityId());
            PushStep step = PushDecision.decide(e, de, rule, tool, facts);
            if (step instanceof PushStep.Copy c) {
                toMake.add(i);
                steps.add(c);
                copies.add(new AnnotationTool.NewCopy(c.wanted(), c.keepPrivate(), e.entityId(), c.form()));
            } else {
                out.set(i, ledger.record(e, de, tool, write.run(step, e, de, tool)));
            }
        }
        if (toMake.isEmpty()) {
            return out;
        }
        List<AnnotationTool.Made> made = tool.createAll(copies);
        List<Integer> linked = new ArrayList<>();
        List<NewEvent> links = new ArrayList<>();
        for (int k = 0; k < toMake.size(); k++) {
            int i = toMake.get(k);
            Outbox.Entry e = owed.get(i);
            AnnotationTool.Made m = made.get(k);
            if (m.failure() != null) {
                out.set(i, ledger.record(e, des.get(e.entityId()), tool, write.notTaken(e, m.failure())));
            } else {
                linked.add(i);
                links.add(new NewEvent(UUID.randomUUID(), steps.get(k).source(), ReplicaWrite.linkOf(tool, steps.get(k).wanted(), m.record())));
            }
        }
        List<PushOutcome> copied = ledger.copied(linked.stream().map(owed::get).toList(), linked.stream().map(i -> des.get(owed.get(i).entityId())).toList(),
                links, tool);
        for (int k = 0; k < linked.size(); k++) {
            out.set(linked.get(k), copied.get(k));
        }
        return out;
    }
}
