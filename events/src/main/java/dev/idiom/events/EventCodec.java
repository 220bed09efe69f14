package dev.idiom.events;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
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
                n.put("account", e.account());
                n.put("remoteId", e.remoteId());
                n.put("remoteVersion", e.remoteVersion());
                if (e.identityHint() != null) {
                    n.put("identityHint", e.identityHint());
                }
                if (e.shadow() != null) {
                    n.put("shadow", e.shadow());
                }
                privateFlag(n, e.privateCopy());
            }
            case ReplicaLinked e -> {
                replica(n, new Replica(e.tool(), e.account(), e.remoteId(), e.remoteVersion(), e.synced(), null, e.shadow(), e.privateCopy()));
                if (e.replaces() != null) {
                    n.put("replaces", e.replaces());
                }
            }
            case ReplicaPushed e -> {
                replica(n, new Replica(e.tool(), e.account(), e.remoteId(), e.remoteVersion(), e.synced(), null, e.shadow(), e.privateCopy()));
                if (e.replaces() != null) {
                    n.put("replaces", e.replaces());
                }
                n.put("pushedVersion", e.pushedVersion());
            }
            case ReplicaUnlinked e -> {
                replica(n, new Replica(e.tool(), e.account(), e.remoteId(), null, e.lastSynced()));
                n.put("reason", e.reason());
                if (e.byCurator()) {
                    n.put("byCurator", true);
                }
            }
            case FieldChanged e -> {
                n.put("field", e.field().jsonName());
                n.set("value", e.field().toJson(e.value()));
            }
            case TagAdded e -> n.put("tag", e.tag());
            case TagRemoved e -> n.put("tag", e.tag());
            case ConflictResolved e -> {
                n.put("field", e.field().jsonName());
                n.set("base", e.field().toJson(e.base()));
                n.set("idiomValue", e.field().toJson(e.idiomValue()));
                n.set("remoteValue", e.field().toJson(e.remoteValue()));
                n.set("winner", e.field().toJson(e.winner()));
                n.put("policy", e.policy());
                n.put("tool", e.tool());
                n.put("account", e.account());
            }
            case PrivacyMarked e -> n.put("marked", e.marked());
            case EntityDeleted e -> n.put("reason", e.reason());
            case EntityRestored e -> { }
            case EntityPurged e -> { }
            case EntityMerged e -> n.put("into", e.into().toString());
        }
        return write(n);
    }

    public EntityEvent event(String type, String payload) {
        JsonNode n = read(payload);
        return switch (type) {
            case "RecordImported" -> new RecordImported(metadata(n.get("metadata")), n.path("tool").asText(), text(n, "account"),
                    n.path("remoteId").asText(), text(n, "remoteVersion"), text(n, "identityHint"), text(n, "shadow"), n.path("private").asBoolean());
            case "ReplicaLinked" -> {
                Replica r = replica(n);
                yield new ReplicaLinked(r.tool(), r.account(), r.remoteId(), r.remoteVersion(), r.synced(), r.shadow(), text(n, "replaces"),
                        r.privateCopy());
            }
            case "ReplicaPushed" -> {
                Replica r = replica(n);
                yield new ReplicaPushed(r.tool(), r.account(), r.remoteId(), r.remoteVersion(), r.synced(), r.shadow(), text(n, "replaces"),
                        n.path("pushedVersion").asInt(), r.privateCopy());
            }
            case "ReplicaUnlinked" -> {
                Replica r = replica(n);
                yield new ReplicaUnlinked(r.tool(), r.account(), r.remoteId(), r.synced(), n.path("reason").asText(), n.path("byCurator").asBoolean());
            }
            case "FieldChanged" -> {
                Field f = Field.named(n.path("field").asText());
                yield new FieldChanged(f, f.fromJson(n.get("value")));
            }
            case "TagAdded" -> new TagAdded(n.path("tag").asText());
            case "TagRemoved" -> new TagRemoved(n.path("tag").asText());
            case "ConflictResolved" -> {
                Field f = Field.named(n.path("field").asText());
                yield new ConflictResolved(f, f.fromJson(n.get("base")), f.fromJson(n.get("idiomValue")), f.fromJson(n.get("remoteValue")),
                        f.fromJson(n.get("winner")), n.path("policy").asText(), n.path("tool").asText(), text(n, "account"));
            }
            case "PrivacyMarked" -> new PrivacyMarked(n.path("marked").asBoolean());
            case "EntityDeleted" -> new EntityDeleted(n.path("reason").asText());
            case "EntityRestored" -> new EntityRestored();
            case "EntityPurged" -> new EntityPurged();
            case "EntityMerged" -> new EntityMerged(UUID.fromString(n.path("into").asText()));
            default -> throw new IllegalStateException("unknown stored event type " + type);
        };
    }

    private static String text(JsonNode n, String field) {
        JsonNode v = n.get(field);
        return v == null || v.isNull() ? null : v.asText();
    }

    private ObjectNode replica(ObjectNode n, Replica r) {
        n.put("tool", r.tool());
        n.put("account", r.account());
        n.put("remoteId", r.remoteId());
        n.put("remoteVersion", r.remoteVersion());
        n.set("synced", json.valueToTree(r.synced()));
        if (r.identityHint() != null) {
            n.put("identityHint", r.identityHint());
        }
        if (r.shadow() != null) {
            n.put("shadow", r.shadow());
        }
        privateFlag(n, r.privateCopy());
        return n;
    }

    /** Written only when set: events and projections written before privacy existed keep their bytes. */
    private static void privateFlag(ObjectNode n, boolean set) {
        if (set) {
            n.put("private", true);
        }
    }

    private Replica replica(JsonNode n) {
        return new Replica(n.path("tool").asText(), text(n, "account"), n.path("remoteId").asText(), text(n, "remoteVersion"),
                metadata(n.get("synced")), text(n, "identityHint"), text(n, "shadow"), n.path("private").asBoolean());
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
        return write(entityTree(de));
    }

    /**
     * A DE as an API answer gives it: no shadows, and {@code "private"}: whether keys without the
     * private right are denied it ({@link Visibility#hidden}). The caller picks whole or
     * {@link Visibility#publicView}.
     */
    public String view(DigitalEntity de) {
        ObjectNode n = entityTree(Visibility.withoutShadows(de));
        n.put("private", Visibility.hidden(de));
        return write(n);
    }

    private ObjectNode entityTree(DigitalEntity de) {
        ObjectNode n = json.createObjectNode();
        n.put("id", de.id().toString());
        n.put("version", de.version());
        n.put("createdAt", de.createdAt().toString());
        n.put("updatedAt", de.updatedAt().toString());
        n.set("metadata", json.valueToTree(de.metadata()));
        var replicas = n.putArray("replicas");
        de.replicas().forEach(r -> replica(replicas.addObject(), r));
        privateFlag(n, de.markedPrivate());
        lifecycle(n, de.lifecycle());
        if (!de.detached().isEmpty()) { // written only when there are some: projections from before keep their bytes
            var detached = n.putArray("detached");
            de.detached().forEach(c -> detached.addObject().put("tool", c.tool()).put("account", c.account()).put("remoteId", c.remoteId()));
        }
        return n;
    }

    /** Written only when not live: projections of live DEs keep the bytes they had before DEs could be deleted. */
    private static void lifecycle(ObjectNode n, Lifecycle life) {
        if (!life.live()) {
            n.put("lifecycle", life.state().name().toLowerCase(java.util.Locale.ROOT));
            if (life.since() != null) {
                n.put("since", life.since().toString());
            }
            if (life.mergedInto() != null) {
                n.put("mergedInto", life.mergedInto().toString());
            }
        }
    }

    private static List<DigitalEntity.CopyId> detached(JsonNode n) {
        List<DigitalEntity.CopyId> out = new ArrayList<>();
        n.path("detached").forEach(c -> out.add(new DigitalEntity.CopyId(c.path("tool").asText(), text(c, "account"), c.path("remoteId").asText())));
        return out;
    }

    private static Lifecycle lifecycle(JsonNode n) {
        JsonNode state = n.get("lifecycle");
        if (state == null) {
            return Lifecycle.LIVE;
        }
        return new Lifecycle(Lifecycle.State.valueOf(state.asText().toUpperCase(java.util.Locale.ROOT)),
                n.hasNonNull("since") ? Instant.parse(n.get("since").asText()) : null,
                n.hasNonNull("mergedInto") ? UUID.fromString(n.get("mergedInto").asText()) : null);
    }

    public DigitalEntity entity(String stored) {
        JsonNode n = read(stored);
        List<Replica> replicas = new ArrayList<>();
        n.path("replicas").forEach(r -> replicas.add(replica(r)));
        return new DigitalEntity(UUID.fromString(n.get("id").asText()), n.get("version").asInt(), metadata(n.get("metadata")), replicas,
                Instant.parse(n.get("createdAt").asText()), Instant.parse(n.get("updatedAt").asText()), n.path("private").asBoolean(), lifecycle(n),
                detached(n));
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
