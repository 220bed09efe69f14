package dev.idiom.services.app;

import dev.idiom.consistency.ConsistencyEngine;
import dev.idiom.consistency.report.AccountConsistency;
import dev.idiom.consistency.report.CheckReport;
import dev.idiom.consistency.report.Progress;
import dev.idiom.consistency.report.PushOutcome;
import dev.idiom.consistency.report.SyncReport;
import dev.idiom.events.Followers;
import dev.idiom.events.Outbox;
import dev.idiom.events.RecordedEvent;
import dev.idiom.events.accounts.SyncState;
import java.util.List;
import java.util.Map;

/**
 * The sync use cases as the endpoints, the admin pages and the command line call them; the
 * engine ({@code dev.idiom.consistency}) decides and does everything.
 */
public final class ReplicaSync {
    private final ConsistencyEngine engine;
    private final Followers followers;

    /** @param followers this node's followers of the store, the engine's among them */
    public ReplicaSync(ConsistencyEngine engine, Followers followers) {
        this.engine = engine;
        this.followers = followers;
    }

    /** Every follower of the store on this node: where it stands, how far behind the head, its lag (for {@code GET /api/consistency}). */
    public List<Followers.Standing> followers() {
        return followers.standings();
    }

    /** A curator's sync of the account called {@code name}. */
    public SyncReport sync(String name, boolean allowDeletions, Progress progress) {
        return engine.sync().sync(name, allowDeletions, progress);
    }

    /** What a replication rule would write to the account once saved (copies, changes, removals, a hold), before it is saved. */
    public dev.idiom.consistency.report.SyncPlan previewRule(String name, dev.idiom.consistency.MirrorRule candidate) {
        return engine.dryRun().rule(name, candidate);
    }

    /** What of the records in account {@code from} a copy in account {@code to} would hold, per type and field. */
    public dev.idiom.consistency.report.FidelityTable fidelity(String from, String to) {
        return engine.fidelity().between(from, to);
    }

    /** What a sync of the account called {@code name} would do, changing nothing. */
    public dev.idiom.consistency.report.SyncPlan plan(String name) {
        return engine.dryRun().plan(name);
    }

    public CheckReport check(String name) {
        return engine.check(name);
    }

    public SyncState pause(String name) {
        return engine.holds().pause(name);
    }

    public SyncState resume(String name, boolean allowDeletions) {
        return engine.holds().resume(name, allowDeletions);
    }

    public int restoreHeld(String name) {
        return engine.holds().restore(name);
    }

    /** Plans what every account's replication rule owes, now (the engine's loop does it by itself). */
    public dev.idiom.consistency.Mirrors.Planned planMirrors() {
        return engine.mirrors().planAll();
    }

    /** Where the account's mirror stands (its rule planned how far, rows owed, an estimated finish at the tool's pace). */
    public dev.idiom.consistency.report.MirrorProgress mirror(String name) {
        return engine.mirrors().progress(name);
    }

    /** Removes the tool account: its copies unlinked (they stay in the tool), what it was owed dropped, its secret destroyed. */
    public int removeAccount(String name) {
        return engine.holds().remove(name);
    }

    /** The account's parked writes: the record's title, the tool's words; at most {@code limit}. */
    public List<dev.idiom.consistency.report.ParkedWrite> parked(String name, int limit) {
        return engine.mirrors().parked(name, limit);
    }

    public int retryParked(String name) {
        return engine.holds().retryParked(name);
    }

    /** The scheduled pulls and checks that are due, now (tests on a fake clock; the engine's loop runs them by itself). */
    public void runDue() {
        engine.runDue();
    }

    /** Pushes what is owed now, for every account (tests, the command line). */
    public Map<PushOutcome, Integer> pushOwed() {
        return engine.pushes().drain(1000);
    }

    public List<Outbox.Entry> owed(int max) {
        return engine.report().owed(max);
    }

    /** Why an account's scheduled pull or check last failed on this node, if its last run did. */
    public java.util.Optional<dev.idiom.consistency.report.AccountFailure> failure(String name) {
        return engine.failure(name);
    }

    public List<AccountConsistency> report() {
        return engine.report().accounts();
    }

    public Map<String, Long> pushOutcomes() {
        return engine.report().pushOutcomes();
    }

    /** Conflicts newest first, in {@code state} (open, settled, resolved; null: any), with their ids and their DEs' titles. */
    public List<dev.idiom.consistency.report.ConflictEntry> conflicts(String state, long before, int limit) {
        return engine.conflicts().list(state, before, limit);
    }

    /**
     * A curator settles a conflict: {@code take} idiom, tool or value ({@code value} in the field's JSON
     * form); the DE as it is then, the value on its way to every copy.
     */
    /** As above, the value ({@code take} value) as text in the field's text form, as SOAP sends it. */
    public dev.idiom.events.DigitalEntity resolveConflictAsText(java.util.UUID id, String take, String value, String source) {
        com.fasterxml.jackson.databind.JsonNode json = null;
        if (value != null) {
            dev.idiom.events.Field f = engine.conflicts().find(id).conflict().field();
            json = f.toJson(f.fromText(value));
        }
        return resolveConflict(id, take, json, source);
    }

    public dev.idiom.events.DigitalEntity resolveConflict(java.util.UUID id, String take, com.fasterxml.jackson.databind.JsonNode value, String source) {
        return engine.conflicts().resolve(id, take, value, source);
    }

    public List<RecordedEvent> conflicts(long before, int limit) {
        return engine.report().conflicts(before, limit);
    }
}
