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
import java.util.stream.Collectors;

/**
 * The store as a batch's earlier records leave it: the keys and states the batch's records can
 * need are read from the store once, up front; entities that earlier records of the batch create
 * or change are seen in their pending state (so two records of one work still make one DE).
 */
final class PendingView {
    private final EventStore store;
    private final Map<UUID, DigitalEntity> states = new HashMap<>();
    private final Map<MatchKeys.Key, List<UUID>> holders = new HashMap<>();
    /** The account's conflict policy, read once per batch. */
    final ConflictPolicy policy;

    /** A view for one record, reading the store as it goes. */
    PendingView(EventStore store, ConflictPolicy policy) {
        this.store = store;
        this.policy = policy;
    }

    /** A view for a batch: every key the records could match, and the entities holding them, in two round trips. */
    PendingView(EventStore store, AnnotationTool tool, List<RemoteRecord> records, ConflictPolicy policy) {
        this(store, policy);
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
        wanted.forEach(k -> holders.put(k, new ArrayList<>(found.getOrDefault(k, List.of()))));
        states.putAll(store.loadAll(found.values().stream().flatMap(List::stream).collect(Collectors.toSet())));
    }

    /** The batch's append {@code a} as if committed: later records see its DE and keys. */
    void apply(Append a) {
        DigitalEntity before = a.expectedVersion() == 0 ? DigitalEntity.empty(a.entityId()) : load(a.entityId());
        DigitalEntity after = before.appending(a.expectedVersion(), a.events(), Instant.EPOCH); // times are the store's to set
        MatchKeys.of(before).forEach(k -> holders.getOrDefault(k, new ArrayList<>()).remove(a.entityId()));
        MatchKeys.of(after).forEach(k -> {
            List<UUID> ids = holders.computeIfAbsent(k, x -> new ArrayList<>());
            if (!ids.contains(a.entityId())) {
                ids.add(a.entityId());
            }
        });
        states.put(a.entityId(), after);
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
    Optional<UUID> findMatch(Metadata record) {
        return MatchKeys.firstMatch(record, this::holders, id -> load(id).metadata());
    }

    private List<UUID> holders(MatchKeys.Key k) {
        if (!holders.containsKey(k)) {
            holders.put(k, new ArrayList<>(store.findKeys(List.of(k)).getOrDefault(k, List.of())));
        }
        return holders.get(k);
    }
}
