package dev.idiom.consistency;

import dev.idiom.consistency.report.EntityGoneException;
import dev.idiom.consistency.report.EntityMovedException;
import dev.idiom.consistency.report.SyncRefusedException;
import dev.idiom.events.Append;
import dev.idiom.events.AppendOutcome;
import dev.idiom.events.Changes;
import dev.idiom.events.DigitalEntity;
import dev.idiom.events.EntityDeleted;
import dev.idiom.events.EntityEvent;
import dev.idiom.events.EntityIds;
import dev.idiom.events.EntityMerged;
import dev.idiom.events.EntityPurged;
import dev.idiom.events.EntityRestored;
import dev.idiom.events.EventStore;
import dev.idiom.events.Field;
import dev.idiom.events.InvalidValueException;
import dev.idiom.events.Metadata;
import dev.idiom.events.NewEvent;
import dev.idiom.events.PrivacyMarked;
import dev.idiom.events.Outbox;
import dev.idiom.events.RecordImported;
import dev.idiom.events.RecordedEvent;
import dev.idiom.events.Replica;
import dev.idiom.events.ReplicaLinked;
import dev.idiom.events.ReplicaUnlinked;
import dev.idiom.events.StaleVersionException;
import dev.idiom.events.UnknownEntityException;
import dev.idiom.events.Visibility;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.logging.Logger;

/**
 * A DE's life beyond its fields, each step an event that reaches the replicas through the engine:
 * deleted to Idiom's trash, restored, purged once the trash's retention ran out; two DEs of one work
 * merged (the loser's replicas move to the winner, its id answers with the winner's); a replica
 * whose record is another work split off into a DE of its own; a DE reverted to an earlier version
 * (new events, the history kept). The copies follow through the engine: a deletion through the
 * accounts that propagate deletions, field changes through the outbox as any change.
 */
public final class DeLifecycle {
    private static final Logger LOG = Logger.getLogger(DeLifecycle.class.getName());
    /** Deletions read per page of the store's listing by type. */
    private static final int PAGE = 500;

    private final EventStore store;
    private final Outbox outbox;
    private final EntityIds ids;
    private final Clock clock;
    private final OptimisticRetry retry;
    private final ToolDirectory tools;

    /** @param writes the one write door (each step reaches this node's read models at once) */
    DeLifecycle(EventStore store, Outbox outbox, EntityIds ids, Clock clock, OptimisticRetry retry, ToolDirectory tools) {
        this.tools = tools;
        this.store = store;
        this.outbox = outbox;
        this.ids = ids;
        this.clock = clock;
        this.retry = retry;
    }

    private DigitalEntity append(UUID id, int expectedVersion, List<NewEvent> events) {
        return store.append(id, expectedVersion, events).entity();
    }

    /** Moves a live DE to the trash, if it is at {@code expectedVersion}. */
    public DigitalEntity delete(UUID id, int expectedVersion, String source) {
        DigitalEntity de = live(id);
        at(de, expectedVersion);
        return append(id, expectedVersion, events(source, new EntityDeleted("deleted by " + source)));
    }

    /** Takes a DE out of the trash: live again, its copies that the deletion removed made again by the engine. */
    public DigitalEntity restore(UUID id, String source) {
        DigitalEntity de = store.load(id).orElseThrow(() -> new UnknownEntityException(id));
        switch (de.lifecycle().state()) {
            case LIVE -> throw new SyncRefusedException("entity " + id + " is not in the trash");
            case MERGED -> throw new EntityMovedException(id, de.lifecycle().mergedInto());
            case PURGED -> throw new EntityGoneException("entity " + id + " was purged from the trash on " + de.lifecycle().since()
                    + " and cannot be restored");
            case TRASHED -> { }
        }
        return append(id, de.version(), events(source, new EntityRestored()));
    }

    /** The DEs in the trash, most recently deleted first (at most {@code limit}). */
    public List<DigitalEntity> trash(int limit) {
        if (limit < 1 || limit > 1000) {
            throw new InvalidValueException("limit must be between 1 and 1000, got " + limit);
        }
        List<DigitalEntity> out = new ArrayList<>();
        forEachTrashed(de -> {
            out.add(de);
            return out.size() < limit;
        });
        return out;
    }

    /** Purges a DE in the trash now (an admin emptying it ahead of the retention). */
    public DigitalEntity purge(UUID id, String source) {
        DigitalEntity de = store.load(id).orElseThrow(() -> new UnknownEntityException(id));
        if (!de.lifecycle().trashed()) {
            throw new SyncRefusedException("entity " + id + " is not in the trash (" + de.lifecycle().state().name().toLowerCase(java.util.Locale.ROOT)
                    + "): only a DE in the trash can be purged");
        }
        return append(id, de.version(), events(source, new EntityPurged()));
    }

    /** Purges every DE that has been in the trash longer than {@code retention}; returns how many. */
    public int purgeExpired(Duration retention) {
        Instant before = clock.instant().minus(retention);
        List<UUID> expired = new ArrayList<>();
        forEachTrashed(de -> {
            if (de.lifecycle().since().isBefore(before)) {
                expired.add(de.id());
            }
            return true;
        });
        int purged = 0;
        for (UUID id : expired) {
            try {
                purge(id, "trash:retention");
                purged++;
            } catch (SyncRefusedException | StaleVersionException restoredMeanwhile) {
                // restored (or changed) since it was listed: the next round decides again
            }
        }
        if (purged > 0) {
            LOG.info("purged " + purged + " DEs that were in the trash longer than " + retention);
        }
        return purged;
    }

    /** Calls {@code each} for every DE in the trash, most recently deleted first, until it answers false. */
    private void forEachTrashed(java.util.function.Predicate<DigitalEntity> each) {
        Set<UUID> seen = new java.util.HashSet<>();
        long before = Long.MAX_VALUE;
        while (true) {
            List<RecordedEvent> page = store.ofType(EntityDeleted.class.getSimpleName(), before, PAGE);
            if (page.isEmpty()) {
                return;
            }
            List<UUID> fresh = page.stream().map(RecordedEvent::entityId).filter(seen::add).toList();
            Map<UUID, DigitalEntity> states = store.loadAll(fresh);
            for (UUID id : fresh) {
                DigitalEntity de = states.get(id);
                if (de != null && de.lifecycle().trashed() && !each.test(de)) {
                    return;
                }
            }
            before = page.getLast().position();
        }
    }

    /**
     * Reverts a DE's fields to what they were at {@code version}: one minor event per field that
     * differs (the history stays, the revert is on top of it), pushed to the copies as any change.
     */
    public DigitalEntity revert(UUID id, int version, int expectedVersion, String source) {
        DigitalEntity de = live(id);
        at(de, expectedVersion);
        if (version < 1) {
            throw new InvalidValueException("version must be an earlier version of the entity, from 1 to " + (de.version() - 1) + ", got " + version);
        }
        if (version >= de.version()) { // a well-formed request the entity's state refuses (it is at that version, or before it): 409
            throw new dev.idiom.consistency.report.SyncRefusedException("the entity is at version " + de.version() + ": revert to an earlier one, from 1 to "
                    + (de.version() - 1) + ", not " + version);
        }
        Metadata past = store.asOfVersion(id, version).metadata();
        Map<Field, Object> values = new LinkedHashMap<>();
        for (Field f : Field.values()) {
            values.put(f, past.get(f));
        }
        List<EntityEvent> changes = Changes.toSet(de.metadata(), values);
        if (changes.isEmpty()) {
            return de;
        }
        return append(id, expectedVersion, changes.stream().map(e -> new NewEvent(UUID.randomUUID(), source + " (revert to version " + version + ")", e))
                .toList());
    }

    /**
     * What a merge or a split left: the DE that stays and the other one; for a merge, the other's
     * copies in accounts where the kept one has a copy already (removed there where the account
     * propagates deletions, else for a curator to remove).
     */
    public record Outcome(DigitalEntity kept, DigitalEntity other, List<DuplicateCopy> duplicates) {
        public Outcome(DigitalEntity kept, DigitalEntity other) {
            this(kept, other, List.of());
        }
    }

    /** A copy a merge left beside the kept DE's copy in one account; {@code removed}: the account propagates deletions, so it goes. */
    public record DuplicateCopy(String tool, String account, String remoteId, boolean removed) {}

    /**
     * Merges {@code loserId} into {@code winnerId} (at {@code expectedVersion}): the winner keeps its
     * fields except those named in {@code fromLoser}, which take the loser's values, and a field
     * only the loser has fills the winner's gap; tags are joined. The loser's replicas move to the
     * winner (each owed the winner's content) and the loser answers with the winner from now on.
     * Both appends go in one transaction; if a concurrent write refused one, it is completed on the
     * entity's newest state, so a merge is never left half-done. A merge with a private side stays
     * private ({@link #privacyAfterMerge}) unless the curator says {@code publish}.
     */
    public Outcome merge(UUID winnerId, UUID loserId, Set<Field> fromLoser, boolean publish, int expectedVersion, String source) {
        if (winnerId.equals(loserId)) {
            throw new InvalidValueException("an entity cannot be merged into itself");
        }
        DigitalEntity winner = live(winnerId);
        at(winner, expectedVersion);
        DigitalEntity loser = live(loserId);
        String why = source + " (merged " + loserId + " into " + winnerId + ")";
        // one copy per account: where the winner has one, the loser's stays behind (and goes where the account propagates deletions)
        List<DigitalEntity.CopyId> duplicates = loser.replicas().stream().filter(r -> winner.holdsCopyIn(r.tool(), r.account()))
                .map(r -> new DigitalEntity.CopyId(r.tool(), r.account(), r.remoteId())).toList();
        PrivacyMarked privacy = privacyAfterMerge(winner, loser, publish);
        List<NewEvent> gained = winnerEvents(winner, loser, fromLoser, privacy, why);
        Append loserPart = new Append(loserId, loser.version(), events(why, new EntityMerged(winnerId, duplicates)));
        // a loser with the winner's content and no copies gives the winner nothing: only the loser's part is written
        List<AppendOutcome> done = gained.isEmpty() ? List.of(AppendOutcome.of(null), store.appendAll(List.of(loserPart)).getFirst())
                : store.appendAll(List.of(new Append(winnerId, winner.version(), gained), loserPart));
        if (!done.get(0).succeeded()) { // the winner moved after it was checked: its part goes on its newest state
            retry.run("merging " + loserId + " into " + winnerId, () -> {
                DigitalEntity latest = store.load(winnerId).orElseThrow();
                List<NewEvent> again = winnerEvents(latest, loser, fromLoser, privacy, why);
                return again.isEmpty() ? latest : append(winnerId, latest.version(), again);
            });
        }
        if (!done.get(1).succeeded()) { // the loser moved meanwhile: its copies as they are now move too
            retry.run("merging " + loserId + " into " + winnerId, () -> {
                DigitalEntity latest = store.load(loserId).orElseThrow();
                DigitalEntity w = store.load(winnerId).orElseThrow();
                List<Replica> copies = latest.replicas().stream().filter(r -> w.replica(r.tool(), r.account(), r.remoteId()).isEmpty()).toList();
                List<NewEvent> moved = links(copies.stream().filter(r -> !w.holdsCopyIn(r.tool(), r.account())).toList(), why);
                if (!moved.isEmpty()) {
                    append(winnerId, w.version(), moved);
                }
                return append(loserId, latest.version(), events(why, new EntityMerged(winnerId, copies.stream().filter(r -> w.holdsCopyIn(r.tool(), r.account()))
                        .map(r -> new DigitalEntity.CopyId(r.tool(), r.account(), r.remoteId())).toList())));
            });
        }
        DigitalEntity merged = store.load(winnerId).orElseThrow();
        // the moved copies hold the loser's record: each is owed the winner's content (a crash before this leaves them to anti-entropy)
        List<Outbox.Owed> owed = new ArrayList<>();
        for (Replica r : merged.replicas()) {
            if (loser.replica(r.tool(), r.account(), r.remoteId()).isPresent() && dev.idiom.events.OutboxRule.owes(merged, r)) {
                owed.add(new Outbox.Owed(winnerId, r.tool(), r.account(), r.remoteId(), merged.version()));
            }
        }
        DigitalEntity left = store.load(loserId).orElseThrow();
        List<DuplicateCopy> leftBehind = new ArrayList<>();
        MirrorRules rules = MirrorRules.of(tools);
        for (Replica r : left.replicas()) { // the duplicates the merge left linked to the loser: removed through the engine, or named
            boolean removed = rules.of(r.tool(), r.account() == null ? "" : r.account()).rule().propagatesDeletions();
            if (removed) {
                owed.add(new Outbox.Owed(loserId, r.tool(), r.account(), r.remoteId(), left.version()));
            }
            leftBehind.add(new DuplicateCopy(r.tool(), r.account(), r.remoteId(), removed));
        }
        outbox.owe(owed);
        return new Outcome(merged, left, leftBehind);
    }

    /**
     * The mark a merge gives the winner, or null: private when either side is hidden from keys
     * without the private right or the loser brings private copies or values — unless the curator
     * {@code publish}es it, which takes away the mark and what the winner had private by origin
     * (copies private in their tools stay so).
     */
    static PrivacyMarked privacyAfterMerge(DigitalEntity winner, DigitalEntity loser, boolean publish) {
        if (publish) {
            return winner.markedPrivate() || winner.privateOrigin() != null || Visibility.hidden(loser) || loser.privateOrigin() != null
                    ? new PrivacyMarked(false) : null;
        }
        boolean privateSide = Visibility.hidden(winner) || Visibility.hidden(loser) || loser.privateOrigin() != null
                || loser.replicas().stream().anyMatch(Replica::privateCopy);
        return privateSide && !winner.markedPrivate() ? new PrivacyMarked(true) : null;
    }

    /** The winner's gains from the loser: fields as chosen, links to the loser's copies in accounts where the winner has none, and its privacy. */
    private static List<NewEvent> winnerEvents(DigitalEntity winner, DigitalEntity loser, Set<Field> fromLoser, PrivacyMarked privacy, String source) {
        Map<Field, Object> values = new LinkedHashMap<>();
        for (Field f : Field.values()) {
            Object mine = winner.metadata().get(f);
            Object theirs = loser.metadata().get(f);
            if (f == Field.TAGS && !fromLoser.contains(f)) {
                Set<String> joined = new java.util.TreeSet<>(winner.metadata().tags());
                joined.addAll(loser.metadata().tags());
                values.put(f, joined);
            } else if (fromLoser.contains(f) || (empty(mine) && !empty(theirs))) {
                values.put(f, theirs);
            }
        }
        List<NewEvent> out = new ArrayList<>(Changes.toSet(winner.metadata(), values).stream().map(e -> new NewEvent(UUID.randomUUID(), source, e)).toList());
        out.addAll(links(loser.replicas().stream().filter(r -> !winner.holdsCopyIn(r.tool(), r.account())).toList(), source));
        if (privacy != null) {
            out.add(new NewEvent(UUID.randomUUID(), source, privacy));
        }
        return out;
    }

    private static boolean empty(Object v) {
        return v == null || (v instanceof java.util.Collection<?> c && c.isEmpty());
    }

    /** The replicas linked to another DE, as they are (version, record last synced, shadow, privacy). */
    private static List<NewEvent> links(List<Replica> replicas, String source) {
        return replicas.stream().map(r -> new NewEvent(UUID.randomUUID(), source, (EntityEvent) new ReplicaLinked(r.tool(), r.account(), r.remoteId(),
                r.remoteVersion(), r.synced(), r.shadow(), null, r.privateCopy()))).toList();
    }

    /**
     * Splits the replica {@code tool}/{@code account}/{@code remoteId} off {@code id} (at
     * {@code expectedVersion}) into a new DE made from the record that copy last synced: a replica
     * that describes another work. Both appends go in one transaction.
     */
    public Outcome split(UUID id, String tool, String account, String remoteId, int expectedVersion, String source) {
        DigitalEntity de = live(id);
        at(de, expectedVersion);
        Replica r = replica(de, tool, account, remoteId);
        if (de.replicas().size() < 2) {
            throw new SyncRefusedException("entity " + id + " has no other replica: there is nothing to split that one from");
        }
        UUID newId = ids.next();
        String why = source + " (split " + r.tool() + " " + r.remoteId() + " off " + id + " into " + newId + ")";
        RecordImported record = new RecordImported(r.synced(), r.tool(), r.account(), r.remoteId(), r.remoteVersion(), r.identityHint(), r.shadow(),
                r.privateCopy());
        ReplicaUnlinked unlinked = new ReplicaUnlinked(r.tool(), r.account(), r.remoteId(), r.synced(), "split off into entity " + newId);
        List<AppendOutcome> done = store.appendAll(List.of(new Append(id, expectedVersion, events(why, unlinked)),
                new Append(newId, 0, events(why, record))));
        if (!done.get(0).succeeded()) { // the DE moved after it was checked: the copy leaves its newest state
            retry.run("splitting " + remoteId + " off " + id, () -> {
                DigitalEntity latest = store.load(id).orElseThrow();
                return latest.replica(r.tool(), r.account(), r.remoteId()).isPresent()
                        ? append(id, latest.version(), events(why, unlinked)) : latest;
            });
        }
        done.get(1).get();
        return new Outcome(store.load(id).orElseThrow(), store.load(newId).orElseThrow());
    }

    /** One copy the repair splits (or would split) off a DE that held it beside another copy of the same account. */
    public record SplitCopy(UUID entity, String title, String tool, String account, String remoteId, UUID newEntity) {}

    /**
     * The repair of stores from before matching kept each library's records apart: every live DE
     * holding two or more copies of one tool account keeps the first and has each other one split
     * off into a DE made from that copy's record ({@link #split}); a field the DE took from a copy
     * split off (and that the first copy holds otherwise) goes back to the first copy's value, so
     * the next push writes nothing the first entry did not hold. Dry run: only says what it would do.
     */
    public List<SplitCopy> splitSameAccount(boolean dryRun, String source) {
        List<SplitCopy> out = new ArrayList<>();
        Set<UUID> seen = new java.util.HashSet<>();
        long before = Long.MAX_VALUE;
        while (true) {
            List<RecordedEvent> page = store.ofType(RecordImported.class.getSimpleName(), before, PAGE);
            if (page.isEmpty()) {
                return out;
            }
            // a record imported onto a DE that already existed is where the matcher joined it
            List<UUID> joined = page.stream().filter(e -> e.version() > 1).map(RecordedEvent::entityId).filter(seen::add).toList();
            for (DigitalEntity de : store.loadAll(joined).values()) {
                if (de.live()) {
                    out.addAll(splitSameAccount(de, dryRun, source));
                }
            }
            before = page.getLast().position();
        }
    }

    private List<SplitCopy> splitSameAccount(DigitalEntity de, boolean dryRun, String source) {
        Map<String, List<Replica>> byAccount = new LinkedHashMap<>();
        de.replicas().forEach(r -> byAccount.computeIfAbsent(r.tool() + "\n" + (r.account() == null ? "" : r.account()), k -> new ArrayList<>()).add(r));
        List<SplitCopy> out = new ArrayList<>();
        for (List<Replica> copies : byAccount.values()) {
            if (copies.size() < 2) {
                continue;
            }
            Replica first = copies.getFirst();
            List<Replica> extra = copies.subList(1, copies.size());
            if (!dryRun) {
                restoreFirstCopysValues(de.id(), first, extra, source);
            }
            for (Replica r : extra) {
                UUID newId = null;
                if (!dryRun) {
                    DigitalEntity now = store.load(de.id()).orElseThrow();
                    newId = split(de.id(), r.tool(), r.account() == null ? "" : r.account(), r.remoteId(), now.version(), source).other().id();
                }
                out.add(new SplitCopy(de.id(), de.metadata().title(), r.tool(), r.account(), r.remoteId(), newId));
            }
        }
        return out;
    }

    /** The fields the DE holds as a copy to be split off has them, where the first copy holds another value: the first copy's again. */
    private void restoreFirstCopysValues(UUID id, Replica first, List<Replica> extra, String source) {
        retry.run("restoring " + id + " to its first copy's values", () -> {
            DigitalEntity de = store.load(id).orElseThrow();
            Map<Field, Object> values = new LinkedHashMap<>();
            for (Field f : Field.values()) {
                Object mine = de.metadata().get(f);
                Object kept = first.synced().get(f);
                if (f == Field.TAGS) {
                    Set<String> tags = new java.util.TreeSet<>(de.metadata().tags());
                    extra.forEach(r -> r.synced().tags().stream().filter(t -> !first.synced().tags().contains(t)).forEach(tags::remove));
                    values.put(f, tags);
                } else if (!java.util.Objects.equals(mine, kept) && mine != null
                        && extra.stream().anyMatch(r -> java.util.Objects.equals(r.synced().get(f), mine))) {
                    values.put(f, kept);
                }
            }
            List<EntityEvent> changes = Changes.toSet(de.metadata(), values);
            return changes.isEmpty() ? de : append(id, de.version(), changes.stream().map(e -> new NewEvent(UUID.randomUUID(), source, e)).toList());
        });
    }

    /**
     * Unlinks one replica by hand (at {@code expectedVersion}): the copy stays in its tool as it is,
     * nothing more is pushed to it, and a later pull leaves it alone instead of linking it again.
     */
    public DigitalEntity unlink(UUID id, String tool, String account, String remoteId, int expectedVersion, String source) {
        DigitalEntity de = live(id);
        at(de, expectedVersion);
        Replica r = replica(de, tool, account, remoteId);
        return append(id, expectedVersion, events(source, new ReplicaUnlinked(r.tool(), r.account(), r.remoteId(), r.synced(),
                "unlinked by a curator (" + source + ")", true)));
    }

    /** The DE's replica as a request names it (an empty account is the account-less tools' null). */
    private static Replica replica(DigitalEntity de, String tool, String account, String remoteId) {
        return de.replica(tool, account == null || account.isEmpty() ? null : account, remoteId)
                .or(() -> de.replica(tool, account, remoteId))
                .orElseThrow(() -> new UnknownEntityException("entity " + de.id() + " has no replica " + tool + " " + account + " " + remoteId));
    }

    /** The DE if it is live; a DE in the trash or purged is gone (410), a merged one answers with its winner. */
    public DigitalEntity live(UUID id) {
        DigitalEntity de = store.load(id).orElseThrow(() -> new UnknownEntityException(id));
        refuseUnlessLive(de);
        return de;
    }

    /** Throws the answer for a DE that is not live: gone (in the trash or purged) or moved (merged). */
    public static void refuseUnlessLive(DigitalEntity de) {
        switch (de.lifecycle().state()) {
            case LIVE -> { }
            case TRASHED -> throw new EntityGoneException("entity " + de.id() + " is in the trash since " + de.lifecycle().since()
                    + "; restore it with POST /api/entities/" + de.id() + "/restore");
            case PURGED -> throw new EntityGoneException("entity " + de.id() + " was deleted and purged from the trash on " + de.lifecycle().since());
            case MERGED -> throw new EntityMovedException(de.id(), de.lifecycle().mergedInto());
        }
    }

    private static void at(DigitalEntity de, int expectedVersion) {
        if (de.version() != expectedVersion) {
            throw new StaleVersionException(de.id(), expectedVersion, de.version());
        }
    }

    private static List<NewEvent> events(String source, EntityEvent... events) {
        return java.util.Arrays.stream(events).map(e -> new NewEvent(UUID.randomUUID(), source, e)).toList();
    }

    /** The fields a request names (JSON names), for a merge's choices. */
    public static Set<Field> fields(List<String> names) {
        Set<Field> out = new LinkedHashSet<>();
        names.forEach(n -> out.add(Field.named(n)));
        return out;
    }
}
