package dev.idiom.services.app;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.idiom.consistency.CanonicalForm;
import dev.idiom.consistency.ReplicaContent;
import dev.idiom.consistency.DeletionHold;
import dev.idiom.consistency.PropagationLag;
import dev.idiom.consistency.PushOutcome;
import dev.idiom.consistency.SyncEngine;
import dev.idiom.events.DigitalEntity;
import dev.idiom.events.EventStore;
import dev.idiom.events.InvalidValueException;
import dev.idiom.events.MatchKeys;
import dev.idiom.events.NewEvent;
import dev.idiom.events.Outbox;
import dev.idiom.events.RecordedEvent;
import dev.idiom.events.Replica;
import dev.idiom.events.ReplicaUnlinked;
import dev.idiom.events.StaleVersionException;
import dev.idiom.events.accounts.SyncState;
import dev.idiom.services.tools.ToolAccount;
import dev.idiom.services.tools.Tools;
import dev.idiom.wrappers.AnnotationTool;
import dev.idiom.wrappers.ChangePage;
import dev.idiom.wrappers.RemoteRecord;
import dev.idiom.wrappers.ToolException;
import dev.idiom.wrappers.ToolIdentityChangedException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Keeping every replica of every tool account in step with Idiom, as the application sees it: a
 * curator's sync of one account (pull what changed there through the one merge, unlink copies
 * deleted there unless that would delete too many, push everything owed), the scheduled pulls and
 * anti-entropy checks the engine runs, pausing and resuming an account, the consistency report and
 * the conflict listing. The pushes themselves are the engine's ({@link SyncEngine}).
 */
public final class ReplicaSync implements SyncEngine.Pulls {
    private static final Logger LOG = Logger.getLogger(ReplicaSync.class.getName());
    private static final ObjectMapper JSON = new ObjectMapper();
    /** DEs loaded per round trip when a whole account is walked. */
    private static final int CHUNK = 500;

    /** When pulls and checks run by themselves; zero durations: only on demand. */
    public record Schedule(Duration pullInterval, Duration checkInterval, DeletionHold hold) {}

    private final EventStore store;
    private final ImportRecords imports;
    private final EntityWrites writes;
    private final SyncEngine engine;
    private final Tools tools;
    private final PropagationLag lag;
    private final Clock clock;
    private final Schedule schedule;
    private final Instant started;
    private final ReplicaLinks links;

    public ReplicaSync(EventStore store, ImportRecords imports, EntityWrites writes, ReplicaLinks links, SyncEngine engine, Tools tools, PropagationLag lag,
            Clock clock, Schedule schedule) {
        this.links = links;
        this.store = store;
        this.imports = imports;
        this.writes = writes;
        this.engine = engine;
        this.tools = tools;
        this.lag = lag;
        this.clock = clock;
        this.schedule = schedule;
        this.started = clock.instant();
    }

    /**
     * What a sync did: the pull's summary, copies unlinked because the tool deleted them, deletions
     * held for a curator (with why), the pushes by outcome, and what is still owed to the account.
     */
    /**
     * @param withheldTags per DE (at most {@link #WITHHELD_SAMPLES}), the tags left out of its copy in this account: private
     *     tags of another tool, tags this tool would act on ({@link ReplicaContent})
     */
    public record SyncReport(String account, ImportSummary pulled, int unlinked, String held, Map<PushOutcome, Integer> pushed, List<Outbox.Entry> owed,
                             Map<UUID, java.util.Set<String>> withheldTags) {
        public int pushedCount() {
            return pushed.getOrDefault(PushOutcome.PUSHED, 0);
        }

        public int mergedCount() {
            return pulled.count(ImportOutcome.Kind.UPDATED) + pulled.count(ImportOutcome.Kind.MERGED) + pushed.getOrDefault(PushOutcome.MERGED_REMOTE_CHANGES, 0);
        }

        public long parkedCount() {
            return owed.stream().filter(Outbox.Entry::parked).count();
        }

        /** Pushes per outcome ("pushed", "already_in_sync", "retry_later", …), zeros included. */
        public Map<String, Integer> pushedByOutcome() {
            Map<String, Integer> out = new java.util.LinkedHashMap<>();
            for (PushOutcome o : PushOutcome.values()) {
                out.put(o.name().toLowerCase(java.util.Locale.ROOT), pushed.getOrDefault(o, 0));
            }
            return out;
        }
    }

    /**
     * A curator's sync of the account called {@code name}: pull, unlink deletions (held past the
     * account's share unless {@code allowDeletions}), push until nothing is due.
     */
    public SyncReport sync(String name, boolean allowDeletions, ImportRecords.Progress progress) {
        AnnotationTool tool = tools.open(name);
        SyncState state = tools.accounts().syncState(tool.kind(), tool.account());
        if (state.paused() && !allowDeletions) {
            throw new ConflictException("tool account '" + name + "' is " + (state.held() == null ? "paused" : "held: " + heldReason(state.held()))
                    + "; resume it first (POST /api/tools/" + name + "/resume" + (state.held() == null ? "" : "?allowDeletions=true to apply what was held") + ")");
        }
        if (allowDeletions && state.held() != null) {
            resume(name, true);
        }
        Pulled p = pull(tool, allowDeletions, progress);
        Map<PushOutcome, Integer> pushed = engine.drain(1000);
        return new SyncReport(name, p.summary(), p.unlinked(), p.held(), pushed, engine.outbox().list(tool.kind(), tool.account(), 1000),
                withheldTags(tool));
    }

    /** Most DEs a sync report names with tags left out of their copies. */
    static final int WITHHELD_SAMPLES = 100;

    /** The tags the account's copies do not get (and why the engine does not owe them), for the curator to see. */
    private Map<UUID, java.util.Set<String>> withheldTags(AnnotationTool tool) {
        Map<UUID, java.util.Set<String>> out = new java.util.LinkedHashMap<>();
        List<UUID> holders = holders(tool.kind(), tool.account());
        for (int from = 0; from < holders.size() && out.size() < WITHHELD_SAMPLES; from += CHUNK) {
            for (DigitalEntity de : store.loadAll(holders.subList(from, Math.min(holders.size(), from + CHUNK))).values()) {
                for (Replica r : de.replicas()) {
                    if (r.tool().equals(tool.kind()) && Objects.equals(r.account(), tool.account()) && out.size() < WITHHELD_SAMPLES) {
                        java.util.Set<String> left = ReplicaContent.withheldTags(de, tool, r.synced());
                        if (!left.isEmpty()) {
                            out.put(de.id(), left);
                        }
                    }
                }
            }
        }
        return out;
    }

    private record Pulled(ImportSummary summary, int unlinked, String held) {}

    /** Pulls what changed since the account's cursor and applies the deletions it reports (or holds them). */
    private Pulled pull(AnnotationTool tool, boolean allowDeletions, ImportRecords.Progress progress) {
        ImportSummary summary;
        try {
            summary = imports.importAll(tool, false, progress);
        } catch (ToolIdentityChangedException other) {
            String why = tool.kind() + " " + tool.account() + ": " + other.getMessage();
            hold(tool, why, List.of());
            throw new ConflictException("held: " + why);
        }
        Deletions d = applyDeletions(tool, summary.deletedRemoteIds(), allowDeletions);
        tools.accounts().updateSyncState(tool.kind(), tool.account(), s -> s.pulled(clock.instant()));
        if (summary.records() > 0 || d.unlinked() > 0 || d.held() != null) { // an empty pull every interval would drown the log
            LOG.info("pulled " + tool.kind() + " " + tool.account() + ": " + summary + "; " + d.unlinked() + " unlinked"
                    + (d.held() == null ? "" : "; held: " + d.held()));
        }
        return new Pulled(summary, d.unlinked(), d.held());
    }

    private record Deletions(int unlinked, String held) {}

    /**
     * Unlinks the replicas the tool deleted. A copy whose DE still has another copy in the same
     * account moved (a new URL, a new hash), it was not deleted, and does not count toward the hold.
     */
    private Deletions applyDeletions(AnnotationTool tool, List<String> remoteIds, boolean allowDeletions) {
        if (remoteIds.isEmpty()) {
            return new Deletions(0, null);
        }
        Map<String, UUID> linked = holders(tool, remoteIds);
        if (linked.isEmpty()) {
            return new Deletions(0, null); // deletions of records Idiom never held
        }
        Map<UUID, DigitalEntity> des = store.loadAll(new HashSet<>(linked.values()));
        List<String> deleted = new ArrayList<>();
        List<String> moved = new ArrayList<>();
        for (Map.Entry<String, UUID> e : linked.entrySet()) {
            DigitalEntity de = des.get(e.getValue());
            long copiesHere = de == null ? 0 : de.replicas().stream().filter(r -> r.tool().equals(tool.kind())
                    && Objects.equals(r.account(), tool.account())).count();
            (copiesHere > 1 ? moved : deleted).add(e.getKey());
        }
        int replicas = replicaCount(tool.kind(), tool.account());
        if (!allowDeletions && schedule.hold().holds(deleted.size(), replicas)) {
            String why = String.format("a pull would unlink %d of the %d replicas in %s %s (more than %.0f%%); e.g. %s", deleted.size(), replicas,
                    tool.kind(), tool.account(), schedule.hold().share() * 100, sample(deleted, linked, des));
            hold(tool, why, deleted);
            unlink(tool, moved, linked, "moved in " + tool.kind());
            return new Deletions(moved.size(), why);
        }
        unlink(tool, moved, linked, "moved in " + tool.kind());
        unlink(tool, deleted, linked, "deleted in " + tool.kind() + " " + tool.account());
        return new Deletions(moved.size() + deleted.size(), null);
    }

    /** The DE holding each of these remote records as a replica in this account (records Idiom never held are left out). */
    private Map<String, UUID> holders(AnnotationTool tool, List<String> remoteIds) {
        List<MatchKeys.Key> keys = new ArrayList<>();
        for (String id : new LinkedHashSet<>(remoteIds)) {
            keys.add(MatchKeys.replica(tool.kind(), tool.account(), id));
        }
        Map<MatchKeys.Key, List<UUID>> holders = store.findKeys(keys);
        Map<String, UUID> linked = new HashMap<>();
        for (String id : new LinkedHashSet<>(remoteIds)) {
            List<UUID> h = holders.getOrDefault(MatchKeys.replica(tool.kind(), tool.account(), id), List.of());
            if (!h.isEmpty()) {
                linked.put(id, h.getFirst());
            }
        }
        return linked;
    }

    private String sample(List<String> deleted, Map<String, UUID> linked, Map<UUID, DigitalEntity> des) {
        List<String> out = new ArrayList<>();
        for (String id : deleted.subList(0, Math.min(5, deleted.size()))) {
            DigitalEntity de = des.get(linked.get(id));
            out.add(id + (de == null || de.metadata().title() == null ? "" : " \"" + de.metadata().title() + "\""));
        }
        return String.join(", ", out);
    }

    private void unlink(AnnotationTool tool, List<String> remoteIds, Map<String, UUID> linked, String reason) {
        for (String id : remoteIds) {
            UUID entity = linked.get(id);
            for (int attempt = 0; attempt < 5; attempt++) {
                DigitalEntity de = store.load(entity).orElse(null);
                Replica r = de == null ? null : de.replica(tool.kind(), tool.account(), id).orElse(null);
                if (r == null) {
                    break;
                }
                try {
                    writes.append(entity, de.version(), List.of(new NewEvent(UUID.randomUUID(), ImportRecords.source(tool),
                            new ReplicaUnlinked(r.tool(), r.account(), r.remoteId(), r.synced(), reason))));
                    break;
                } catch (StaleVersionException raced) {
                    // moved meanwhile: read it again
                }
            }
        }
    }

    /** Holds the account: nothing is pulled or pushed until a curator resumes it; the held deletions are kept for that. */
    private void hold(AnnotationTool tool, String why, List<String> deletions) {
        ObjectNode held = JSON.createObjectNode().put("reason", why);
        ArrayNode ids = held.putArray("deletions");
        deletions.forEach(ids::add);
        tools.accounts().updateSyncState(tool.kind(), tool.account(), s -> s.held(held.toString()));
        LOG.warning("tool account held: " + why);
    }

    private static String heldReason(String held) {
        return held == null ? null : read(held).path("reason").asText();
    }

    private static JsonNode read(String json) {
        try {
            return JSON.readTree(json);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Pauses the account: no pull or push until it is resumed. */
    public SyncState pause(String name) {
        AnnotationTool tool = tools.open(name);
        return tools.accounts().updateSyncState(tool.kind(), tool.account(), s -> s.paused(true));
    }

    /**
     * Resumes the account. A hold is released only with {@code allowDeletions} (the curator has
     * looked): then the deletions it kept are applied.
     */
    public SyncState resume(String name, boolean allowDeletions) {
        AnnotationTool tool = tools.open(name);
        SyncState now = tools.accounts().syncState(tool.kind(), tool.account());
        if (now.held() != null && !allowDeletions) {
            throw new ConflictException("tool account '" + name + "' is held: " + heldReason(now.held())
                    + "; resume with allowDeletions=true once you have checked the tool");
        }
        if (now.held() != null) {
            List<String> ids = new ArrayList<>();
            read(now.held()).path("deletions").forEach(n -> ids.add(n.asText()));
            applyDeletions(tool, ids, true);
        }
        return tools.accounts().updateSyncState(tool.kind(), tool.account(), s -> s.paused(false));
    }

    /**
     * Rejects a held mass deletion: the records deleted in the tool were a mistake, so each is put
     * back there from its DE (the gone copy unlinked, the DE uploaded again as a new record), and the
     * account resumes. Returns how many records were put back.
     */
    public int restoreHeld(String name) {
        AnnotationTool tool = tools.open(name);
        SyncState now = tools.accounts().syncState(tool.kind(), tool.account());
        if (now.held() == null) {
            throw new ConflictException("tool account '" + name + "' holds nothing to restore");
        }
        JsonNode held = read(now.held());
        if (!held.has("deletions") || held.path("deletions").isEmpty()) {
            throw new ConflictException("tool account '" + name + "' is held for another reason than deletions (" + heldReason(now.held())
                    + "); check the tool and resume with allowDeletions=true");
        }
        List<String> ids = new ArrayList<>();
        held.path("deletions").forEach(n -> ids.add(n.asText()));
        Map<String, UUID> linked = holders(tool, ids);
        unlink(tool, ids, linked, "deleted in " + tool.kind() + " " + tool.account() + "; put back by a curator");
        int restored = 0;
        for (UUID entity : new LinkedHashSet<>(linked.values())) {
            try {
                links.upload(entity, tool);
                restored++;
            } catch (ConflictException another) {
                // the DE has another copy in this account already: nothing to put back
            }
        }
        LOG.info("restored " + restored + " records in " + tool.kind() + " " + tool.account() + " that a held pull would have unlinked");
        tools.accounts().updateSyncState(tool.kind(), tool.account(), s -> s.paused(false));
        return restored;
    }

    /** Parked pushes of the account are due again now (the curator fixed the record, or the tool); returns how many. */
    public int retryParked(String name) {
        AnnotationTool tool = tools.open(name);
        return engine.outbox().unpark(tool.kind(), tool.account());
    }

    /** What an anti-entropy check of one account found and did. */
    public record CheckReport(String account, int listed, int replicas, int divergent, int repaired, int reEnqueued, int missing, String held) {}

    /**
     * Anti-entropy for the account called {@code name}: every record the tool lists is compared, in
     * {@link CanonicalForm}, with what Idiom last synced; a difference is repaired through the normal
     * merge; a replica behind the DE with no push owed gets one; copies missing from a complete
     * listing go through the deletion rules.
     */
    public CheckReport check(String name) {
        return check(tools.open(name));
    }

    private CheckReport check(AnnotationTool tool) {
        Map<String, RemoteRecord> listed = new HashMap<>();
        boolean complete = true;
        String cursor = null;
        ChangePage page;
        do {
            page = tool.changedSince(cursor);
            complete &= page.complete();
            page.records().forEach(r -> listed.put(r.remoteId(), r));
            cursor = page.cursor();
        } while (page.more());
        Set<String> owed = new HashSet<>();
        engine.outbox().list(tool.kind(), tool.account(), Integer.MAX_VALUE).forEach(e -> owed.add(e.entityId() + "\n" + e.remoteId()));
        List<UUID> holders = holders(tool.kind(), tool.account());
        int divergent = 0;
        int repaired = 0;
        int reEnqueued = 0;
        List<String> missing = new ArrayList<>();
        for (int from = 0; from < holders.size(); from += CHUNK) {
            for (DigitalEntity de : store.loadAll(holders.subList(from, Math.min(holders.size(), from + CHUNK))).values()) {
                for (Replica r : de.replicas()) {
                    if (!r.tool().equals(tool.kind()) || !Objects.equals(r.account(), tool.account())) {
                        continue;
                    }
                    RemoteRecord there = listed.get(r.remoteId());
                    if (there == null) {
                        missing.add(r.remoteId());
                    } else if (!CanonicalForm.agree(r.synced(), there.metadata(), tool.fieldsKept())) {
                        divergent++;
                        ImportOutcome o = imports.importOne(tool, there);
                        if (o.kind() != ImportOutcome.Kind.SKIPPED) {
                            repaired++;
                        }
                    } else if (!CanonicalForm.agree(r.synced(), ReplicaContent.wanted(de, tool, r.synced()), tool.fieldsKept())
                            && !owed.contains(de.id() + "\n" + r.remoteId())) {
                        engine.outbox().owe(de.id(), r, de.version());
                        reEnqueued++;
                    }
                }
            }
        }
        String held = null;
        if (complete && !missing.isEmpty()) {
            held = applyDeletions(tool, missing, false).held();
        }
        int stillDivergent = divergent - repaired;
        tools.accounts().updateSyncState(tool.kind(), tool.account(), s -> s.checked(clock.instant(), stillDivergent));
        return new CheckReport(Outbox.accountKey(tool.kind(), tool.account()), listed.size(), holders.size(), divergent, repaired, reEnqueued,
                complete ? missing.size() : 0, held);
    }

    /**
     * The scheduled side, run by the engine's loop: each account that is not paused gets its pull
     * when the pull interval has passed since its last one, and its check when the check interval
     * has. The due time is claimed under the account's row lock, so two nodes do not both pull.
     */
    @Override
    public void runDue() {
        for (ToolAccount a : tools.accounts().list()) {
            try {
                runDue(a);
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "scheduled sync of tool account " + a.name() + " failed; the next round retries: " + e.getMessage());
            }
        }
    }

    private void runDue(ToolAccount a) {
        if (schedule.pullInterval().isZero() && schedule.checkInterval().isZero()) {
            return;
        }
        AnnotationTool tool = tools.open(a.name());
        Instant now = clock.instant();
        Duration every = schedule.pullInterval().compareTo(tool.limits().minInterval()) < 0 ? tool.limits().minInterval() : schedule.pullInterval();
        if (!schedule.pullInterval().isZero() && claim(tool, now, every, SyncState::lastPullAt, s -> s.pulled(now))) {
            pull(tool, false, (s, d, n, l) -> {});
        }
        if (!schedule.checkInterval().isZero() && claim(tool, now, schedule.checkInterval(), SyncState::lastCheckAt, s -> s.checked(now, s.divergent()))) {
            check(tool);
        }
    }

    /** True if this node took the due work: the account is not paused and its last run was {@code every} ago. */
    private boolean claim(AnnotationTool tool, Instant now, Duration every, java.util.function.Function<SyncState, Instant> last,
            java.util.function.UnaryOperator<SyncState> mark) {
        boolean[] mine = {false};
        tools.accounts().updateSyncState(tool.kind(), tool.account(), s -> {
            Instant at = last.apply(s);
            // never run: the first scheduled run is one interval after this node started (a new account gets its import by hand)
            Instant since = at == null ? started : at;
            if (s.paused() || since.plus(every).isAfter(now)) {
                return s;
            }
            mine[0] = true;
            return mark.apply(s);
        });
        return mine[0];
    }

    /** Pushes what is owed now, for every account (tests, the command line). */
    public Map<PushOutcome, Integer> pushOwed() {
        return engine.drain(1000);
    }

    /** The pushes owed, parked ones included (all accounts). */
    public List<Outbox.Entry> owed(int max) {
        return engine.outbox().list(null, null, max);
    }

    /** The consistency of one tool account, as admins read it. */
    public record AccountConsistency(String name, String kind, String account, boolean paused, String held, int replicas, int inSync, int pending,
            int parked, int divergent, Instant lastPullAt, Instant lastPushAt, Instant lastCheckAt, Instant oldestOwed, Lag lag) {}

    /** Propagation lag of one account in ms (commit of a change to the tool's acknowledgement) over the last {@code windowMinutes}, this node's pushes. */
    public record Lag(int samples, long p50, long p99, long max, long windowMinutes) {}

    /** Per configured tool account: replicas in sync, pending, parked and divergent, last pull and push, outbox depth and lag. */
    public List<AccountConsistency> report() {
        Map<String, Outbox.Depth> depth = engine.outbox().depth();
        List<AccountConsistency> out = new ArrayList<>();
        for (ToolAccount a : tools.accounts().list()) {
            AnnotationTool tool;
            try {
                tool = tools.open(a.name());
            } catch (RuntimeException unopenable) {
                continue; // e.g. a secret sealed under another key: shown by the tools listing, not here
            }
            String key = Outbox.accountKey(tool.kind(), tool.account());
            SyncState s = tools.accounts().syncState(tool.kind(), tool.account());
            Outbox.Depth d = depth.getOrDefault(key, new Outbox.Depth(0, 0, null));
            int replicas = replicaCount(tool.kind(), tool.account());
            int inSync = Math.max(0, replicas - d.pending() - d.parked() - s.divergent());
            out.add(new AccountConsistency(a.name(), tool.kind(), tool.account(), s.paused(), heldReason(s.held()), replicas, inSync, d.pending(),
                    d.parked(), s.divergent(), s.lastPullAt(), s.lastPushAt(), s.lastCheckAt(), d.oldest(), lag(key)));
        }
        return out;
    }

    /** Pushes this node made since start, by outcome ({@code pushed}, {@code merged_remote_changes}, {@code parked}, ...). */
    public Map<String, Long> pushOutcomes() {
        Map<String, Long> out = new java.util.LinkedHashMap<>();
        engine.outcomes().forEach((o, n) -> out.put(o.name().toLowerCase(java.util.Locale.ROOT), n));
        return out;
    }

    /** Conflicts across all DEs, newest first: up to {@code limit} before position {@code before}. */
    public List<RecordedEvent> conflicts(long before, int limit) {
        if (limit < 1 || limit > 1000) {
            throw new InvalidValueException("limit must be between 1 and 1000, got " + limit);
        }
        return store.ofType("ConflictResolved", before <= 0 ? Long.MAX_VALUE : before, limit);
    }

    private Lag lag(String accountKey) {
        PropagationLag.Figures f = lag.of(accountKey);
        return new Lag(f.samples(), f.p50(), f.p99(), f.max(), PropagationLag.WINDOW.toMinutes());
    }

    private List<UUID> holders(String kind, String account) {
        MatchKeys.Key k = MatchKeys.account(kind, account);
        return store.findKeys(List.of(k)).getOrDefault(k, List.of());
    }

    private int replicaCount(String kind, String account) {
        return holders(kind, account).size();
    }
}
