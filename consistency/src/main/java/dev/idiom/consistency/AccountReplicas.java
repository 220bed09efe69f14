package dev.idiom.consistency;

import dev.idiom.events.DigitalEntity;
import dev.idiom.events.EventStore;
import dev.idiom.events.MatchKeys;
import dev.idiom.events.Replica;
import dev.idiom.wrappers.AnnotationTool;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.function.BiConsumer;

/** The DEs with copies in one tool account, found by the store's match keys and walked in chunks so that a large library never sits in memory at once. */
final class AccountReplicas {
    /** DEs loaded per round trip when a whole account is walked. */
    static final int CHUNK = 500;

    private final EventStore store;

    AccountReplicas(EventStore store) {
        this.store = store;
    }

    /** The DEs holding a copy in this account. */
    List<UUID> holders(String kind, String account) {
        MatchKeys.Key k = MatchKeys.account(kind, account);
        return store.findKeys(List.of(k)).getOrDefault(k, List.of());
    }

    int count(String kind, String account) {
        return holders(kind, account).size();
    }

    /** Each copy in the account with its DE, a chunk of DEs at a time; stops early when {@code enough} says so. */
    void forEach(AnnotationTool tool, BiConsumer<DigitalEntity, Replica> each, java.util.function.BooleanSupplier enough) {
        forEach(tool, holders(tool.kind(), tool.account()), each, enough);
    }

    /** Each copy in the account held by one of {@code holders} (DEs found holding one earlier), with its DE. */
    void forEach(AnnotationTool tool, List<UUID> holders, BiConsumer<DigitalEntity, Replica> each, java.util.function.BooleanSupplier enough) {
        for (int from = 0; from < holders.size() && !enough.getAsBoolean(); from += CHUNK) {
            for (DigitalEntity de : store.loadAll(holders.subList(from, Math.min(holders.size(), from + CHUNK))).values()) {
                for (Replica r : de.replicas()) {
                    if (in(r, tool)) {
                        each.accept(de, r);
                    }
                }
            }
        }
    }

    void forEach(AnnotationTool tool, BiConsumer<DigitalEntity, Replica> each) {
        forEach(tool, each, () -> false);
    }

    /** The DE holding each of these remote records as a copy in this account (records Idiom never held are left out). */
    Map<String, UUID> holders(AnnotationTool tool, List<String> remoteIds) {
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

    static boolean in(Replica r, AnnotationTool tool) {
        return r.tool().equals(tool.kind()) && Objects.equals(r.account(), tool.account());
    }
}
