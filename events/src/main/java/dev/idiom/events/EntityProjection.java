package dev.idiom.events;

import java.util.Collection;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/** The DE projection: each entity's current state, kept in step with its stream by the store's appends. */
public interface EntityProjection {
    /** The DE projection (current state), if the entity exists. */
    Optional<DigitalEntity> load(UUID entityId);

    /** The projection as stored: its deterministic JSON, for callers that serve it as is. */
    Optional<String> loadStored(UUID entityId);

    /** The projections of these entities, those that exist. */
    Map<UUID, DigitalEntity> loadAll(Collection<UUID> entityIds);
}
