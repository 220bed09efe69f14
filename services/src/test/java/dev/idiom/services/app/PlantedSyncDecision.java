package dev.idiom.services.app;

import dev.idiom.consistency.ConflictPolicy;
import dev.idiom.consistency.ReplicaMerge;
import dev.idiom.events.EntityEvent;
import dev.idiom.events.Metadata;
import dev.idiom.events.ReplicaUnlinked;
import dev.idiom.events.StaleVersionException;
import java.util.List;

/** Planted for the architecture test: sync decided in the application layer (a merge, a replica event, a retry loop). Never called. */
final class PlantedSyncDecision {
    private PlantedSyncDecision() {}

    static List<EntityEvent> merge(Metadata base, Metadata remote, Metadata mine) {
        for (int attempt = 0; ; attempt++) {
            try {
                List<EntityEvent> events = new java.util.ArrayList<>(ReplicaMerge.remoteChanges(base, remote, mine, ConflictPolicy.PREFER_IDIOM, "t", "a"));
                events.add(new ReplicaUnlinked("t", "a", "r", base, "planted"));
                return events;
            } catch (StaleVersionException moved) {
                if (attempt == 3) {
                    throw moved;
                }
            }
        }
    }
}
