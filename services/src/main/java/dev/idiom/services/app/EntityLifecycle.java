package dev.idiom.services.app;

import dev.idiom.consistency.DeLifecycle;
import dev.idiom.consistency.SuggestedDuplicates;
import dev.idiom.events.DigitalEntity;
import dev.idiom.events.EntitySnapshot;
import dev.idiom.events.EventCodec;
import dev.idiom.events.Field;
import dev.idiom.events.Visibility;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.UUID;

/**
 * A DE's life beyond its fields, as both protocols ask for it: the trash (delete, restore, purge,
 * the list), merge, split, revert and unlink. The engine decides each step ({@link DeLifecycle});
 * this answers with the DEs as the endpoints show them and holds the trash's retention.
 */
public final class EntityLifecycle {
    private final DeLifecycle steps;
    private final SuggestedDuplicates duplicates;
    private final EventCodec codec;
    private final Duration retention;

    /** @param retention how long a DE stays in the trash before it is purged ({@code trash-days}) */
    public EntityLifecycle(DeLifecycle steps, SuggestedDuplicates duplicates, EventCodec codec, Duration retention) {
        this.steps = steps;
        this.duplicates = duplicates;
        this.codec = codec;
        this.retention = retention;
    }

    /** One copy the repair split (or would split) off a DE: which DE, its title, the copy, and the DE made from it (null in a dry run). */
    public record SplitCopy(UUID entity, String title, String tool, String account, String remoteId, UUID newEntity) {}

    /** Splits every copy a DE holds beside another copy of the same account off into a DE of its own (a repair; see {@link DeLifecycle#splitSameAccount}). */
    public List<SplitCopy> splitSameAccount(boolean dryRun, String source) {
        return steps.splitSameAccount(dryRun, source).stream()
                .map(c -> new SplitCopy(c.entity(), c.title(), c.tool(), c.account(), c.remoteId(), c.newEntity())).toList();
    }

    /**
     * A likely pair of DEs and why.
     *
     * @param evidence the kind of key they share: {@code doi}, {@code url} or {@code title}
     * @param key the shared key as matching normalises it
     */
    public record DuplicatePair(DigitalEntity first, DigitalEntity second, String evidence, String key) {}

    /** The likely pairs a curator decides (merge, or "not duplicates"); a pair with a DE the caller may not see is left out. */
    public List<DuplicatePair> duplicates(int limit, Caller caller) {
        return duplicates.open(limit).stream()
                .filter(p -> caller.seesPrivate() || !Visibility.hidden(p.first()) && !Visibility.hidden(p.second()))
                .map(p -> new DuplicatePair(p.first(), p.second(), p.evidence(), p.key())).toList();
    }

    /** Remembers that the two DEs are different works: they are not suggested as a pair again. */
    public void dismissDuplicate(UUID a, UUID b, String source) {
        duplicates.dismiss(a, b, source);
    }

    public Duration retention() {
        return retention;
    }

    public EntitySnapshot delete(UUID id, int expectedVersion, String source) {
        return shown(steps.delete(id, expectedVersion, source));
    }

    public EntitySnapshot restore(UUID id, String source) {
        return shown(steps.restore(id, source));
    }

    public EntitySnapshot purge(UUID id, String source) {
        return shown(steps.purge(id, source));
    }

    /** The DEs in the trash, most recently deleted first. */
    public List<DigitalEntity> trash(int limit) {
        return steps.trash(limit);
    }

    /** Purges what has been in the trash longer than the retention (the hourly sweep); returns how many. */
    public int purgeExpired() {
        return steps.purgeExpired(retention);
    }

    public EntitySnapshot revert(UUID id, int version, int expectedVersion, String source) {
        return shown(steps.revert(id, version, expectedVersion, source));
    }

    public EntitySnapshot unlink(UUID id, String tool, String account, String remoteId, int expectedVersion, String source) {
        return shown(steps.unlink(id, tool, account, remoteId, expectedVersion, source));
    }

    /**
     * What a merge or a split left: the DE that stays and the other one; for a merge, the other's copies
     * in accounts where the kept DE has one already.
     */
    public record Outcome(EntitySnapshot kept, EntitySnapshot other, List<DuplicateCopy> duplicates) {}

    /** A copy a merge left beside the kept DE's copy in one account: {@code removed} there (the account propagates deletions), or for a curator to remove. */
    public record DuplicateCopy(String tool, String account, String remoteId, boolean removed) {}

    /**
     * @param fromLoser the names of the fields that take the other DE's value
     * @param publish the kept DE is public even where a side was private (otherwise a merge with a private side stays private)
     */
    public Outcome merge(UUID winner, UUID loser, List<String> fromLoser, boolean publish, int expectedVersion, String source) {
        Set<Field> fields = DeLifecycle.fields(fromLoser);
        DeLifecycle.Outcome o = steps.merge(winner, loser, fields, publish, expectedVersion, source);
        return new Outcome(shown(o.kept()), shown(o.other()),
                o.duplicates().stream().map(d -> new DuplicateCopy(d.tool(), d.account(), d.remoteId(), d.removed())).toList());
    }

    public Outcome split(UUID id, String tool, String account, String remoteId, int expectedVersion, String source) {
        DeLifecycle.Outcome o = steps.split(id, tool, account, remoteId, expectedVersion, source);
        return new Outcome(shown(o.kept()), shown(o.other()), List.of());
    }

    /** Throws the answer for a DE that is not live: gone (in the trash or purged, 410) or moved (merged, 308 to its winner). */
    public static void refuseUnlessLive(DigitalEntity de) {
        DeLifecycle.refuseUnlessLive(de);
    }

    private EntitySnapshot shown(DigitalEntity de) {
        return EntitySnapshot.of(de, codec);
    }
}
