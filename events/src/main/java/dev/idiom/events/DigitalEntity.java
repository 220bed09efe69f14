package dev.idiom.events;

import java.io.Serializable;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * A publication as Idiom knows it: the fold of its events. This fold is the one definition of a
 * DE; the projection, the rebuild check and as-of reads all use it.
 *
 * @param version the number of events folded in (the ETag)
 * @param markedPrivate a curator marked it private ({@link PrivacyMarked}); see {@link Visibility}
 * @param lifecycle live, in the trash, purged or merged into another
 * @param detached copies a curator unlinked by hand: left alone in their tools, never linked to this DE again by a pull
 * @param heldFields fields with a conflict the {@code ask} policy left to a curator: not written to any copy until it is settled
 *     ({@link ConflictSettled})
 * @param privateOrigin what only private copies ever supplied, private after they go (null: nothing); see {@link Visibility}
 */
public record DigitalEntity(UUID id, int version, Metadata metadata, List<Replica> replicas, Instant createdAt, Instant updatedAt,
                            boolean markedPrivate, Lifecycle lifecycle, List<CopyId> detached, java.util.Set<Field> heldFields,
                            PrivateOrigin privateOrigin) implements Serializable {

    /** Which copy: its tool, account and id there. */
    public record CopyId(String tool, String account, String remoteId) implements Serializable {}

    public DigitalEntity {
        replicas = replicas == null ? List.of() : List.copyOf(replicas);
        lifecycle = lifecycle == null ? Lifecycle.LIVE : lifecycle;
        detached = detached == null ? List.of() : List.copyOf(detached);
        heldFields = heldFields == null || heldFields.isEmpty() ? java.util.Set.of() : java.util.Collections.unmodifiableSet(java.util.EnumSet.copyOf(heldFields));
    }

    public DigitalEntity(UUID id, int version, Metadata metadata, List<Replica> replicas, Instant createdAt, Instant updatedAt,
            boolean markedPrivate, Lifecycle lifecycle, List<CopyId> detached, java.util.Set<Field> heldFields) {
        this(id, version, metadata, replicas, createdAt, updatedAt, markedPrivate, lifecycle, detached, heldFields, null);
    }

    public DigitalEntity(UUID id, int version, Metadata metadata, List<Replica> replicas, Instant createdAt, Instant updatedAt,
            boolean markedPrivate, Lifecycle lifecycle, List<CopyId> detached) {
        this(id, version, metadata, replicas, createdAt, updatedAt, markedPrivate, lifecycle, detached, java.util.Set.of());
    }

    public DigitalEntity(UUID id, int version, Metadata metadata, List<Replica> replicas, Instant createdAt, Instant updatedAt,
            boolean markedPrivate, Lifecycle lifecycle) {
        this(id, version, metadata, replicas, createdAt, updatedAt, markedPrivate, lifecycle, List.of());
    }

    public DigitalEntity(UUID id, int version, Metadata metadata, List<Replica> replicas, Instant createdAt, Instant updatedAt,
            boolean markedPrivate) {
        this(id, version, metadata, replicas, createdAt, updatedAt, markedPrivate, Lifecycle.LIVE);
    }

    public DigitalEntity(UUID id, int version, Metadata metadata, List<Replica> replicas, Instant createdAt, Instant updatedAt) {
        this(id, version, metadata, replicas, createdAt, updatedAt, false);
    }

    /** The state before the first event. */
    public static DigitalEntity empty(UUID id) {
        return new DigitalEntity(id, 0, Metadata.EMPTY, List.of(), null, null);
    }

    /** The replica in {@code tool}/{@code account} with that remote id, if linked. */
    public Optional<Replica> replica(String tool, String account, String remoteId) {
        return replicas.stream().filter(r -> r.sameCopy(tool, account, remoteId)).findFirst();
    }

    /** Whether a copy of this DE lives in that tool account (the account-less tools' null and "" alike). */
    public boolean holdsCopyIn(String tool, String account) {
        String a = account == null ? "" : account;
        return replicas.stream().anyMatch(r -> r.tool().equals(tool) && (r.account() == null ? "" : r.account()).equals(a));
    }

    public boolean exists() {
        return version > 0;
    }

    /** It exists and is neither in the trash, purged nor merged away: what reads, search, matching and rules see. */
    public boolean live() {
        return exists() && lifecycle.live();
    }

    /** Folds {@code events} (in stream order) into a state. */
    public static DigitalEntity fold(UUID id, List<RecordedEvent> events) {
        DigitalEntity state = empty(id);
        for (RecordedEvent e : events) {
            state = state.apply(e.event(), e.recordedAt());
        }
        return state;
    }

    /** The state after one more event. */
    public DigitalEntity apply(EntityEvent event, Instant at) {
        Metadata next = switch (event) {
            case RecordImported imported -> version == 0 ? imported.metadata() : metadata.withGapsFilledFrom(imported.metadata());
            case ReplicaLinked linked -> metadata;
            case ReplicaPushed pushed -> metadata;
            case ReplicaReread reread -> metadata;
            case ReplicaUnlinked unlinked -> metadata;
            case FieldChanged changed -> metadata.with(changed.field(), changed.value());
            case TagAdded added -> metadata.withTag(added.tag());
            case TagRemoved removed -> metadata.withoutTag(removed.tag());
            case ConflictResolved conflict -> metadata.with(conflict.field(), conflict.winner());
            case ConflictSettled settled -> metadata.with(settled.field(), settled.value());
            case PrivacyMarked marked -> metadata;
            case EntityPurged purged -> Metadata.EMPTY;
            case EntityDeleted deleted -> metadata;
            case EntityRestored restored -> metadata;
            case EntityMerged merged -> metadata;
        };
        List<Replica> nextReplicas = switch (event) {
            // a record that joins a DE keeps as its own what it holds otherwise than the DE: a push writes it only what changes later
            case RecordImported i when i.fromTool() -> linked(new Replica(i.tool(), i.account(), i.remoteId(), i.remoteVersion(), i.metadata(),
                    i.identityHint(), i.shadow(), i.privateCopy(), version == 0 ? null : Replica.ownFields(next, i.metadata())), null, next, false);
            case ReplicaLinked l -> linked(new Replica(l.tool(), l.account(), l.remoteId(), l.remoteVersion(), l.synced(), null, l.shadow(),
                    l.privateCopy()), l.replaces(), next, false);
            case ReplicaPushed p -> linked(new Replica(p.tool(), p.account(), p.remoteId(), p.remoteVersion(), p.synced(), null, p.shadow(),
                    p.privateCopy()), p.replaces(), next, p.pushedVersion() == version);
            case ReplicaReread r -> linked(new Replica(r.tool(), r.account(), r.remoteId(), r.remoteVersion(), r.synced(), null, r.shadow(),
                    r.privateCopy(), r.ownFields()), null, next, false);
            case ReplicaUnlinked u -> replicas.stream().filter(r -> !r.sameCopy(u.tool(), u.account(), u.remoteId())).toList();
            // they moved to the winner, but for those of an account where the winner has a copy already
            case EntityMerged m -> replicas.stream().filter(r -> m.duplicates().stream().anyMatch(c -> r.sameCopy(c.tool(), c.account(), c.remoteId())))
                    .toList();
            case EntityPurged p -> replicas.stream().map(Replica::purged).toList();
            default -> replicas;
        };
        boolean marked = event instanceof PrivacyMarked m ? m.marked() : markedPrivate;
        Lifecycle life = switch (event) {
            case EntityDeleted d -> new Lifecycle(Lifecycle.State.TRASHED, at, null);
            case EntityRestored r -> Lifecycle.LIVE;
            case EntityPurged p -> new Lifecycle(Lifecycle.State.PURGED, at, null);
            case EntityMerged m -> new Lifecycle(Lifecycle.State.MERGED, null, m.into());
            default -> lifecycle;
        };
        List<CopyId> nextDetached = detached;
        if (event instanceof ReplicaUnlinked u && u.byCurator()) {
            nextDetached = new ArrayList<>(detached);
            nextDetached.add(new CopyId(u.tool(), u.account(), u.remoteId()));
        } else if (event instanceof ReplicaEvent r && !(event instanceof ReplicaUnlinked) && !detached.isEmpty()) { // linked again by hand
            nextDetached = detached.stream().filter(c -> !(c.tool().equals(r.tool()) && java.util.Objects.equals(c.account(), r.account())
                    && c.remoteId().equals(r.remoteId()))).toList();
        }
        java.util.Set<Field> held = heldFields;
        if (event instanceof ConflictResolved c && ConflictResolved.ASK.equals(c.policy())) {
            held = new java.util.HashSet<>(held);
            held.add(c.field());
        } else if (event instanceof ConflictSettled c && held.contains(c.field())) {
            held = new java.util.HashSet<>(held);
            held.remove(c.field());
        }
        return new DigitalEntity(id, version + 1, next, nextReplicas, createdAt == null ? at : createdAt, at, marked, life, nextDetached, held,
                PrivateOrigin.after(privateOrigin, this, event, next));
    }

    /**
     * The state after appending {@code events} at {@code now}, if this state is at
     * {@code expectedVersion}: every store adapter's optimistic check and fold, in one place.
     *
     * @throws StaleVersionException the stream is at another version
     */
    public DigitalEntity appending(int expectedVersion, List<NewEvent> events, Instant now) {
        if (version != expectedVersion) {
            throw new StaleVersionException(id, expectedVersion, version);
        }
        DigitalEntity state = this;
        for (NewEvent e : events) {
            state = state.apply(e.event(), now);
        }
        return state;
    }

    /**
     * The replicas with {@code r} added, or replacing the entry for the same copy (or for the
     * copy it was known as before, {@code formerId}, when the tool re-keyed it).
     */
    private List<Replica> linked(Replica r, String formerId, Metadata next, boolean pushedNow) {
        List<Replica> out = new ArrayList<>();
        String hint = r.identityHint();
        String shadow = r.shadow();
        Metadata own = r.ownFields();
        for (Replica existing : replicas) {
            boolean same = existing.sameCopy(r.tool(), r.account(), r.remoteId())
                    || (formerId != null && existing.sameCopy(r.tool(), r.account(), formerId));
            if (!same) {
                out.add(existing);
            } else {
                hint = hint == null ? existing.identityHint() : hint; // a re-link that gives no hint keeps the one known
                shadow = shadow == null ? existing.shadow() : shadow;
                own = own != null ? own : existing.ownFieldsAfter(next, r.synced(), pushedNow);
            }
        }
        out.add(new Replica(r.tool(), r.account(), r.remoteId(), r.remoteVersion(), r.synced(), hint, shadow, r.privateCopy(), own));
        return out;
    }
}
