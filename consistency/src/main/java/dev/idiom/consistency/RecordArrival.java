package dev.idiom.consistency;

import dev.idiom.consistency.report.ImportOutcome;
import dev.idiom.events.Append;
import dev.idiom.events.Changes;
import dev.idiom.events.ConflictResolved;
import dev.idiom.events.DigitalEntity;
import dev.idiom.events.EntityEvent;
import dev.idiom.events.EntityIds;
import dev.idiom.events.InvalidValueException;
import dev.idiom.events.MatchKeys;
import dev.idiom.events.NewEvent;
import dev.idiom.events.RecordImported;
import dev.idiom.events.Replica;
import dev.idiom.events.ReplicaLinked;
import dev.idiom.wrappers.AnnotationTool;
import dev.idiom.wrappers.RemoteRecord;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;

/**
 * The one decision of what a record from a tool does to Idiom's DEs, used by imports, pulls,
 * pushes that met a remote change, and anti-entropy repairs. A record already linked as a replica
 * brings its remote changes in through the one merge ({@link ReplicaMerge}); a record under a new
 * id that succeeds a copy the DE has re-keys that copy; any other record is a major event, merged
 * into the DE of the same work (the tool's identity hint, then DOI, URL, title + year + first
 * author) or a new DE.
 */
final class RecordArrival {
    /** The reason a copy unchanged in its tool was re-based ({@link Reread}). */
    static final String READ_ANEW = "read anew at the version last synced: the copy is unchanged, Idiom reads it otherwise now; the DE is unchanged";

    private final EntityIds ids;

    RecordArrival(EntityIds ids) {
        this.ids = ids;
    }

    /** What to do with one record: its outcome, and the append that records it (none when unchanged or skipped). */
    record Decision(ImportOutcome outcome, Append append) {
        Decision {
            if (append != null) {
                outcome = outcome.withConflicts((int) append.events().stream().filter(e -> e.event() instanceof ConflictResolved).count());
            }
        }

        static Decision skipped(RemoteRecord r, String why) {
            return new Decision(new ImportOutcome(ImportOutcome.Kind.SKIPPED, r.remoteId(), null, why), null);
        }
    }

    /** Decides against {@code view}; a record with no field Idiom reads (an untitled one is a record), or with a value Idiom refuses, is skipped with the reason. */
    Decision decide(AnnotationTool tool, RemoteRecord r, PendingView view) {
        if (!Changes.describes(r.metadata())) {
            return Decision.skipped(r, "the record has no field Idiom reads");
        }
        try {
            return decideValid(tool, r, view);
        } catch (InvalidValueException invalid) {
            return Decision.skipped(r, invalid.getMessage());
        }
    }

    private Decision decideValid(AnnotationTool tool, RemoteRecord arrived, PendingView view) {
        String source = EventSources.replica(tool);
        Optional<UUID> linked = view.findReplica(tool.kind(), tool.account(), arrived.remoteId());
        Optional<UUID> detachedFrom = linked.isPresent() ? Optional.empty()
                : view.findKey(MatchKeys.detached(tool.kind(), tool.account(), arrived.remoteId()));
        if (detachedFrom.isPresent()) { // a curator unlinked this copy by hand: it is left alone, not linked to a DE again
            return new Decision(new ImportOutcome(ImportOutcome.Kind.UNCHANGED, arrived.remoteId(), detachedFrom.get(), null), null);
        }
        RemoteRecord r = arrived;
        if (linked.isPresent()) {
            DigitalEntity de = view.load(linked.get());
            // a copy kept in the tool of a DE purged from the trash, or one a merge left beside the winner's copy in this account
            if (de.lifecycle().state() == dev.idiom.events.Lifecycle.State.PURGED || de.lifecycle().state() == dev.idiom.events.Lifecycle.State.MERGED) {
                return new Decision(new ImportOutcome(ImportOutcome.Kind.UNCHANGED, r.remoteId(), de.id(), null), null);
            }
            Replica replica = de.replica(tool.kind(), tool.account(), r.remoteId()).orElseThrow();
            r = read(tool, r, replica.synced());
            // the same version with the same content is no change; the same version read otherwise, where versions name the
            // content, is Idiom reading it anew (re-based, nothing merged); else (anti-entropy found the replica diverged) it goes
            // through the merge like any remote change
            if (Objects.equals(replica.remoteVersion(), r.version()) && CanonicalForm.agree(replica.synced(), r.metadata(), tool.fieldsKept())
                    && replica.privateCopy() == r.privateCopy()) {
                return new Decision(new ImportOutcome(ImportOutcome.Kind.UNCHANGED, r.remoteId(), de.id(), null), null);
            }
            if (Reread.sameVersion(tool, replica, r)) {
                dev.idiom.events.ReplicaReread reread = Reread.of(tool, r, de, replica);
                return new Decision(new ImportOutcome(ImportOutcome.Kind.UNCHANGED, r.remoteId(), de.id(), reread == null ? null : READ_ANEW),
                        reread == null ? null : new Append(de.id(), de.version(), List.of(new NewEvent(UUID.randomUUID(), source, reread))));
            }
            return merged(tool, r, de, replica, null, view, source);
        }
        RecordImported imported = new RecordImported(r.metadata(), tool.kind(), tool.account(), r.remoteId(), r.version(), r.identityHint(),
                r.shadow(), r.privateCopy());
        // (tool, account, remote id, version) names the event: a retried import cannot record it twice
        NewEvent event = new NewEvent(UUID.nameUUIDFromBytes((tool.kind() + "\n" + tool.account() + "\n" + r.remoteId() + "\n" + r.version())
                .getBytes(StandardCharsets.UTF_8)), source, imported);
        // the tool's own cross-user identity (BibSonomy's interhash) first, then DOI, URL, title; never a DE that already has a
        // copy in this account (two entries of one file are two records to their owner: a likely pair is only suggested, by
        // the duplicates listing), unless the record succeeds that copy
        RemoteRecord record = r;
        java.util.function.Predicate<UUID> eligible = id -> {
            DigitalEntity de = view.load(id);
            return !de.holdsCopyIn(tool.kind(), tool.account()) || succeeded(tool, record, de).isPresent();
        };
        Optional<UUID> match = r.identityHint() == null ? Optional.empty()
                : view.findKey(MatchKeys.hint(tool.kind(), r.identityHint())).filter(eligible);
        if (match.isEmpty()) {
            match = view.findMatch(r.metadata(), eligible);
        }
        if (match.isEmpty()) {
            Optional<UUID> own = view.triedCopyOf(tool, r);
            if (own.isPresent()) {
                return ownCopy(tool, r, view.load(own.get()), source);
            }
        }
        if (match.isPresent()) {
            DigitalEntity de = view.load(match.get());
            // Idiom's own copy, its link not recorded: by its origin where the tool keeps one, else as the copy of a DE tried there
            if (!de.holdsCopyIn(tool.kind(), tool.account()) && (tool.namesOrigin() ? tool.madeFor(r, de.id()) : view.copyTried(de.id()))) {
                return ownCopy(tool, r, de, source);
            }
            Optional<Replica> former = succeeded(tool, r, de);
            if (former.isPresent()) {
                return merged(tool, read(tool, r, former.get().synced()), de, former.get(), former.get().remoteId(), view, source);
            }
            if (de.live()) { // a record of a work whose DE is in the trash is a new DE
                return new Decision(new ImportOutcome(ImportOutcome.Kind.MERGED, r.remoteId(), de.id(), null), new Append(de.id(), de.version(), List.of(event)));
            }
        }
        UUID id = ids.next();
        return new Decision(new ImportOutcome(ImportOutcome.Kind.CREATED, r.remoteId(), id, null), new Append(id, 0, List.of(event)));
    }

    /** Why a copy Idiom made, read back before its link was recorded, was linked and nothing taken from it. */
    static final String OWN_COPY = "Idiom's own copy of this entity, read back before its link was recorded: linked, nothing taken from it";

    /**
     * A copy Idiom made of {@code de} and had not linked yet (the tool's answer lost, or a crash
     * between the write and its record): linked as what the tool holds, the DE unchanged — the
     * copy's reading of the DE never fills the DE, nor reaches the other copies.
     */
    private static Decision ownCopy(AnnotationTool tool, RemoteRecord r, DigitalEntity de, String source) {
        ReplicaLinked link = new ReplicaLinked(tool.kind(), tool.account(), r.remoteId(), r.version(), r.metadata(), r.shadow(), null, r.privateCopy());
        return new Decision(new ImportOutcome(ImportOutcome.Kind.UNCHANGED, r.remoteId(), de.id(), OWN_COPY),
                new Append(de.id(), de.version(), List.of(new NewEvent(UUID.randomUUID(), source, link))));
    }

    /** The record with its tags in Idiom's words, read through the tags its copy was last synced with (see {@link AnnotationTool#tagsAsRead}). */
    static RemoteRecord read(AnnotationTool tool, RemoteRecord r, dev.idiom.events.Metadata synced) {
        dev.idiom.events.Metadata m = tool.tagsAsRead(r.metadata(), synced);
        return m == r.metadata() ? r : new RemoteRecord(r.remoteId(), r.version(), m, r.identityHint(), r.shadow(), r.privateCopy());
    }

    /**
     * A copy this DE has in the account under a former id that the record succeeds (a BibSonomy
     * post edited on the site gets a new hash): the copy is re-keyed rather than a second linked
     * and the old one left behind.
     */
    private static Optional<Replica> succeeded(AnnotationTool tool, RemoteRecord r, DigitalEntity de) {
        return de.replicas().stream().filter(former -> former.tool().equals(tool.kind()) && Objects.equals(former.account(), tool.account())
                && !former.remoteId().equals(r.remoteId())
                && tool.succeeds(r, new RemoteRecord(former.remoteId(), former.remoteVersion(), former.synced(), former.identityHint(), former.shadow())))
                .findFirst();
    }

    /** Idiom's side of the last sync: the copy's record, with the DE's values at the join for the fields the copy keeps as its own. */
    private static dev.idiom.events.Metadata ownBase(Replica replica) {
        dev.idiom.events.Metadata own = replica.ownFields();
        dev.idiom.events.Metadata base = replica.synced();
        if (own == null || base == null) {
            return base;
        }
        for (dev.idiom.events.Field f : dev.idiom.events.Field.values()) {
            Object v = own.get(f);
            if (v != null && f != dev.idiom.events.Field.TAGS) {
                base = base.with(f, v);
            }
        }
        return base;
    }

    /** The replica's changes since its last sync merged in, and the replica re-synced to the record (under its new id if {@code replaces}). */
    private static Decision merged(AnnotationTool tool, RemoteRecord r, DigitalEntity de, Replica replica, String replaces, PendingView view, String source) {
        List<EntityEvent> events = new ArrayList<>(ReplicaMerge.remoteChanges(replica.synced(), ownBase(replica), r.metadata(), de.metadata(),
                view.policy, tool.kind(), tool.account(), tool.fieldsKept(), de.updatedAt(), tool.modifiedAt(r)));
        events.add(new ReplicaLinked(tool.kind(), tool.account(), r.remoteId(), r.version(), r.metadata(), r.shadow(), replaces, r.privateCopy()));
        return new Decision(new ImportOutcome(ImportOutcome.Kind.UPDATED, r.remoteId(), de.id(), null),
                new Append(de.id(), de.version(), events.stream().map(e -> new NewEvent(UUID.randomUUID(), source, e)).toList()));
    }
}
