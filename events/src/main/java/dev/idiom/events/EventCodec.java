package dev.idiom.events;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;
import java.util.UUID;

/**
 * The stored JSON of events and of the DE projection. Output is deterministic (fixed property
 * order, sorted tags, no insignificant whitespace), so a rebuild can compare projections byte for
 * byte.
 */
public final class EventCodec {
    private final ObjectMapper json = new ObjectMapper()
            .configure(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS, true)
            .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

    public String payload(EntityEvent event) {
        ObjectNode n = json.createObjectNode();
        switch (event) {
            case RecordImported e -> {
                n.set("metadata", json.valueToTree(e.metadata()));
                n.put("tool", e.tool());
                n.put("remoteId", e.remoteId());
            }
            case FieldChanged e -> {
                n.put("field", e.field().jsonName());
                n.set("value", e.field().toJson(e.value()));
            }
            case TagAdded e -> n.put("tag", e.tag());
            case TagRemoved e -> n.put("tag", e.tag());
        }
        return write(n);
    }

    public EntityEvent event(String type, String payload) {
        JsonNode n = read(payload);
        return switch (type) {
            case "RecordImported" -> new RecordImported(metadata(n.get("metadata")), n.path("tool").asText(), n.path("remoteId").asText());
            case "FieldChanged" -> {
                Field f = Field.named(n.path("field").asText());
                yield new FieldChanged(f, f.fromJson(n.get("value")));
            }
            case "TagAdded" -> new TagAdded(n.path("tag").asText());
            case "TagRemoved" -> new TagRemoved(n.path("tag").asText());
            default -> throw new IllegalStateException("unknown stored event type " + type);
        };
    }

    /** The JSON tree of an event's payload, for the change feed and history. */
    public JsonNode payloadTree(EntityEvent event) {
        return read(payload(event));
    }

    public Metadata metadata(JsonNode node) {
        try {
            return json.treeToValue(node, Metadata.class);
        } catch (JsonProcessingException | IllegalArgumentException e) {
            throw new InvalidValueException("malformed metadata: " + e.getMessage());
        }
    }

    public JsonNode metadataTree(Metadata metadata) {
        return json.valueToTree(metadata);
    }

    /** The projection's stored form of a DE. */
    public String entity(DigitalEntity de) {
        ObjectNode n = json.createObjectNode();
        n.put("id", de.id().toString());
        n.put("version", de.version());
        n.put("createdAt", de.createdAt().toString());
        n.put("updatedAt", de.updatedAt().toString());
        n.set("metadata", json.valueToTree(de.metadata()));
        return write(n);
    }

    public DigitalEntity entity(String stored) {
        JsonNode n = read(stored);
        return new DigitalEntity(UUID.fromString(n.get("id").asText()), n.get("version").asInt(), metadata(n.get("metadata")),
                Instant.parse(n.get("createdAt").asText()), Instant.parse(n.get("updatedAt").asText()));
    }

    public ObjectMapper mapper() {
        return json;
    }

    private String write(JsonNode n) {
        try {
            return json.writeValueAsString(n);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private JsonNode read(String s) {
        try {
            return json.readTree(s);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("stored JSON is malformed: " + e.getOriginalMessage(), e);
        }
    }
}
