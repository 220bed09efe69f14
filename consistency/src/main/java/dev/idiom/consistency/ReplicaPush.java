package dev.idiom.consistency;

import dev.idiom.consistency.report.PushOutcome;
import dev.idiom.events.DigitalEntity;
import dev.idiom.events.EventStore;
import dev.idiom.events.Outbox;
import dev.idiom.wrappers.AnnotationTool;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.logging.Level;

/**
 * The owed writes of one claim carried out: each row decided ({@link PushDecision}), run
 * ({@link ReplicaWrite}) and recorded once ({@link PushLedger}). The copies owed one account
 * together are made with one {@link AnnotationTool#createAll} (as few calls as the tool takes) and
 * linked in one commit. A crash between the tool's acknowledgement and the event re-pushes: the
 * write is changes-only against the last synced record, so the second write sends the same values
 * to the same record (never a second record), or meets the tool's precondition and merges.
 */
public final class ReplicaPush {
    private static final java.util.logging.Logger LOG = java.util.logging.Logger.getLogger(ReplicaPush.class.getName());
    /** Most rows claimed at once, whatever the tool's batch (a file takes any number). */
    static final int MAX_CLAIM = 2_000;

    private final EventStore store;
    private final Pull pull;
    private final ToolDirectory tools;
    private final Mirrors mirrors;
    private final ReplicaWrite write;
    private final PushLedger ledger;
    private final CopyBatch batch;

    ReplicaPush(EventStore store, Pull pull, ToolDirectory tools, Mirrors mirrors, ReplicaWrite write, PushLedger ledger) {
        this.store = store;
        this.pull = pull;
        this.tools = tools;
        this.mirrors = mirrors;
        this.write = write;
        this.ledger = ledger;
        this.batch = new CopyBatch(store, mirrors, write, ledger);
    }

    /** Most rows of one account claimed at once: enough for a tool's batch (Zotero's 50 creates a request), never fewer than a round. */
    int batchSize(String kind, String account) {
        return tools.open(kind, PushDecision.accountOf(account)).map(t -> Math.max(SyncEngine.ROUND, Math.min(MAX_CLAIM, t.limits().maxBatch())))
                .orElse(SyncEngine.ROUND);
    }

    /**
     * One result per row, in order. {@code tried} are the DEs whose copy was tried before this claim
     * (its row claimed by a node that died, or failed): in a tool that keeps no origin such a copy may
     * be there unlinked, and is looked for before it is made again. A row that fails unexpectedly is
     * retried after its lease; one bad row never stops the others.
     */
    public List<PushOutcome> pushAll(List<Outbox.Entry> owed, Set<UUID> tried) {
        if (owed.isEmpty()) {
            return List.of();
        }
        Outbox.Entry first = owed.getFirst();
        AnnotationTool oneTool = owed.stream().allMatch(e -> e.tool().equals(first.tool()) && e.account().equals(first.account()))
                ? tools.open(first.tool(), PushDecision.accountOf(first.account())).orElse(null) : null;
        if (!tried.isEmpty() && oneTool != null && !oneTool.namesOrigin()) {
            Set<UUID> these = new java.util.HashSet<>();
            owed.stream().filter(e -> Outbox.NEW_COPY.equals(e.remoteId()) && tried.contains(e.entityId())).forEach(e -> these.add(e.entityId()));
            if (!these.isEmpty()) {
                pull.adoptOwnCopies(oneTool, these);
            }
        }
        MirrorRules rules = MirrorRules.of(tools); // the rules as they stand, once per claim (each push would read every account again)
        List<PushOutcome> out = new ArrayList<>(java.util.Collections.nCopies(owed.size(), (PushOutcome) null));
        List<Integer> copies = new ArrayList<>();
        for (int i = 0; i < owed.size(); i++) {
            if (Outbox.NEW_COPY.equals(owed.get(i).remoteId())) {
                copies.add(i);
            }
        }
        if (copies.size() > 1 && oneTool != null) {
            try {
                List<PushOutcome> made = batch.copyAll(copies.stream().map(owed::get).toList(), rules.of(oneTool.kind(), oneTool.account()), oneTool);
                for (int k = 0; k < copies.size(); k++) {
                    out.set(copies.get(k), made.get(k));
                }
            } catch (RuntimeException unexpected) {
                LOG.log(Level.WARNING, "copies to " + first.tool() + " " + first.account() + " failed: " + unexpected.getMessage(), unexpected);
                copies.forEach(i -> out.set(i, PushOutcome.RETRY_LATER));
            }
        }
        for (int i = 0; i < owed.size(); i++) {
            if (out.get(i) == null) {
                Outbox.Entry e = owed.get(i);
                try {
                    out.set(i, push(e, rules));
                } catch (RuntimeException unexpected) {
                    LOG.log(Level.WARNING, "push to " + e.tool() + " " + e.account() + " " + e.remoteId() + " failed: " + unexpected.getMessage(), unexpected);
                    out.set(i, PushOutcome.RETRY_LATER);
                }
            }
        }
        return out;
    }

    private PushOutcome push(Outbox.Entry owed, MirrorRules rules) {
        DigitalEntity de = store.load(owed.entityId()).orElse(null);
        String account = PushDecision.accountOf(owed.account());
        AnnotationTool tool = tools.open(owed.tool(), account).orElse(null);
        PushStep step = PushDecision.decide(owed, de, rules.of(owed.tool(), account), tool, PushFacts.of(mirrors, owed.tool(), account));
        return ledger.record(owed, de, tool, write.run(step, owed, de, tool));
    }
}
