package dev.idiom.consistency;

import dev.idiom.consistency.report.AccountConsistency;
import dev.idiom.events.EventStore;
import dev.idiom.events.InvalidValueException;
import dev.idiom.events.Outbox;
import dev.idiom.events.RecordedEvent;
import dev.idiom.events.accounts.SyncState;
import dev.idiom.events.accounts.ToolAccountRepository;
import dev.idiom.wrappers.AnnotationTool;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** What admins read of the engine: each account's consistency, this node's pushes by outcome, and the conflicts it decided. */
public final class ConsistencyReport {
    private final EventStore store;
    private final ToolDirectory tools;
    private final ToolAccountRepository states;
    private final Outbox outbox;
    private final AccountReplicas replicas;
    private final PropagationLag lag;
    private final SyncEngine engine;

    ConsistencyReport(EventStore store, ToolDirectory tools, ToolAccountRepository states, Outbox outbox, AccountReplicas replicas, PropagationLag lag,
            SyncEngine engine) {
        this.store = store;
        this.tools = tools;
        this.states = states;
        this.outbox = outbox;
        this.replicas = replicas;
        this.lag = lag;
        this.engine = engine;
    }

    /** Per configured tool account: replicas in sync, pending, parked and divergent, last pull and push, outbox depth and lag. */
    public List<AccountConsistency> accounts() {
        Map<String, Outbox.Depth> depth = outbox.depth();
        List<AccountConsistency> out = new ArrayList<>();
        for (String name : tools.names()) {
            AnnotationTool tool;
            try {
                tool = tools.open(name);
            } catch (RuntimeException unopenable) {
                continue; // e.g. a secret sealed under another key: shown by the tools listing, not here
            }
            String key = Outbox.accountKey(tool.kind(), tool.account());
            SyncState s = states.syncState(tool.kind(), tool.account());
            Outbox.Depth d = depth.getOrDefault(key, new Outbox.Depth(0, 0, null));
            int count = replicas.count(tool.kind(), tool.account());
            int inSync = Math.max(0, count - d.pending() - d.parked() - s.divergent());
            PropagationLag.Figures f = lag.of(key);
            out.add(new AccountConsistency(name, tool.kind(), tool.account(), s.paused(), HeldDeletions.reasonOf(s.held()), count, inSync, d.pending(),
                    d.parked(), s.divergent(), s.lastPullAt(), s.lastPushAt(), s.lastCheckAt(), d.oldest(),
                    new AccountConsistency.Lag(f.samples(), f.p50(), f.p99(), f.max(), PropagationLag.WINDOW.toMinutes())));
        }
        return out;
    }

    /** Pushes this node made since start, by outcome ({@code pushed}, {@code merged_remote_changes}, {@code parked}, ...). */
    public Map<String, Long> pushOutcomes() {
        Map<String, Long> out = new LinkedHashMap<>();
        engine.outcomes().forEach((o, n) -> out.put(o.name().toLowerCase(Locale.ROOT), n));
        return out;
    }

    /** Conflicts across all DEs, newest first: up to {@code limit} before position {@code before}. */
    public List<RecordedEvent> conflicts(long before, int limit) {
        if (limit < 1 || limit > 1000) {
            throw new InvalidValueException("limit must be between 1 and 1000, got " + limit);
        }
        return store.ofType("ConflictResolved", before <= 0 ? Long.MAX_VALUE : before, limit);
    }

    /** The pushes owed, parked ones included (all accounts). */
    public List<Outbox.Entry> owed(int max) {
        return outbox.list(null, null, max);
    }
}
