package dev.idiom.consistency;

import dev.idiom.consistency.report.Progress;
import dev.idiom.consistency.report.PushOutcome;
import dev.idiom.consistency.report.SyncRefusedException;
import dev.idiom.consistency.report.SyncReport;
import dev.idiom.events.accounts.SyncState;
import dev.idiom.events.accounts.ToolAccountRepository;
import dev.idiom.wrappers.AnnotationTool;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * A curator's sync of one account: pull (deletions held past the account's share unless the
 * curator allows them; none from a send-only account), plan what the replication rules owe, then
 * push until nothing is due; the report says what came in, what went
 * out, what is still owed and which tags the account's copies do not get.
 */
public final class AccountSync {
    /** Most DEs a sync report names with tags left out of their copies. */
    static final int WITHHELD_SAMPLES = 100;

    private final ToolDirectory tools;
    private final ToolAccountRepository states;
    private final AccountPull pull;
    private final AccountHold holds;
    private final SyncEngine engine;
    private final AccountReplicas replicas;
    private final Mirrors mirrors;

    AccountSync(ToolDirectory tools, ToolAccountRepository states, AccountPull pull, AccountHold holds, SyncEngine engine, AccountReplicas replicas,
            Mirrors mirrors) {
        this.mirrors = mirrors;
        this.tools = tools;
        this.states = states;
        this.pull = pull;
        this.holds = holds;
        this.engine = engine;
        this.replicas = replicas;
    }

    public SyncReport sync(String name, boolean allowDeletions, Progress progress) {
        AnnotationTool tool = tools.open(name);
        SyncState state = states.syncState(tool.kind(), tool.account());
        if (state.paused() && !allowDeletions) {
            throw new SyncRefusedException("tool account '" + name + "' is " + (state.held() == null ? "paused" : "held: " + HeldDeletions.reasonOf(state.held()))
                    + "; resume it first (POST /api/tools/" + name + "/resume" + (state.held() == null ? "" : "?allowDeletions=true to apply what was held") + ")");
        }
        if (allowDeletions && state.held() != null) {
            holds.resume(name, true);
        }
        AccountPull.Pulled p;
        String queued = null;
        try {
            p = pull.run(tool.answeringAtOnce(), allowDeletions, progress); // a curator is answered now, not after a tool's turn comes
        } catch (dev.idiom.wrappers.ToolTurnException notYet) {
            p = new AccountPull.Pulled(new dev.idiom.consistency.report.ImportSummary(), 0, null);
            queued = notYet.getMessage();
        }
        mirrors.planAll(); // what came in may be owed to the accounts whose rules select it (and this account's rule to it)
        Map<PushOutcome, Integer> pushed = engine.drain(1000);
        return new SyncReport(name, p.summary(), p.unlinked(), p.held(), pushed, engine.outbox().list(tool.kind(), tool.account(), 1000),
                withheldTags(tool), queued);
    }

    /** The tags the account's copies do not get (and why the engine does not owe them), for the curator to see. */
    private Map<UUID, Set<String>> withheldTags(AnnotationTool tool) {
        Map<UUID, Set<String>> out = new LinkedHashMap<>();
        replicas.forEach(tool, (de, r) -> {
            Set<String> left = ReplicaContent.withheldTags(de, tool, r);
            if (!left.isEmpty() && out.size() < WITHHELD_SAMPLES) {
                out.put(de.id(), left);
            }
        }, () -> out.size() >= WITHHELD_SAMPLES);
        return out;
    }
}
