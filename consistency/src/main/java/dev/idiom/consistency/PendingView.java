package dev.idiom.consistency;

import dev.idiom.events.Append;
import dev.idiom.events.DigitalEntity;
import dev.idiom.events.EventStore;
import dev.idiom.events.MatchKeys;
import dev.idiom.events.Metadata;
import dev.idiom.events.UnknownEntityException;
import dev.idiom.wrappers.AnnotationTool;
import dev.idiom.wrappers.RemoteRecord;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * The store as a batch's earlier records leave it: the keys and states the batch's records can
 * need are read from the store once, up front; entities that earlier records of the batch create
 * or change are seen in their pending state (so two records of one work still make one DE).
 * A batch decided while the batch before it still commits starts from what that one changes
 * ({@link Pending}): its entities as that batch leaves them, and each key's holders as the store
 * has them with that batch's gains and losses made (whether or not its commit is in yet); anything
 * else comes from the store, which that commit does not change.
 */
final class PendingView {
    private final EventStore store;
    private final Map<UUID, DigitalEntity> states = new HashMap<>();
    /** The holders of each key looked at, as the batch leaves them. */
    private final Map<MatchKeys.Key, List<UUID>> holders = new HashMap<>();
    /** The earlier batch's changes to key holders, which its commit may not have made yet. */
    private final Map<MatchKeys.Key, Moves> earlier;
    /** This batch's changes to key holders, looked at or not (a key's whole holder list is read only when needed). */
    private final Map<MatchKeys.Key, Moves> moved = new HashMap<>();
    private final Set<UUID> changed = new LinkedHashSet<>();
    /** The account's conflict policy, read once per batch. */
    final ConflictPolicy policy;
    /** The DEs whose copy in this account may have been made without its link recorded (read at most once per batch, when asked). */
    private java.util.function.Supplier<Set<UUID>> copiesTried = Set::of;
    private Set<UUID> tried;

    /** The view, knowing which DEs' copies in the account may be there unlinked ({@link dev.idiom.events.Outbox#copiesTried}). */
    PendingView copiesTried(java.util.function.Supplier<Set<UUID>> read) {
        this.copiesTried = read;
        return this;
    }

    /** Most past versions of a DE looked at for the content a copy tried then was made with. */
    private static final int VERSIONS_LOOKED_AT = 64;

    /**
     * The DE, among those whose copy here was tried, that {@code r} is Idiom's unlinked copy of though
     * no match found it: by its origin where the tool keeps one; else by the content the DE had at any
     * of its recent versions (the copy was made before an edit the DE has since).
     */
    Optional<UUID> triedCopyOf(AnnotationTool tool, RemoteRecord r) {
        Set<MatchKeys.Key> keys = MatchKeys.of(r.metadata());
        for (UUID id : tried()) {
            DigitalEntity de = load(id);
            if (de.holdsCopyIn(tool.kind(), tool.account())) {
                continue;
            }
            if (tool.namesOrigin()) {
                if (tool.madeFor(r, id)) {
                    return Optional.of(id);
                }
                continue;
            }
            List<dev.idiom.events.RecordedEvent> history = store.history(id);
            for (int v = history.size(); v >= Math.max(1, history.size() - VERSIONS_LOOKED_AT); v--) {
                if (!java.util.Collections.disjoint(keys, MatchKeys.of(DigitalEntity.fold(id, history.subList(0, v)).metadata()))) {
                    return Optional.of(id);
                }
            }
        }
        return Optional.empty();
    }

    /** True if the DE's copy in this account may have been made already, its link not recorded. */
    boolean copyTried(UUID id) {
        return tried().contains(id);
    }

    private Set<UUID> tried() {
        if (tried == null) {
            tried = copiesTried.get();
        }
        return tried;
    }

    /** What a batch's appends change, as it will be once it commits: the entities, and which holders each key gains and loses. */
    record Pending(Map<UUID, DigitalEntity> states, Map<MatchKeys.Key, Moves> keys) {
        static final Pending NONE = new Pending(Map.of(), Map.of());
    }

    /** Entities that came to hold a key and that stopped holding it. */
    record Moves(Set<UUID> gained, Set<UUID> lost) {
        Moves() {
            this(new LinkedHashSet<>(), new LinkedHashSet<>());
        }

        void gain(UUID id) {
            lost.remove(id);
            gained.add(id);
        }

        void lose(UUID id) {
            gained.remove(id);
            lost.add(id);
        }

        /** The store's holders with these moves made (whether or not the store has them already). */
        void applyTo(List<UUID> ids) {
            ids.removeAll(lost);
            gained.forEach(id -> {
                if (!ids.contains(id)) {
                    ids.add(id);
                }
            });
        }

        Moves copy() {
            return new Moves(new LinkedHashSet<>(gained), new LinkedHashSet<>(lost));
        }
    }

    /** A view for one record, reading the store as it goes. */
    PendingView(EventStore store, ConflictPolicy policy) {
        this.store = store;
        this.policy = policy;
        this.earlier = Map.of();
    }

    /** A view for a batch: every key the records could match, and the entities holding them, in two round trips. */
    PendingView(EventStore store, AnnotationTool tool, List<RemoteRecord> records, ConflictPolicy policy) {
        this(store, tool, records, policy, Pending.NONE);
    }

    /** A view for a batch decided while {@code before} (the batch before it) may still be committing. */
    PendingView(EventStore store, AnnotationTool tool, List<RemoteRecord> records, ConflictPolicy policy, Pending before) {
        this.store = store;
        this.policy = policy;
        this.earlier = before.keys();
        states.putAll(before.states());
        Set<MatchKeys.Key> wanted = new LinkedHashSet<>();
        for (RemoteRecord r : records) {
            wanted.add(MatchKeys.replica(tool.kind(), tool.account(), r.remoteId()));
            wanted.add(MatchKeys.detached(tool.kind(), tool.account(), r.remoteId()));
            if (r.identityHint() != null) {
                wanted.add(MatchKeys.hint(tool.kind(), r.identityHint()));
            }
            wanted.addAll(MatchKeys.of(r.metadata()));
        }
        Map<MatchKeys.Key, List<UUID>> found = store.findKeys(wanted);
        wanted.forEach(k -> holders.put(k, asPending(k, found.getOrDefault(k, List.of()))));
        Set<UUID> unread = new LinkedHashSet<>();
        holders.values().forEach(ids -> ids.stream().filter(id -> !states.containsKey(id)).forEach(unread::add));
        states.putAll(store.loadAll(unread));
    }

    /** The batch's append {@code a} as if committed: later records see its DE and keys. */
    void apply(Append a) {
        DigitalEntity before = a.expectedVersion() == 0 ? DigitalEntity.empty(a.entityId()) : load(a.entityId());
        DigitalEntity after = before.appending(a.expectedVersion(), a.events(), Instant.EPOCH); // times are the store's to set
        MatchKeys.of(before).forEach(k -> {
            moved.computeIfAbsent(k, x -> new Moves()).lose(a.entityId());
            List<UUID> ids = holders.get(k);
            if (ids != null) {
                ids.remove(a.entityId());
            }
        });
        MatchKeys.of(after).forEach(k -> {
            moved.computeIfAbsent(k, x -> new Moves()).gain(a.entityId());
            List<UUID> ids = holders.get(k);
            if (ids != null && !ids.contains(a.entityId())) {
                ids.add(a.entityId());
            }
        });
        states.put(a.entityId(), after);
        changed.add(a.entityId());
    }

    /** What the appends applied so far change: where the next batch's view starts while this batch commits. */
    Pending pending() {
        Map<UUID, DigitalEntity> s = new HashMap<>();
        changed.forEach(id -> s.put(id, states.get(id)));
        Map<MatchKeys.Key, Moves> k = new HashMap<>();
        moved.forEach((key, m) -> k.put(key, m.copy()));
        return new Pending(s, k);
    }

    /** A key's holders as the store has them, with the earlier batch's and this batch's moves made. */
    private List<UUID> asPending(MatchKeys.Key k, List<UUID> stored) {
        List<UUID> ids = new ArrayList<>(stored);
        Moves e = earlier.get(k);
        if (e != null) {
            e.applyTo(ids);
        }
        Moves m = moved.get(k);
        if (m != null) {
            m.applyTo(ids);
        }
        return ids;
    }

    DigitalEntity load(UUID id) {
        DigitalEntity de = states.get(id);
        if (de == null) {
            de = store.load(id).orElseThrow(() -> new UnknownEntityException(id));
            states.put(id, de);
        }
        return de;
    }

    Optional<UUID> findReplica(String tool, String account, String remoteId) {
        return findKey(MatchKeys.replica(tool, account, remoteId));
    }

    Optional<UUID> findKey(MatchKeys.Key key) {
        return holders(key).stream().findFirst();
    }

    /** The first key (DOI, URL, title) whose holder is compatible with the record, as the store's findMatch decides. */
    Optional<UUID> findMatch(Metadata record, java.util.function.Predicate<UUID> eligible) {
        return MatchKeys.firstMatch(record, this::holders, id -> load(id).metadata(), eligible);
    }

    private List<UUID> holders(MatchKeys.Key k) {
        if (!holders.containsKey(k)) {
            holders.put(k, asPending(k, store.findKeys(List.of(k)).getOrDefault(k, List.of())));
        }
        return holders.get(k);
    }
}
