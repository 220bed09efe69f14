package dev.idiom.events.hibernate;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.LocalDateTime;

/** A row of the {@code entity} table: the DE projection. */
@Entity(name = "StoredEntity")
@Table(name = "entity")
class StoredEntity {
    @Id
    @Column(name = "entity_id")
    String entityId;
    @Column(name = "version")
    int version;
    @Column(name = "state")
    String state;
    @Column(name = "created_at")
    LocalDateTime createdAt;
    @Column(name = "updated_at")
    LocalDateTime updatedAt;

    protected StoredEntity() {}

    StoredEntity(String entityId) {
        this.entityId = entityId;
    }
}
