package dev.idiom.services.app;

import dev.idiom.consistency.PushOutcome;
import dev.idiom.consistency.SyncEngine;
import dev.idiom.events.Outbox;
import dev.idiom.services.tools.Tools;
import dev.idiom.wrappers.AnnotationTool;
import java.util.List;
import java.util.Map;

/**
 * A curator's sync of one tool account: pull what changed there (the import, which merges with the
 * account's conflict policy), then push every change owed to replicas until nothing is due. The
 * engine also pushes in the background; this runs a round at once and reports it.
 */
public final class ReplicaSync {
    private final ImportRecords imports;
    private final SyncEngine engine;
    private final Tools tools;

    public ReplicaSync(ImportRecords imports, SyncEngine engine, Tools tools) {
        this.imports = imports;
        this.engine = engine;
        this.tools = tools;
    }

    /** What a sync did: the pull's summary, the pushes by outcome, and what is still owed to the account. */
    public record SyncReport(ImportSummary pulled, Map<PushOutcome, Integer> pushed, List<Outbox.Entry> owed) {}

    public SyncReport sync(String accountName, ImportRecords.Progress progress) {
        AnnotationTool tool = tools.open(accountName);
        ImportSummary pulled = imports.importAll(tool, false, progress);
        Map<PushOutcome, Integer> pushed = engine.drain(100);
        return new SyncReport(pulled, pushed, engine.outbox().list(tool.kind(), tool.account(), 100));
    }

    /** Pushes what is owed now, for every account (tests, the command line). */
    public Map<PushOutcome, Integer> pushOwed() {
        return engine.drain(100);
    }

    /** The pushes owed, parked ones included (all accounts). */
    public List<Outbox.Entry> owed(int max) {
        return engine.outbox().list(null, null, max);
    }
}
