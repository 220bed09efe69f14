package dev.idiom.consistency;

import dev.idiom.consistency.report.MirrorProgress;
import dev.idiom.consistency.report.ParkedWrite;
import dev.idiom.events.DigitalEntity;
import dev.idiom.events.EntityDeleted;
import dev.idiom.events.EntityRestored;
import dev.idiom.events.EventStore;
import dev.idiom.events.Outbox;
import dev.idiom.events.RecordedEvent;
import dev.idiom.events.Replica;
import dev.idiom.events.ReplicaLinked;
import dev.idiom.events.accounts.MirrorPlan;
import dev.idiom.events.accounts.ToolAccountRepository;
import dev.idiom.wrappers.AnnotationTool;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.logging.Logger;

/**
 * Replication rules carried out: each account whose rule selects DEs follows the change feed, and
 * for every DE that changed it owes, through the outbox, a copy the account lacks or the removal of
 * a copy the rule no longer selects. The pushes do the work ({@link ReplicaPush}), so it survives
 * restarts, is shared by nodes and is paced by each tool. A new rule is planned from the feed's
 * first event (a first mirror); how far each rule got is stored after its rows committed, so a plan
 * cut short resumes there, and planning twice only owes the same rows again. Only copies a rule
 * made are removed by one: the records an account brought in itself, or a curator uploaded, stay;
 * and a pass that would remove more than the mass-delete share of an account's copies holds the
 * account instead, until a curator allows it.
 */
public final class Mirrors {
    private static final Logger LOG = Logger.getLogger(Mirrors.class.getName());
    /** Events read per page of the feed. */
    static final int PAGE = 2_000;

    private final EventStore store;
    private final Outbox outbox;
    private final ToolDirectory tools;
    private final ToolAccountRepository states;
    private final Clock clock;
    private final AccountReplicas replicas;
    private final DeletionHold hold;

    Mirrors(EventStore store, Outbox outbox, ToolDirectory tools, ToolAccountRepository states, AccountReplicas replicas, DeletionHold hold, Clock clock) {
        this.replicas = replicas;
        this.hold = hold;
        this.store = store;
        this.outbox = outbox;
        this.tools = tools;
        this.states = states;
        this.clock = clock;
    }

    /** What planning owed: copies to make and copies to remove. */
    public record Planned(int copies, int removals) {
        Planned plus(Planned o) {
            return new Planned(copies + o.copies, removals + o.removals);
        }
    }

    /** Plans every account with a rule that writes to it, up to the feed's head. */
    public Planned planAll() {
        MirrorRules rules = MirrorRules.of(tools);
        Planned total = new Planned(0, 0);
        for (MirrorRules.Selection s : rules.all()) {
            if (s.rule().plans() && !states.syncState(s.account().kind(), s.account().account()).paused()) {
                total = total.plus(plan(s));
            }
        }
        return total;
    }

    /** Plans one account by name (a curator's sync), if its rule writes to it. */
    public Planned plan(String name) {
        return MirrorRules.of(tools).all().stream().filter(s -> name.equals(s.account().name()))
                .filter(s -> s.rule().plans()).findFirst().map(this::plan).orElse(new Planned(0, 0));
    }

    /** The least feed position every rule that plans has been planned to (the planner's place in the feed); null when no rule plans. */
    public Long plannedTo() {
        Long least = null;
        for (MirrorRules.Selection s : MirrorRules.of(tools).all()) {
            if (s.rule().plans()) {
                MirrorPlan p = progress(s.account().kind(), s.account().account(), s.rule());
                long at = p == null ? 0 : p.position();
                least = least == null ? at : Math.min(least, at);
            }
        }
        return least;
    }

    /** Where an account's mirror stands (see {@link MirrorProgress}). */
    public MirrorProgress progress(String name) {
        ToolDirectory.Account a = MirrorRules.of(tools).all().stream().map(MirrorRules.Selection::account).filter(x -> name.equals(x.name()))
                .findFirst().orElseThrow(() -> new dev.idiom.events.UnknownEntityException("no tool account is called '" + name + "'"));
        MirrorPlan p = progress(a.kind(), a.account(), a.rule());
        Outbox.Depth d = outbox.depth().get(Outbox.accountKey(a.kind(), a.account()));
        int owed = d == null ? 0 : d.pending();
        int parked = d == null ? 0 : d.parked();
        Duration pace = tools.open(name).limits().minInterval();
        return new MirrorProgress(name, a.rule().view(), a.rule().direction().text(), p == null ? 0 : p.position(),
                p == null ? store.headPosition() : p.head(), owed, pace.multipliedBy(owed), parked, parked == 0 ? List.of() : parked(a.kind(), a.account(), 5));
    }

    /** The account's parked writes, at most {@code limit}, oldest first: each with its record's title and the tool's words. */
    public List<ParkedWrite> parked(String name, int limit) {
        if (limit < 1 || limit > 1000) {
            throw new dev.idiom.events.InvalidValueException("limit must be between 1 and 1000, got " + limit);
        }
        dev.idiom.wrappers.AnnotationTool tool = tools.open(name);
        return parked(tool.kind(), tool.account(), limit);
    }

    private List<ParkedWrite> parked(String kind, String account, int limit) {
        List<Outbox.Entry> rows = outbox.list(kind, account, limit).stream().filter(Outbox.Entry::parked).toList();
        java.util.Map<java.util.UUID, dev.idiom.events.DigitalEntity> des = store.loadAll(rows.stream().map(Outbox.Entry::entityId).distinct().toList());
        return rows.stream().map(e -> new ParkedWrite(e.entityId(), des.containsKey(e.entityId()) ? des.get(e.entityId()).metadata().title() : null,
                Outbox.NEW_COPY.equals(e.remoteId()) ? null : e.remoteId(), e.lastError(), e.attempts())).toList();
    }

    /** How far the account's rule has been planned: null if it has no rule or planning has not begun. */
    MirrorPlan progress(String kind, String account, MirrorRule rule) {
        return states.mirrorPlan(kind, account).filter(p -> p.rule().equals(rule.fingerprint())).orElse(null);
    }

    private Planned plan(MirrorRules.Selection s) {
        String kind = s.account().kind();
        String account = s.account().account();
        String rule = s.rule().fingerprint();
        MirrorPlan at = progress(kind, account, s.rule());
        if (at == null) { // a new rule: from the first event, and say where the feed stood (the first mirror's end)
            at = new MirrorPlan(rule, 0, store.headPosition());
            states.saveMirrorPlan(kind, account, at, clock.instant());
            LOG.info("planning the replication rule " + s.rule() + " of " + s.account().name() + " over " + at.head() + " events");
        }
        long position = at.position();
        Planned total = new Planned(0, 0);
        int copiesHere = -1;
        while (true) {
            List<RecordedEvent> page = store.after(position, PAGE);
            if (page.isEmpty()) {
                return total;
            }
            List<Owing> owing = owing(s, store.loadAll(changed(page, s)).values(), restored(page));
            int removals = (int) owing.stream().filter(Owing::removal).count();
            if (removals > 0 && page.getLast().position() > at.removalsAllowedTo()) {
                copiesHere = copiesHere < 0 ? replicas.count(kind, account) : copiesHere;
                if (hold.holds(total.removals() + removals, copiesHere)) { // the mass-delete guard, as for a pull's deletions
                    String why = String.format("its replication rule %s would remove %d of the %d copies in %s %s (more than %.0f%%); "
                            + "nothing was removed: resume with allowDeletions=true to remove them", s.rule(), total.removals() + removals,
                            copiesHere, kind, account, hold.share() * 100);
                    states.updateSyncState(kind, account, st -> st.held(new HeldDeletions(why, List.of()).json()), clock.instant());
                    LOG.warning("tool account held: " + why);
                    return total;
                }
            }
            total = total.plus(owe(s, owing));
            position = page.getLast().position();
            states.saveMirrorPlan(kind, account, new MirrorPlan(rule, position, at.head(), at.removalsAllowedTo()), clock.instant());
        }
    }

    /** A curator allowed the removals held: the account's rule may remove what it planned up to the feed's head now. */
    void allowRemovals(String kind, String account) {
        states.mirrorPlan(kind, account).ifPresent(p -> states.saveMirrorPlan(kind, account,
                new MirrorPlan(p.rule(), p.position(), p.head(), store.headPosition()), clock.instant()));
    }

    /**
     * The DEs of a page whose events may change what the rule owes the account: any change of
     * content or privacy; a copy unlinked from the account; and, for a rule that selects by where DEs
     * have copies, any news of copies. (The links and acknowledgements a first mirror writes by the
     * thousand are not read again one by one: they owe nothing more.)
     */
    private static Set<UUID> changed(List<RecordedEvent> page, MirrorRules.Selection s) {
        Set<UUID> out = new LinkedHashSet<>();
        for (RecordedEvent e : page) {
            boolean copyNews = e.event() instanceof ReplicaLinked || e.event() instanceof dev.idiom.events.ReplicaPushed
                    || e.event() instanceof dev.idiom.events.ReplicaReread || e.event() instanceof dev.idiom.events.ReplicaUnlinked;
            dev.idiom.events.ReplicaEvent r = copyNews ? (dev.idiom.events.ReplicaEvent) e.event() : null;
            // a copy linked or acknowledged in the account itself owes nothing more; one unlinked there may
            if (r == null || !s.rule().from().isEmpty() || (e.event() instanceof dev.idiom.events.ReplicaUnlinked
                    && r.tool().equals(s.account().kind()) && sameAccount(r.account(), s.account().account()))) {
                out.add(e.entityId());
            }
        }
        return out;
    }

    /** The rows owed the account: a copy where it lacks one, the removal of a rule's copy the rule no longer selects. */
    private Planned owe(MirrorRules.Selection s, List<Owing> owing) {
        outbox.owe(owing.stream().map(o -> new Outbox.Owed(o.entity().id(), s.account().kind(), s.account().account(),
                o.remoteId() == null ? Outbox.NEW_COPY : o.remoteId(), o.entity().version())).toList());
        int removals = (int) owing.stream().filter(Owing::removal).count();
        return new Planned(owing.size() - removals, removals);
    }

    /** One thing a rule owes an account: a copy of the DE, the removal of its copy {@code remoteId}, or that copy back (a restore). */
    record Owing(MirrorRules.Selection selection, DigitalEntity entity, String remoteId, Kind kind) {
        enum Kind { COPY, REMOVAL, RESTORE }

        boolean removal() {
            return kind == Kind.REMOVAL;
        }
    }

    /**
     * What the account is owed for these DEs: a copy where its rule selects a DE it lacks; the
     * removal of a copy the rule made and no longer selects, or of any copy of a DE in Idiom's trash
     * when the account propagates deletions; and, for a DE taken out of the trash ({@code restored}),
     * the copies its deletion removed there.
     */
    private List<Owing> owing(MirrorRules.Selection s, java.util.Collection<DigitalEntity> des, Set<UUID> restored) {
        List<Owing> out = new ArrayList<>();
        Map<UUID, List<String>> removedByDeletion = s.rule().propagatesDeletions() && !restored.isEmpty()
                ? removedByDeletion(restored, s.account().kind(), s.account().account()) : Map.of();
        for (DigitalEntity de : des) {
            List<Replica> held = de.replicas().stream().filter(s::holds).toList();
            List<String> back = held.isEmpty() && de.live() ? removedByDeletion.getOrDefault(de.id(), List.of()) : List.of();
            back.forEach(id -> out.add(new Owing(s, de, id, Owing.Kind.RESTORE)));
            if (s.selects(de) && held.isEmpty() && back.isEmpty()) {
                out.add(new Owing(s, de, null, Owing.Kind.COPY));
            }
            for (Replica r : held) {
                if (PushDecision.removes(s, de, r, PushFacts.of(this, s.account().kind(), s.account().account()))) {
                    out.add(new Owing(s, de, r.remoteId(), Owing.Kind.REMOVAL));
                }
            }
        }
        return out;
    }

    /**
     * The copies in this account that Idiom removed because their DE went to the trash, per DE, for
     * DEs live again: those unlinked by the deletion since its last {@link EntityDeleted}.
     */
    Map<UUID, List<String>> removedByDeletion(java.util.Collection<UUID> ids, String kind, String account) {
        Map<UUID, List<String>> out = new java.util.HashMap<>();
        String source = EventSources.deletion(kind);
        store.histories(ids).forEach((id, events) -> {
            List<String> removed = new ArrayList<>();
            for (RecordedEvent e : events) {
                if (e.event() instanceof EntityDeleted) {
                    removed.clear();
                } else if (e.event() instanceof dev.idiom.events.ReplicaUnlinked u && source.equals(e.source()) && u.tool().equals(kind)
                        && sameAccount(u.account(), account)) {
                    removed.add(u.remoteId());
                } else if (e.event() instanceof dev.idiom.events.ReplicaEvent r && !(e.event() instanceof dev.idiom.events.ReplicaUnlinked)) {
                    removed.remove(r.remoteId()); // linked again
                }
            }
            if (!removed.isEmpty()) {
                out.put(id, removed);
            }
        });
        return out;
    }

    /** The DEs of a page taken out of the trash. */
    private static Set<UUID> restored(List<RecordedEvent> page) {
        Set<UUID> out = new java.util.HashSet<>();
        page.stream().filter(e -> e.event() instanceof EntityRestored).forEach(e -> out.add(e.entityId()));
        return out;
    }

    /**
     * What planning every rule up to the feed's head would owe now, without owing it: the copies a
     * push would then make (see {@link PushDecision#owesCopy}) and the removals. For a dry run.
     */
    List<Owing> preview(MirrorRules rules) {
        return preview(rules, s -> true);
    }

    /** As {@link #preview(MirrorRules)}, for the accounts {@code which} takes only. */
    List<Owing> preview(MirrorRules rules, java.util.function.Predicate<MirrorRules.Selection> which) {
        List<Owing> out = new ArrayList<>();
        for (MirrorRules.Selection s : rules.all()) {
            if (!s.rule().plans() || !which.test(s)) {
                continue;
            }
            MirrorPlan at = progress(s.account().kind(), s.account().account(), s.rule());
            long position = at == null ? 0 : at.position();
            boolean keepsPrivate = tools.open(s.account().kind(), s.account().account()).map(AnnotationTool::keepsPrivate).orElse(false);
            for (List<RecordedEvent> page = store.after(position, PAGE); !page.isEmpty(); page = store.after(position, PAGE)) {
                List<Owing> owing = owing(s, store.loadAll(changed(page, s)).values(), restored(page));
                Set<UUID> deleted = deletedThere(owing.stream().filter(o -> o.kind() == Owing.Kind.COPY).map(o -> o.entity().id()).toList(),
                        s.account().kind(), s.account().account());
                owing.stream().filter(o -> o.kind() != Owing.Kind.COPY || PushDecision.owesCopy(s, o.entity(), keepsPrivate, deleted.contains(o.entity().id()))).forEach(out::add);
                position = page.getLast().position();
            }
        }
        return out;
    }

    /**
     * The DEs among these whose copy in this account was deleted there (by a curator in the tool, or
     * unlinked for it): a rule does not put it back. A rule's own removal and an account's removal do
     * not count: a rule set again, or an account added again, makes those copies again.
     */
    Set<UUID> deletedThere(java.util.Collection<UUID> ids, String kind, String account) {
        Set<UUID> out = new java.util.HashSet<>();
        store.histories(ids).forEach((id, events) -> {
            if (events.stream().anyMatch(e -> e.event() instanceof dev.idiom.events.ReplicaUnlinked u && u.tool().equals(kind)
                    && sameAccount(u.account(), account) && !EventSources.byIdiom(e.source()))) {
                out.add(id);
            }
        });
        return out;
    }

    /** True if {@code r} is a copy a replication rule made (not one the account brought in, nor a curator's upload). */
    boolean madeByRule(DigitalEntity de, Replica r) {
        String source = EventSources.mirror(r.tool());
        for (RecordedEvent e : store.history(de.id())) {
            if (e.event() instanceof ReplicaLinked l && l.tool().equals(r.tool()) && sameAccount(l.account(), r.account())) {
                return source.equals(e.source());
            }
        }
        return false;
    }

    private static boolean sameAccount(String a, String b) {
        return (a == null ? "" : a).equals(b == null ? "" : b);
    }
}
