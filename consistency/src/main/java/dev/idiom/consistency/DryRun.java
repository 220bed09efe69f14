package dev.idiom.consistency;

import dev.idiom.consistency.report.SyncPlan;
import dev.idiom.events.DigitalEntity;
import dev.idiom.events.EventStore;
import dev.idiom.events.Outbox;
import dev.idiom.events.Replica;
import dev.idiom.events.accounts.ToolAccountRepository;
import dev.idiom.wrappers.AnnotationTool;
import dev.idiom.wrappers.ChangePage;
import dev.idiom.wrappers.RemoteRecord;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * A curator's sync planned, not run ({@code dryRun}): what the pull of the account would bring in
 * (new DEs, records merged into DEs Idiom has, updates, copies unlinked, a hold), then what every
 * account would be written (copies its rule owes, new DEs from the pull included; changes owed;
 * copies a rule would remove), with samples. It reads the account's changes as a pull does but saves
 * no cursor and writes nothing — no event, no outbox row, no file or remote record (a Pinboard
 * snapshot still uses that call's turn).
 */
public final class DryRun {
    private final ToolDirectory tools;
    private final EventStore store;
    private final Outbox outbox;
    private final ToolAccountRepository states;
    private final Mirrors mirrors;
    private final Pull pull;
    private final AccountReplicas replicas;
    private final DeletionHold hold;
    private final Clock clock;

    DryRun(ToolDirectory tools, EventStore store, Outbox outbox, ToolAccountRepository states, Mirrors mirrors, Pull pull, AccountReplicas replicas,
           DeletionHold hold, Clock clock) {
        this.tools = tools;
        this.store = store;
        this.outbox = outbox;
        this.states = states;
        this.mirrors = mirrors;
        this.pull = pull;
        this.replicas = replicas;
        this.hold = hold;
        this.clock = clock;
    }

    public SyncPlan plan(String name) {
        AnnotationTool tool = tools.open(name);
        MirrorRules rules = MirrorRules.of(tools);
        SyncPlan.Pulled pulled = new SyncPlan.Pulled();
        List<DigitalEntity> newDes = new ArrayList<>();
        List<DigitalEntity> changedDes = new ArrayList<>();
        if (rules.of(tool.kind(), tool.account()).rule().direction().read()) {
            try {
                pullPlan(tool.answeringAtOnce(), pulled, newDes, changedDes); // a dry run answers now, not after a tool's turn comes
            } catch (dev.idiom.wrappers.ToolTurnException notYet) {
                pulled.queued = notYet.getMessage();
            }
        }
        Map<String, SyncPlan.Writes> writes = new LinkedHashMap<>();
        for (MirrorRules.Selection s : rules.all()) {
            if (s.rule().direction().written()) {
                writes.put(s.account().name(), new SyncPlan.Writes(s.account().name()));
            }
        }
        owedNow(rules, writes);
        ruleWrites(rules, s -> true, writes);
        // what the pull would bring in, as the push decision would then see it: new DEs' copies, changed DEs' writes
        for (DigitalEntity de : newDes) {
            for (MirrorRules.Selection s : rules.all()) {
                if (writes.containsKey(s.account().name()) && s.rule().mirrors()) {
                    AnnotationTool to = tools.open(s.account().kind(), s.account().account()).orElse(null);
                    planned(writes.get(s.account().name()), PushDecision.copy(de, s, to, PushFacts.NONE), de, to);
                }
            }
        }
        for (DigitalEntity de : changedDes) {
            for (Replica r : de.replicas()) {
                MirrorRules.Selection s = rules.of(r.tool(), r.account());
                if (!AccountReplicas.in(r, tool) && writes.containsKey(String.valueOf(s.account().name()))) {
                    AnnotationTool to = tools.open(r.tool(), PushDecision.accountOf(r.account())).orElse(null);
                    Outbox.Entry row = new Outbox.Entry(de.id(), r.tool(), PushDecision.accountOf(r.account()), r.remoteId(), de.version(), clock.instant(), 0, false, null);
                    planned(writes.get(s.account().name()), PushDecision.decide(row, de, s, to, PushFacts.of(mirrors, r.tool(), PushDecision.accountOf(r.account()))), de, to);
                }
            }
        }
        held(rules, writes);
        return new SyncPlan(name, pulled, new ArrayList<>(writes.values()));
    }

    /**
     * What a new replication rule of the account {@code name} would write there once saved — the
     * copies it would make, the changes it would owe, the copies it would remove (and whether that
     * would hold the account) — with samples, before it is saved; no pull, nothing written.
     */
    public SyncPlan rule(String name, MirrorRule candidate) {
        MirrorRules rules = MirrorRules.of(tools).with(name, candidate);
        Map<String, SyncPlan.Writes> writes = new LinkedHashMap<>();
        writes.put(name, new SyncPlan.Writes(name));
        if (candidate.direction().written()) {
            ruleWrites(rules, s -> name.equals(s.account().name()), writes);
        }
        held(rules, writes);
        return new SyncPlan(name, new SyncPlan.Pulled(), new ArrayList<>(writes.values()));
    }

    /** The copies and removals the rules of the accounts {@code which} takes owe, as the planner would find them, into their accounts' writes. */
    private void ruleWrites(MirrorRules rules, java.util.function.Predicate<MirrorRules.Selection> which, Map<String, SyncPlan.Writes> writes) {
        for (Mirrors.Owing o : mirrors.preview(rules, which)) {
            SyncPlan.Writes w = writes.get(o.selection().account().name());
            if (!o.removal()) {
                copy(w, o.selection(), o.entity());
            } else {
                w.remove(o.entity().id(), o.entity().metadata().title());
            }
        }
    }

    /** The mass-delete guard, as the planner applies it. */
    private void held(MirrorRules rules, Map<String, SyncPlan.Writes> writes) {
        for (MirrorRules.Selection s : rules.all()) {
            SyncPlan.Writes w = writes.get(s.account().name());
            if (w != null && w.removals.count() > 0) {
                int copies = replicas.count(s.account().kind(), s.account().account());
                if (hold.holds(w.removals.count(), copies)) {
                    w.held = String.format("its rule would remove %d of the %d copies (more than %.0f%%): the account would be held, nothing removed",
                            w.removals.count(), copies, hold.share() * 100);
                }
            }
        }
    }

    /** The account's changes since its cursor, classified as the pull would take them; nothing saved. */
    private void pullPlan(AnnotationTool tool, SyncPlan.Pulled pulled, List<DigitalEntity> newDes, List<DigitalEntity> changedDes) {
        String cursor = states.cursor(tool.kind(), tool.account()).orElse(null);
        Set<String> listed = new HashSet<>();
        List<String> deleted = new ArrayList<>();
        boolean complete = true;
        ChangePage page;
        do {
            page = tool.changedSince(cursor);
            complete &= page.complete();
            for (RemoteRecord r : page.records()) {
                listed.add(r.remoteId());
                Optional<UUID> holder = store.findReplica(tool.kind(), tool.account(), r.remoteId());
                if (holder.isPresent()) {
                    DigitalEntity de = store.load(holder.get()).orElseThrow();
                    Replica known = de.replica(tool.kind(), tool.account(), r.remoteId()).orElseThrow();
                    if (CanonicalForm.agree(known.synced(), tool.tagsAsRead(r.metadata(), known.synced()), tool.fieldsKept())) {
                        pulled.unchanged++;
                    } else {
                        pulled.updated.add(de.id(), r.metadata().title());
                        pull.wouldLeave(tool, r).ifPresent(changedDes::add);
                    }
                } else if (store.findKey(dev.idiom.events.MatchKeys.detached(tool.kind(), tool.account(), r.remoteId())).isPresent()) {
                    pulled.unchanged++; // unlinked by a curator: the pull leaves it alone
                } else {
                    Optional<UUID> match = store.findMatch(r.metadata(), tool.kind(), tool.account());
                    if (match.isPresent()) {
                        pulled.merged.add(match.get(), r.metadata().title());
                        pull.wouldLeave(tool, r).ifPresent(changedDes::add);
                    } else {
                        UUID id = UUID.randomUUID(); // a DE as the pull would make it, for the rules to look at
                        pulled.created.add(null, r.metadata().title());
                        newDes.add(new DigitalEntity(id, 1, r.metadata(), List.of(new Replica(tool.kind(), tool.account(), r.remoteId(), r.version(),
                                r.metadata(), r.identityHint(), r.shadow(), r.privateCopy())), clock.instant(), clock.instant()));
                    }
                }
            }
            listed.addAll(page.present());
            pulled.skipped += (int) page.skipped().stream().filter(k -> !k.imported()).count();
            deleted.addAll(page.deleted());
            cursor = page.cursor();
        } while (page.more());
        if (complete) {
            deleted.addAll(pull.missingFromSnapshot(tool, listed));
        }
        Map<String, UUID> linked = replicas.holders(tool, deleted);
        linked.forEach((remoteId, id) -> pulled.unlinked.add(id, remoteId));
        int count = replicas.count(tool.kind(), tool.account());
        if (hold.holds(linked.size(), count)) {
            pulled.held = String.format("a pull would unlink %d of the %d replicas in %s %s (more than %.0f%%): it would be held, not applied",
                    linked.size(), count, tool.kind(), tool.account(), hold.share() * 100);
        }
    }

    /** The rows owed now, each decided as the push will decide it. */
    private void owedNow(MirrorRules rules, Map<String, SyncPlan.Writes> writes) {
        List<Outbox.Entry> owed = outbox.list(null, null, Integer.MAX_VALUE).stream().filter(e -> !e.parked()).toList();
        Map<UUID, DigitalEntity> des = store.loadAll(owed.stream().map(Outbox.Entry::entityId).distinct().toList());
        for (Outbox.Entry e : owed) {
            String account = PushDecision.accountOf(e.account());
            MirrorRules.Selection s = rules.of(e.tool(), account);
            SyncPlan.Writes w = writes.get(String.valueOf(s.account().name()));
            if (w != null) {
                AnnotationTool to = tools.open(e.tool(), account).orElse(null);
                DigitalEntity de = des.get(e.entityId());
                planned(w, PushDecision.decide(e, de, s, to, PushFacts.of(mirrors, e.tool(), account)), de, to);
            }
        }
    }

    /** What a step would write, into the account's plan: a copy the tool would refuse as it stands is named with the tool's reason. */
    private static void planned(SyncPlan.Writes w, PushStep step, DigitalEntity de, AnnotationTool tool) {
        switch (step) {
            case PushStep.Copy c -> tool.refusal(c.wanted()).ifPresentOrElse(why -> w.refuse(de.id(), de.metadata().title() + ": " + why),
                    () -> w.copy(de.id(), de.metadata().title()));
            case PushStep.Restore r -> w.copy(de.id(), de.metadata().title());
            case PushStep.Write write -> w.update(de.id(), de.metadata().title());
            case PushStep.Remove r -> w.remove(de.id(), de.metadata().title());
            case PushStep.Settle s -> { }
            case PushStep.Park p -> { }
            case PushStep.Refuse r -> { }
        }
    }

    /** A copy a rule's preview owes: to be made, or, where the tool would refuse it as it stands, named with the tool's reason. */
    private void copy(SyncPlan.Writes w, MirrorRules.Selection s, DigitalEntity de) {
        tools.open(s.account().kind(), s.account().account())
                .ifPresent(t -> planned(w, new PushStep.Copy(ReplicaContent.wanted(de, t, null), ReplicaContent.keepPrivate(de), EventSources.mirror(t.kind())), de, t));
    }

}
