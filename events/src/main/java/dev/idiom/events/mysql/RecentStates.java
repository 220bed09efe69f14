package dev.idiom.events.mysql;

import dev.idiom.events.DigitalEntity;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;

/**
 * The states this store last committed or read, by entity, so that an append batch need not read
 * them back before it writes. A remembered state may be older than the stored one (another node
 * wrote since); that is safe because the store never trusts it for more than a guess: an append
 * decided on an old state inserts a version the entity already has, the event table's unique
 * (entity, version) key refuses the batch, and it is decided again on states read under lock; a
 * refusal decided on a remembered state is likewise checked against the stored one. Bounded: the
 * least recently used go first.
 */
final class RecentStates {
    private final Map<UUID, DigitalEntity> states;

    RecentStates(int capacity) {
        this.states = new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<UUID, DigitalEntity> eldest) {
                return size() > capacity;
            }
        };
    }

    /** The remembered states of those of {@code ids} that are remembered. */
    synchronized Map<UUID, DigitalEntity> of(Collection<UUID> ids) {
        Map<UUID, DigitalEntity> out = new HashMap<>();
        for (UUID id : ids) {
            DigitalEntity s = states.get(id);
            if (s != null) {
                out.put(id, s);
            }
        }
        return out;
    }

    /** Remembers a committed state, unless a later one is remembered already (concurrent callers). */
    synchronized void remember(DigitalEntity state) {
        DigitalEntity known = states.get(state.id());
        if (known == null || known.version() < state.version()) {
            states.put(state.id(), state);
        }
    }

    synchronized void forget(Collection<UUID> ids) {
        ids.forEach(states::remove);
    }
}
