package dev.idiom.events.hibernate;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.LocalDateTime;

/** A row of the {@code event} table (see V1__event_store.sql). */
@Entity(name = "StoredEvent")
@Table(name = "event")
class StoredEvent {
    @Id
    @Column(name = "position")
    long position;
    @Column(name = "event_id")
    String eventId;
    @Column(name = "entity_id")
    String entityId;
    @Column(name = "version")
    int version;
    @Column(name = "type")
    String type;
    @Column(name = "source")
    String source;
    @Column(name = "payload")
    String payload;
    @Column(name = "recorded_at")
    LocalDateTime recordedAt;

    protected StoredEvent() {}

    StoredEvent(long position, String eventId, String entityId, int version, String type, String source, String payload,
                LocalDateTime recordedAt) {
        this.position = position;
        this.eventId = eventId;
        this.entityId = entityId;
        this.version = version;
        this.type = type;
        this.source = source;
        this.payload = payload;
        this.recordedAt = recordedAt;
    }
}
