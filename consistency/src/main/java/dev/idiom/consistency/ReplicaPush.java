package dev.idiom.consistency;

import dev.idiom.consistency.report.ImportOutcome;
import dev.idiom.consistency.report.PushOutcome;
import dev.idiom.events.Append;
import dev.idiom.events.AppendOutcome;
import dev.idiom.events.DigitalEntity;
import dev.idiom.events.EntityEvent;
import dev.idiom.events.EventStore;
import dev.idiom.events.Field;
import dev.idiom.events.Metadata;
import dev.idiom.events.NewEvent;
import dev.idiom.events.Outbox;
import dev.idiom.events.Replica;
import dev.idiom.events.ReplicaLinked;
import dev.idiom.events.ReplicaPushed;
import dev.idiom.events.ReplicaUnlinked;
import dev.idiom.events.StaleVersionException;
import dev.idiom.wrappers.AnnotationTool;
import dev.idiom.wrappers.RecordRefusedException;
import dev.idiom.wrappers.RemoteChangedException;
import dev.idiom.wrappers.RemoteRecord;
import dev.idiom.wrappers.ToolException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.random.RandomGenerator;

/**
 * One owed push (an outbox row) carried out: send the DE's current content to the replica with the
 * replica's last known version as the precondition, record the acknowledgement as an event
 * ({@link ReplicaPushed} with the new version, the record as the tool now holds it and its shadow),
 * then release the row. A crash between the tool's acknowledgement and that event re-pushes: the
 * write is changes-only against the last synced record, so the second write sends the same values
 * to the same record (never a second record), or meets the tool's precondition and merges. A remote change since the last sync ({@link RemoteChangedException}) is
 * pulled and merged first ({@link ReplicaMerge}, the account's policy); the push follows on the
 * next round, from the merged state. Failures retry with capped exponential backoff and jitter; a
 * record the tool refuses for good is parked with the reason.
 */
public final class ReplicaPush {
    private static final java.util.logging.Logger LOG = java.util.logging.Logger.getLogger(ReplicaPush.class.getName());
    static final Duration FIRST_RETRY = Duration.ofSeconds(2);
    static final Duration LONGEST_RETRY = Duration.ofMinutes(15);

    private final EventStore store;
    private final Pull pull;
    private final OptimisticRetry retry;
    private final Outbox outbox;
    private final ToolDirectory tools;
    private final Clock clock;
    private final RandomGenerator random;
    private final PropagationLag lag;
    private final Mirrors mirrors;

    /**
     * @param pull where a remote change met by a push comes in (the one decision of imports and pulls)
     */
    public ReplicaPush(EventStore store, Pull pull, OptimisticRetry retry, Outbox outbox, ToolDirectory tools, Clock clock,
            RandomGenerator random, PropagationLag lag, Mirrors mirrors) {
        this.lag = lag;
        this.mirrors = mirrors;
        this.store = store;
        this.pull = pull;
        this.retry = retry;
        this.outbox = outbox;
        this.tools = tools;
        this.clock = clock;
        this.random = random;
    }

    /** Most rows of one account claimed at once: enough for a tool's batch (Zotero's 50 creates a request), never fewer than a round. */
    int batchSize(String kind, String account) {
        return tools.open(kind, emptyToNull(account) == null ? "" : account).map(t -> Math.max(SyncEngine.ROUND, Math.min(MAX_CLAIM, t.limits().maxBatch())))
                .orElse(SyncEngine.ROUND);
    }

    /** Most rows claimed at once, whatever the tool's batch (a file takes any number). */
    static final int MAX_CLAIM = 2_000;

    /**
     * Carries out the rows of one claim: the copies owed together ({@link AnnotationTool#createAll}:
     * as few calls as the tool takes, the links recorded in one commit), the rest one at a time, in
     * order. One result per row; a row that fails unexpectedly is retried after its lease.
     */
    public List<PushOutcome> pushAll(List<Outbox.Entry> owed) {
        return pushAll(owed, Set.of());
    }

    /**
     * As above, where {@code tried} are the DEs whose copy was tried before this claim (its row
     * claimed by a node that died, or failed): in a tool that keeps no origin such a copy may be
     * there unlinked, and is looked for before it is made again.
     */
    public List<PushOutcome> pushAll(List<Outbox.Entry> owed, Set<UUID> tried) {
        if (!tried.isEmpty()) {
            lookForCopiesTried(owed, tried);
        }
        MirrorRules rules = MirrorRules.of(tools); // the rules as they stand, once per claim (each push would read every account again)
        List<PushOutcome> out = new ArrayList<>(java.util.Collections.nCopies(owed.size(), (PushOutcome) null));
        List<Integer> copies = new ArrayList<>();
        for (int i = 0; i < owed.size(); i++) {
            if (Outbox.NEW_COPY.equals(owed.get(i).remoteId())) {
                copies.add(i);
            }
        }
        if (copies.size() > 1) {
            try {
                List<PushOutcome> made = copyAll(copies.stream().map(owed::get).toList(), rules);
                for (int k = 0; k < copies.size(); k++) {
                    out.set(copies.get(k), made.get(k));
                }
            } catch (RuntimeException unexpected) {
                LOG.log(java.util.logging.Level.WARNING, "copies to " + owed.getFirst().tool() + " " + owed.getFirst().account() + " failed: "
                        + unexpected.getMessage(), unexpected);
                copies.forEach(i -> out.set(i, PushOutcome.RETRY_LATER));
            }
        }
        for (int i = 0; i < owed.size(); i++) {
            if (out.get(i) == null) {
                Outbox.Entry e = owed.get(i);
                try {
                    out.set(i, push(e, rules));
                } catch (RuntimeException unexpected) {
                    // the lease runs out and another round retries; one bad row never stops the others
                    LOG.log(java.util.logging.Level.WARNING, "push to " + e.tool() + " " + e.account() + " " + e.remoteId() + " failed: "
                            + unexpected.getMessage(), unexpected);
                    out.set(i, PushOutcome.RETRY_LATER);
                }
            }
        }
        return out;
    }

    private void lookForCopiesTried(List<Outbox.Entry> owed, Set<UUID> tried) {
        Set<UUID> these = new java.util.HashSet<>();
        owed.stream().filter(e -> Outbox.NEW_COPY.equals(e.remoteId()) && tried.contains(e.entityId())).forEach(e -> these.add(e.entityId()));
        if (these.isEmpty()) {
            return;
        }
        Outbox.Entry first = owed.getFirst();
        tools.open(first.tool(), emptyToNull(first.account()) == null ? "" : first.account()).filter(t -> !t.namesOrigin())
                .ifPresent(tool -> pull.adoptOwnCopies(tool, these));
    }

    private PushOutcome push(Outbox.Entry owed, MirrorRules rules) {
        Optional<DigitalEntity> found = store.load(owed.entityId());
        MirrorRules.Selection rule = rules.of(owed.tool(), emptyToNull(owed.account()) == null ? "" : owed.account());
        if (Outbox.NEW_COPY.equals(owed.remoteId())) {
            return copy(owed, found, rule);
        }
        Optional<Replica> replica = found.flatMap(de -> de.replica(owed.tool(), emptyToNull(owed.account()), owed.remoteId())
                .or(() -> de.replica(owed.tool(), owed.account(), owed.remoteId())));
        if (replica.isEmpty()) {
            if (found.isPresent() && removedByDeletion(found.get(), owed, rule)) {
                return restore(owed, found.get());
            }
            outbox.acknowledged(owed, Integer.MAX_VALUE);
            return PushOutcome.GONE;
        }
        DigitalEntity de = found.get();
        Replica r = replica.get();
        Optional<AnnotationTool> opened = tools.open(r.tool(), r.account());
        if (opened.isEmpty()) {
            outbox.park(owed, "no tool account of kind " + r.tool() + " for " + r.account() + " is configured");
            return PushOutcome.PARKED;
        }
        AnnotationTool tool = opened.get();
        if (!rule.rule().direction().written()) { // the account feeds Idiom and is never written
            outbox.acknowledged(owed, Integer.MAX_VALUE);
            return PushOutcome.NOT_SENT;
        }
        if (de.lifecycle().state() == dev.idiom.events.Lifecycle.State.MERGED) { // a copy the merge left beside the winner's in this account
            if (rule.rule().propagatesDeletions()) {
                return remove(owed, de, r, tool);
            }
            outbox.acknowledged(owed, Integer.MAX_VALUE); // kept: a curator removes it (the merge's answer named it)
            return PushOutcome.NOT_SENT;
        }
        if (mirrors.removes(rule, de, r)) {
            return remove(owed, de, r, tool);
        }
        if (!de.live() && !de.lifecycle().trashed()) { // purged: nothing is written to its copies any more
            outbox.acknowledged(owed, Integer.MAX_VALUE);
            return PushOutcome.NOT_SENT;
        }
        Set<Field> kept = tool.fieldsKept();
        Metadata wanted = ReplicaContent.forCopy(de, tool, r);
        if (!ReplicaContent.owed(r, wanted, kept)) {
            outbox.acknowledged(owed, de.version());
            return PushOutcome.ALREADY_IN_SYNC;
        }
        RemoteRecord known = new RemoteRecord(r.remoteId(), r.remoteVersion(), r.synced(), r.identityHint(), r.shadow(), r.privateCopy());
        RemoteRecord written;
        try {
            written = tool.update(known, wanted);
        } catch (RemoteChangedException moved) {
            return pullAndMerge(owed, de, r, tool, moved);
        } catch (ToolException failed) {
            return notTaken(owed, failed);
        }
        return pushed(owed, de, r, tool, wanted, written);
    }

    /**
     * Records what the tool acknowledged as a {@link ReplicaPushed} and releases the row; a copy the
     * tool re-keyed is owed any change that came meanwhile under its new id.
     */
    private PushOutcome pushed(Outbox.Entry owed, DigitalEntity de, Replica r, AnnotationTool tool, Metadata wanted, RemoteRecord written) {
        Set<Field> kept = tool.fieldsKept();
        // what the tool holds now, its tags read through what was just written (a "_" written for a space is that space)
        Metadata held = ReplicaMerge.asHeld(wanted, tool.tagsAsRead(written.metadata(), wanted), kept);
        String replaces = written.remoteId().equals(r.remoteId()) ? null : r.remoteId();
        if (replaces == null && tool.versionNamesContent() && java.util.Objects.equals(written.version(), r.remoteVersion())) {
            // the copy is as it was: what it reads otherwise than wanted it cannot hold so, and is not owed again (no write per check)
            dev.idiom.events.ReplicaReread same = Reread.unwritable(tool, written, held, de, r, wanted);
            if (same != null) {
                record(de, same, EventSources.push(r.tool()));
            }
            outbox.acknowledged(owed, de.version());
            return PushOutcome.ALREADY_IN_SYNC;
        }
        // a write keeps the copy's privacy as it was (adapters re-send it); a pull brings news of it
        record(de, new ReplicaPushed(r.tool(), r.account(), written.remoteId(), written.version(), held, written.shadow(), replaces, de.version(),
                r.privateCopy() || written.privateCopy()), EventSources.push(r.tool()));
        if (replaces == null) {
            outbox.acknowledged(owed, de.version());
        } else {
            // the row names the copy's former id: it goes; a change that came meanwhile is owed to the copy under its new id
            outbox.acknowledged(owed, Integer.MAX_VALUE);
            DigitalEntity latest = store.load(de.id()).orElseThrow();
            latest.replica(r.tool(), r.account(), written.remoteId())
                    .filter(now -> ReplicaContent.owed(now, ReplicaContent.forCopy(latest, tool, now), kept))
                    .ifPresent(now -> outbox.owe(latest.id(), now, latest.version()));
        }
        lag.acknowledged(Outbox.accountKey(r.tool(), r.account()), owed.enqueuedAt());
        return PushOutcome.PUSHED;
    }

    /**
     * Copies owed to one account, made together: each is checked as {@link #copy} checks it, those
     * still owed are made with one {@link AnnotationTool#createAll}, and their links are appended in
     * one commit (a DE that moved meanwhile gets its link on its newer version).
     */
    private List<PushOutcome> copyAll(List<Outbox.Entry> owed, MirrorRules rules) {
        Outbox.Entry first = owed.getFirst();
        String account = emptyToNull(first.account()) == null ? "" : first.account();
        Optional<AnnotationTool> opened = tools.open(first.tool(), account);
        if (opened.isEmpty() || owed.stream().anyMatch(e -> !e.tool().equals(first.tool()) || !e.account().equals(first.account()))) {
            return owed.stream().map(e -> copy(e, store.load(e.entityId()), rules.of(e.tool(), emptyToNull(e.account()) == null ? "" : e.account())))
                    .toList();
        }
        AnnotationTool tool = opened.get();
        MirrorRules.Selection rule = rules.of(first.tool(), account);
        Map<UUID, DigitalEntity> des = store.loadAll(owed.stream().map(Outbox.Entry::entityId).toList());
        List<PushOutcome> out = new ArrayList<>(java.util.Collections.nCopies(owed.size(), (PushOutcome) null));
        List<Integer> toMake = new ArrayList<>();
        List<AnnotationTool.NewCopy> copies = new ArrayList<>();
        Set<UUID> deletedThere = mirrors.deletedThere(des.keySet(), tool.kind(), tool.account());
        for (int i = 0; i < owed.size(); i++) {
            Outbox.Entry e = owed.get(i);
            DigitalEntity de = des.get(e.entityId());
            PushOutcome settled = settledWithoutCopy(e, de, rule, tool, deletedThere);
            if (settled != null) {
                out.set(i, settled);
            } else {
                toMake.add(i);
                copies.add(new AnnotationTool.NewCopy(ReplicaContent.wanted(de, tool, null), ReplicaContent.keepPrivate(de), de.id()));
            }
        }
        if (toMake.isEmpty()) {
            return out;
        }
        List<AnnotationTool.Made> made = tool.createAll(copies);
        List<Append> links = new ArrayList<>();
        List<Integer> linked = new ArrayList<>();
        for (int k = 0; k < toMake.size(); k++) {
            int i = toMake.get(k);
            Outbox.Entry e = owed.get(i);
            AnnotationTool.Made m = made.get(k);
            if (m.failure() != null) {
                out.set(i, notTaken(e, m.failure()));
            } else {
                DigitalEntity de = des.get(e.entityId());
                links.add(new Append(de.id(), de.version(), List.of(new NewEvent(UUID.randomUUID(), EventSources.mirror(tool.kind()),
                        linkOf(tool, copies.get(k).metadata(), m.record())))));
                linked.add(i);
            }
        }
        List<AppendOutcome> committed = links.isEmpty() ? List.of() : store.appendAll(links);
        List<Outbox.Entry> done = new ArrayList<>();
        for (int k = 0; k < linked.size(); k++) {
            int i = linked.get(k);
            Outbox.Entry e = owed.get(i);
            if (!committed.get(k).succeeded()) { // the DE moved meanwhile: the link goes on its newer version
                retry.appendOnLatest("linking the new copy in " + tool.kind() + " to entity " + e.entityId(), store, e.entityId(),
                        links.get(k).expectedVersion(), links.get(k).events());
            }
            done.add(e);
            lag.acknowledged(Outbox.accountKey(tool.kind(), tool.account()), e.enqueuedAt());
            out.set(i, PushOutcome.COPIED);
        }
        outbox.doneAll(done); // the copies are linked: their rows go, in one statement
        return out;
    }

    /** The outcome of a copy row that needs no copy made (and its row settled), or null if the copy is to be made. */
    private PushOutcome settledWithoutCopy(Outbox.Entry owed, DigitalEntity de, MirrorRules.Selection rule, AnnotationTool tool, Set<UUID> deletedThere) {
        if (de == null || !de.live()) {
            outbox.acknowledged(owed, Integer.MAX_VALUE);
            return PushOutcome.GONE;
        }
        if (de.replicas().stream().anyMatch(rule::holds)) {
            outbox.acknowledged(owed, Integer.MAX_VALUE);
            return PushOutcome.ALREADY_IN_SYNC;
        }
        if (!mirrors.owesCopy(rule, de, tool.keepsPrivate(), deletedThere)) { // a private DE goes only where it can stay private
            outbox.acknowledged(owed, Integer.MAX_VALUE);
            return PushOutcome.NOT_SENT;
        }
        return null;
    }

    /** The link of a copy just made: what the tool holds, its tags read through what was written (uploads too: one copy path). */
    static ReplicaLinked linkOf(AnnotationTool tool, Metadata wanted, RemoteRecord created) {
        Metadata held = ReplicaMerge.asHeld(wanted, tool.tagsAsRead(created.metadata(), wanted), tool.fieldsKept());
        return new ReplicaLinked(tool.kind(), tool.account(), created.remoteId(), created.version(), held, created.shadow(), null, created.privateCopy());
    }

    /**
     * A copy the account's rule asks for: made unless the rule no longer selects the DE, the account
     * holds one already, the DE is private and the account cannot keep it so, or a curator deleted this DE's copy in the tool (a rule does not put back what
     * a curator took out; an upload does). The copy carries an identity made from the DE where the
     * tool takes one (Zotero's item key), so making it again after a lost answer or a crash finds the
     * first instead of doubling it.
     */
    private PushOutcome copy(Outbox.Entry owed, Optional<DigitalEntity> found, MirrorRules.Selection rule) {
        if (found.isEmpty()) {
            outbox.acknowledged(owed, Integer.MAX_VALUE);
            return PushOutcome.GONE;
        }
        DigitalEntity de = found.get();
        Optional<AnnotationTool> opened = tools.open(owed.tool(), emptyToNull(owed.account()) == null ? "" : owed.account());
        if (opened.isEmpty()) {
            outbox.park(owed, "no tool account of kind " + owed.tool() + " for " + owed.account() + " is configured");
            return PushOutcome.PARKED;
        }
        AnnotationTool tool = opened.get();
        PushOutcome settled = settledWithoutCopy(owed, de, rule, tool, mirrors.deletedThere(List.of(de.id()), tool.kind(), tool.account()));
        if (settled != null) {
            return settled;
        }
        Metadata wanted = ReplicaContent.wanted(de, tool, null);
        RemoteRecord created;
        try {
            created = tool.create(wanted, ReplicaContent.keepPrivate(de), de.id());
        } catch (ToolException failed) {
            return notTaken(owed, failed);
        }
        record(de, linkOf(tool, wanted, created), EventSources.mirror(tool.kind()));
        outbox.acknowledged(owed, Integer.MAX_VALUE);
        lag.acknowledged(Outbox.accountKey(tool.kind(), tool.account()), owed.enqueuedAt());
        return PushOutcome.COPIED;
    }

    /** True if the row names a copy of this live DE that its deletion removed from a propagating account: it is owed back. */
    private boolean removedByDeletion(DigitalEntity de, Outbox.Entry owed, MirrorRules.Selection rule) {
        return de.live() && rule.rule().propagatesDeletions() && rule.rule().direction().written()
                && mirrors.removedByDeletion(List.of(de.id()), owed.tool(), owed.account()).getOrDefault(de.id(), List.of()).contains(owed.remoteId());
    }

    /**
     * A DE came back from Idiom's trash: its copy that the deletion removed is taken back out of the
     * tool's trash where the tool has one ({@link AnnotationTool#restore}), else made again; linked,
     * and owed a push if the DE changed since.
     */
    private PushOutcome restore(Outbox.Entry owed, DigitalEntity de) {
        Optional<AnnotationTool> opened = tools.open(owed.tool(), emptyToNull(owed.account()) == null ? "" : owed.account());
        if (opened.isEmpty()) {
            outbox.park(owed, "no tool account of kind " + owed.tool() + " for " + owed.account() + " is configured");
            return PushOutcome.PARKED;
        }
        AnnotationTool tool = opened.get();
        Metadata wanted = ReplicaContent.wanted(de, tool, null);
        ReplicaLinked link;
        try {
            Optional<RemoteRecord> back = tool.restore(owed.remoteId(), keptByDeletion(de, owed));
            link = back.isPresent()
                    ? new ReplicaLinked(tool.kind(), tool.account(), back.get().remoteId(), back.get().version(),
                            ReplicaMerge.asHeld(back.get().metadata(), tool.tagsAsRead(back.get().metadata(), wanted), tool.fieldsKept()),
                            back.get().shadow(), null, back.get().privateCopy())
                    : linkOf(tool, wanted, tool.create(wanted, ReplicaContent.keepPrivate(de), de.id()));
        } catch (ToolException failed) {
            return notTaken(owed, failed);
        }
        record(de, link, EventSources.deletion(tool.kind()));
        outbox.acknowledged(owed, Integer.MAX_VALUE);
        DigitalEntity latest = store.load(de.id()).orElseThrow();
        latest.replica(link.tool(), link.account(), link.remoteId())
                .filter(now -> ReplicaContent.owed(latest, tool, now))
                .ifPresent(now -> outbox.owe(latest.id(), now, latest.version()));
        lag.acknowledged(Outbox.accountKey(tool.kind(), tool.account()), owed.enqueuedAt());
        return PushOutcome.COPIED;
    }

    /** What the deletion that removed this copy kept of it (the last such unlink in the DE's history), or null. */
    private String keptByDeletion(DigitalEntity de, Outbox.Entry owed) {
        List<dev.idiom.events.RecordedEvent> history = store.history(de.id());
        for (int i = history.size() - 1; i >= 0; i--) {
            if (history.get(i).event() instanceof ReplicaUnlinked u && u.tool().equals(owed.tool()) && u.remoteId().equals(owed.remoteId())
                    && java.util.Objects.equals(u.account() == null ? "" : u.account(), owed.account() == null ? "" : owed.account())) {
                return u.kept();
            }
        }
        return null;
    }

    /**
     * The copy goes: its DE is in Idiom's trash and the account propagates deletions, or the account's
     * rule no longer selects the DE. Deleted in the tool (a tool with a trash keeps it there) and unlinked.
     */
    private PushOutcome remove(Outbox.Entry owed, DigitalEntity de, Replica r, AnnotationTool tool) {
        String kept;
        try {
            kept = tool.deleteKeeping(r.remoteId(), r.remoteVersion()); // what a restore needs to put it back as it was
        } catch (RemoteChangedException moved) {
            return pullAndMerge(owed, de, r, tool, moved); // changed there: merged first; the removal is decided again on the next round
        } catch (ToolException failed) {
            retryLater(owed, failed);
            return PushOutcome.RETRY_LATER;
        }
        boolean deletion = de.lifecycle().trashed();
        String why = de.lifecycle().state() == dev.idiom.events.Lifecycle.State.MERGED
                ? ": a duplicate of the copy entity " + de.lifecycle().mergedInto() + " has there, which this entity was merged into"
                : deletion ? ": the record was deleted in Idiom" : ": its replication rule no longer selects this record";
        record(de, new ReplicaUnlinked(r.tool(), r.account(), r.remoteId(), r.synced(), "removed from " + r.tool() + " " + r.account() + why, false, kept),
                deletion ? EventSources.deletion(r.tool()) : EventSources.mirror(r.tool()));
        outbox.acknowledged(owed, Integer.MAX_VALUE);
        lag.acknowledged(Outbox.accountKey(r.tool(), r.account()), owed.enqueuedAt());
        return PushOutcome.REMOVED;
    }

    /** The replica moved remotely: its changes come in through the one merge, and the replica is re-synced to what it holds. */
    private PushOutcome pullAndMerge(Outbox.Entry owed, DigitalEntity de, Replica r, AnnotationTool tool, RemoteChangedException moved) {
        Optional<RemoteRecord> current;
        try {
            current = tool.fetch(r.remoteId());
        } catch (ToolException failed) {
            retryLater(owed, failed);
            return PushOutcome.RETRY_LATER;
        }
        if (current.isEmpty()) {
            // deleted in the tool: the replica is unlinked (an event), the DE stays
            record(de, new ReplicaUnlinked(r.tool(), r.account(), r.remoteId(), r.synced(), "deleted in " + r.tool() + " (met by a push: "
                    + moved.getMessage() + ")"), EventSources.push(r.tool()));
            outbox.acknowledged(owed, Integer.MAX_VALUE);
            return PushOutcome.GONE;
        }
        if (!MirrorRules.of(tools).of(r.tool(), r.account()).rule().direction().read()) {
            return overwrite(owed, de, r, tool, current.get());
        }
        // the one decision of imports and pulls: merge through the account's policy, re-key a copy under a new id
        ImportOutcome merged = pull.one(tool, current.get());
        switch (merged.kind()) {
            case SKIPPED -> { // a copy Idiom cannot read back would meet the same precondition forever: a curator looks
                outbox.park(owed, "the copy changed in " + r.tool() + " and its change could not be merged: " + merged.reason());
                return PushOutcome.PARKED;
            }
            case UNCHANGED -> { // the tool refused our version although it holds what we last synced: not at once again
                retryLater(owed, new ToolException(r.tool() + " refused the push's precondition for an unchanged copy: " + moved.getMessage()));
                return PushOutcome.RETRY_LATER;
            }
            default -> {
                outbox.retryAt(owed, clock.instant(), null); // the push follows at once, from the merged state
                return PushOutcome.MERGED_REMOTE_CHANGES;
            }
        }
    }

    /**
     * A send-only account's copy changed there: Idiom does not take the change, it writes its own
     * content over the copy as it now is (the copy's current version as the precondition).
     */
    private PushOutcome overwrite(Outbox.Entry owed, DigitalEntity de, Replica r, AnnotationTool tool, RemoteRecord current) {
        Metadata wanted = ReplicaContent.forCopy(de, tool, r);
        RemoteRecord written;
        try {
            written = tool.update(current, wanted);
        } catch (RemoteChangedException again) { // changed once more meanwhile: the next round tries again
            outbox.retryAt(owed, clock.instant(), again.getMessage());
            return PushOutcome.RETRY_LATER;
        } catch (ToolException failed) {
            return notTaken(owed, failed);
        }
        return pushed(owed, de, r, tool, wanted, written);
    }

    /** A write the tool did not take: parked if it refused the record for good, else due again after the backoff. */
    private PushOutcome notTaken(Outbox.Entry owed, ToolException failed) {
        if (failed instanceof RecordRefusedException refused) {
            LOG.warning(owed.tool() + " " + owed.account() + " refused a write of entity " + owed.entityId() + " (parked until it changes or is retried): "
                    + refused.getMessage());
            outbox.park(owed, refused.getMessage());
            return PushOutcome.PARKED;
        }
        retryLater(owed, failed);
        return PushOutcome.RETRY_LATER;
    }

    /** Records the acknowledgement; if the DE moved meanwhile, on its newer version (the newer change is owed its own push). */
    private void record(DigitalEntity de, EntityEvent linked, String source) {
        retry.appendOnLatest(source + " of entity " + de.id(), store, de.id(), de.version(),
                List.of(new NewEvent(UUID.randomUUID(), source, linked)));
    }

    /** Due again after the backoff, or after the wait the tool asked for if that is longer. */
    private void retryLater(Outbox.Entry owed, ToolException failed) {
        Duration wait = backoff(owed.attempts());
        if (failed.retryAfter().isPresent() && failed.retryAfter().get().compareTo(wait) > 0) {
            wait = failed.retryAfter().get();
        }
        outbox.retryAt(owed, clock.instant().plus(wait), failed.getMessage());
    }

    /** Exponential from 2 s, capped at 15 min, with full jitter on the upper half so that retries of many rows spread out. */
    Duration backoff(int attempts) {
        long max = Math.min(LONGEST_RETRY.toMillis(), FIRST_RETRY.toMillis() << Math.min(attempts, 20));
        return Duration.ofMillis(max / 2 + random.nextLong(max / 2 + 1));
    }

    private static String emptyToNull(String s) {
        return s == null || s.isEmpty() ? null : s;
    }
}
