package dev.idiom.events;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The stored JSON of events and of the DE projection. Output is deterministic (fixed property
 * order, sorted tags, no insignificant whitespace), so a rebuild can compare projections byte for
 * byte.
 */
public final class EventCodec {
    private final ObjectMapper json = new ObjectMapper()
            .configure(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS, true)
            .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false)
            .registerModule(MetadataJson.module());

    /** An event's stored payload: a replica event is the replica's members (as in a projection) and its own. */
    public String payload(EntityEvent event) {
        return switch (event) {
            case ReplicaLinked e -> written(g -> {
                writeReplica(g, new Replica(e.tool(), e.account(), e.remoteId(), e.remoteVersion(), e.synced(), null, e.shadow(), e.privateCopy()));
                optional(g, "replaces", e.replaces());
                g.writeEndObject();
            });
            case ReplicaPushed e -> written(g -> {
                writeReplica(g, new Replica(e.tool(), e.account(), e.remoteId(), e.remoteVersion(), e.synced(), null, e.shadow(), e.privateCopy()));
                optional(g, "replaces", e.replaces());
                g.writeNumberField("pushedVersion", e.pushedVersion());
                g.writeEndObject();
            });
            case ReplicaReread e -> written(g -> {
                writeReplica(g, new Replica(e.tool(), e.account(), e.remoteId(), e.remoteVersion(), e.synced(), null, e.shadow(), e.privateCopy()));
                if (e.ownFields() != null) {
                    g.writeFieldName("ownFields");
                    json.writeValue(g, e.ownFields());
                }
                g.writeEndObject();
            });
            case ReplicaUnlinked e -> written(g -> {
                writeReplica(g, new Replica(e.tool(), e.account(), e.remoteId(), null, e.lastSynced()));
                g.writeStringField("reason", e.reason());
                if (e.byCurator()) {
                    g.writeBooleanField("byCurator", true);
                }
                optional(g, "kept", e.kept()); // only when there is some: unlinks from before keep their bytes
                g.writeEndObject();
            });
            default -> write(tree(event));
        };
    }

    /** The payloads that hold no replica. */
    private ObjectNode tree(EntityEvent event) {
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
            case ConflictSettled e -> {
                n.put("conflict", e.conflict().toString());
                n.put("field", e.field().jsonName());
                n.set("value", e.field().toJson(e.value()));
                n.put("take", e.take());
            }
            case PrivacyMarked e -> n.put("marked", e.marked());
            case EntityDeleted e -> n.put("reason", e.reason());
            case EntityRestored e -> { }
            case EntityPurged e -> { }
            case EntityMerged e -> {
                n.put("into", e.into().toString());
                if (!e.duplicates().isEmpty()) { // written only when there are some: merges from before keep their bytes
                    var list = n.putArray("duplicates");
                    e.duplicates().forEach(c -> list.addObject().put("tool", c.tool()).put("account", c.account()).put("remoteId", c.remoteId()));
                }
            }
            default -> throw new IllegalStateException(event.getClass().getSimpleName() + " is written with its replica");
        }
        return n;
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
            case "ReplicaReread" -> {
                Replica r = replica(n);
                yield new ReplicaReread(r.tool(), r.account(), r.remoteId(), r.remoteVersion(), r.synced(), r.ownFields(), r.shadow(), r.privateCopy());
            }
            case "ReplicaUnlinked" -> {
                Replica r = replica(n);
                yield new ReplicaUnlinked(r.tool(), r.account(), r.remoteId(), r.synced(), n.path("reason").asText(), n.path("byCurator").asBoolean(),
                        text(n, "kept"));
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
            case "ConflictSettled" -> {
                Field f = Field.named(n.path("field").asText());
                yield new ConflictSettled(UUID.fromString(n.path("conflict").asText()), f, f.fromJson(n.get("value")), n.path("take").asText());
            }
            case "PrivacyMarked" -> new PrivacyMarked(n.path("marked").asBoolean());
            case "EntityDeleted" -> new EntityDeleted(n.path("reason").asText());
            case "EntityRestored" -> new EntityRestored();
            case "EntityPurged" -> new EntityPurged();
            case "EntityMerged" -> {
                List<DigitalEntity.CopyId> duplicates = new ArrayList<>();
                n.path("duplicates").forEach(c -> duplicates.add(new DigitalEntity.CopyId(c.path("tool").asText(), text(c, "account"),
                        c.path("remoteId").asText())));
                yield new EntityMerged(UUID.fromString(n.path("into").asText()), duplicates);
            }
            default -> throw new IllegalStateException("unknown stored event type " + type);
        };
    }

    private static String text(JsonNode n, String field) {
        JsonNode v = n.get(field);
        return v == null || v.isNull() ? null : v.asText();
    }

    /** Written only when set: events and projections written before privacy existed keep their bytes. */
    private static void privateFlag(ObjectNode n, boolean set) {
        if (set) {
            n.put("private", true);
        }
    }

    private Replica replica(JsonNode n) {
        try (JsonParser p = json.treeAsTokens(n)) {
            p.nextToken();
            return replica(p);
        } catch (IOException e) {
            throw new IllegalStateException("stored JSON is malformed: " + e.getMessage(), e);
        }
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
        return written(g -> writeEntity(g, de, null));
    }

    /**
     * A DE as an API answer gives it: no shadows, and {@code "private"}: whether keys without the
     * private right are denied it ({@link Visibility#hidden}). The caller picks whole or
     * {@link Visibility#publicView}.
     */
    public String view(DigitalEntity de) {
        return written(g -> writeEntity(g, Visibility.withoutShadows(de), Visibility.hidden(de)));
    }

    /**
     * Streamed, not built as a tree first (a read from the database decodes and encodes a DE: the
     * tree was most of its time); the bytes are those the tree gave, property for property.
     *
     * @param viewPrivate null for the stored form; for a view, the {@code "private"} it answers: in
     *     the stored flag's place when the DE is marked, else last
     */
    private void writeEntity(JsonGenerator g, DigitalEntity de, Boolean viewPrivate) throws IOException {
        g.writeStartObject();
        g.writeStringField("id", de.id().toString());
        g.writeNumberField("version", de.version());
        g.writeStringField("createdAt", de.createdAt().toString());
        g.writeStringField("updatedAt", de.updatedAt().toString());
        g.writeFieldName("metadata");
        json.writeValue(g, de.metadata());
        g.writeArrayFieldStart("replicas");
        for (Replica r : de.replicas()) {
            writeReplica(g, r);
            if (viewPrivate == null && r.ownFields() != null) { // stored only, and only when there are some: projections from before keep their bytes
                g.writeFieldName("ownFields");
                json.writeValue(g, r.ownFields());
            }
            g.writeEndObject();
        }
        g.writeEndArray();
        if (de.markedPrivate()) {
            g.writeBooleanField("private", viewPrivate == null || viewPrivate);
        }
        Lifecycle life = de.lifecycle();
        if (!life.live()) {
            g.writeStringField("lifecycle", life.state().name().toLowerCase(java.util.Locale.ROOT));
            if (life.since() != null) {
                g.writeStringField("since", life.since().toString());
            }
            if (life.mergedInto() != null) {
                g.writeStringField("mergedInto", life.mergedInto().toString());
            }
        }
        if (!de.detached().isEmpty()) { // written only when there are some: projections from before keep their bytes
            g.writeArrayFieldStart("detached");
            for (DigitalEntity.CopyId c : de.detached()) {
                g.writeStartObject();
                g.writeStringField("tool", c.tool());
                g.writeStringField("account", c.account());
                g.writeStringField("remoteId", c.remoteId());
                g.writeEndObject();
            }
            g.writeEndArray();
        }
        if (viewPrivate == null && !de.heldFields().isEmpty()) { // stored only, and only when there are some: projections from before keep their bytes
            g.writeArrayFieldStart("heldFields");
            for (Field f : Field.values()) {
                if (de.heldFields().contains(f)) {
                    g.writeString(f.jsonName());
                }
            }
            g.writeEndArray();
        }
        PrivateOrigin origin = de.privateOrigin();
        if (viewPrivate == null && origin != null) { // stored only, and only when there is some: projections from before keep their bytes
            g.writeObjectFieldStart("privateOrigin");
            g.writeBooleanField("whole", origin.whole());
            g.writeFieldName("values");
            json.writeValue(g, origin.values());
            g.writeEndObject();
        }
        if (viewPrivate != null && !de.markedPrivate()) {
            g.writeBooleanField("private", viewPrivate);
        }
        g.writeEndObject();
    }

    /** Opens a replica's object and writes its members; the caller adds its own and closes it. */
    private void writeReplica(JsonGenerator g, Replica r) throws IOException {
        g.writeStartObject();
        g.writeStringField("tool", r.tool());
        g.writeStringField("account", r.account());
        g.writeStringField("remoteId", r.remoteId());
        g.writeStringField("remoteVersion", r.remoteVersion());
        g.writeFieldName("synced");
        if (r.synced() == null) {
            g.writeNull();
        } else {
            json.writeValue(g, r.synced());
        }
        optional(g, "identityHint", r.identityHint());
        optional(g, "shadow", r.shadow());
        if (r.privateCopy()) {
            g.writeBooleanField("private", true);
        }
    }

    private static void optional(JsonGenerator g, String name, String value) throws IOException {
        if (value != null) {
            g.writeStringField(name, value);
        }
    }

    private interface Writing {
        void to(JsonGenerator g) throws IOException;
    }

    private String written(Writing writing) {
        java.io.StringWriter out = new java.io.StringWriter(1024);
        try (JsonGenerator g = json.getFactory().createGenerator(out)) {
            writing.to(g);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        return out.toString();
    }

    /** A projection's stored form, read in one pass (see {@link #writeEntity}). */
    public DigitalEntity entity(String stored) {
        try (JsonParser p = json.getFactory().createParser(stored)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                throw new IllegalStateException("stored JSON is malformed: a DE is an object");
            }
            String id = null;
            String createdAt = null;
            String updatedAt = null;
            int version = 0;
            Metadata metadata = null;
            List<Replica> replicas = new ArrayList<>();
            boolean marked = false;
            String state = null;
            String since = null;
            String mergedInto = null;
            List<DigitalEntity.CopyId> detached = new ArrayList<>();
            java.util.Set<Field> held = new java.util.HashSet<>();
            PrivateOrigin origin = null;
            for (String name = p.nextFieldName(); name != null; name = p.nextFieldName()) {
                JsonToken t = p.nextToken();
                switch (name) {
                    case "id" -> id = p.getValueAsString();
                    case "version" -> version = p.getValueAsInt();
                    case "createdAt" -> createdAt = p.getValueAsString();
                    case "updatedAt" -> updatedAt = p.getValueAsString();
                    case "metadata" -> metadata = metadata(p);
                    case "replicas" -> {
                        for (JsonToken e = t == JsonToken.START_ARRAY ? p.nextToken() : JsonToken.END_ARRAY; e != JsonToken.END_ARRAY; e = p.nextToken()) {
                            replicas.add(replica(p));
                        }
                    }
                    case "private" -> marked = p.getValueAsBoolean();
                    case "lifecycle" -> state = p.getValueAsString();
                    case "since" -> since = p.getValueAsString();
                    case "mergedInto" -> mergedInto = p.getValueAsString();
                    case "detached" -> {
                        for (JsonToken e = t == JsonToken.START_ARRAY ? p.nextToken() : JsonToken.END_ARRAY; e != JsonToken.END_ARRAY; e = p.nextToken()) {
                            Map<String, String> c = texts(p);
                            detached.add(new DigitalEntity.CopyId(c.getOrDefault("tool", ""), c.get("account"), c.getOrDefault("remoteId", "")));
                        }
                    }
                    case "heldFields" -> {
                        for (JsonToken e = t == JsonToken.START_ARRAY ? p.nextToken() : JsonToken.END_ARRAY; e != JsonToken.END_ARRAY; e = p.nextToken()) {
                            held.add(Field.named(p.getValueAsString()));
                        }
                    }
                    case "privateOrigin" -> origin = privateOrigin(p);
                    default -> p.skipChildren();
                }
            }
            Lifecycle life = state == null ? Lifecycle.LIVE : new Lifecycle(Lifecycle.State.valueOf(state.toUpperCase(java.util.Locale.ROOT)),
                    since == null ? null : Instant.parse(since), mergedInto == null ? null : UUID.fromString(mergedInto));
            return new DigitalEntity(UUID.fromString(id), version, metadata, replicas, Instant.parse(createdAt), Instant.parse(updatedAt), marked, life,
                    detached, held, origin);
        } catch (IOException e) {
            throw new IllegalStateException("stored JSON is malformed: " + e.getMessage(), e);
        }
    }

    /** The private origin object the parser stands at the start of. */
    private PrivateOrigin privateOrigin(JsonParser p) throws IOException {
        boolean whole = false;
        Metadata values = null;
        for (String name = p.nextFieldName(); name != null; name = p.nextFieldName()) {
            p.nextToken();
            switch (name) {
                case "whole" -> whole = p.getValueAsBoolean();
                case "values" -> values = metadata(p);
                default -> p.skipChildren();
            }
        }
        return new PrivateOrigin(whole, values);
    }

    /** The replica object the parser stands at the start of. */
    private Replica replica(JsonParser p) throws IOException {
        Map<String, String> texts = new HashMap<>();
        Metadata synced = null;
        Metadata own = null;
        boolean privateCopy = false;
        for (String name = p.nextFieldName(); name != null; name = p.nextFieldName()) {
            p.nextToken();
            switch (name) {
                case "synced" -> synced = metadata(p);
                case "ownFields" -> own = metadata(p);
                case "private" -> privateCopy = p.getValueAsBoolean();
                default -> {
                    if (p.currentToken().isScalarValue()) {
                        texts.put(name, p.getValueAsString());
                    } else {
                        p.skipChildren();
                    }
                }
            }
        }
        return new Replica(texts.getOrDefault("tool", ""), texts.get("account"), texts.getOrDefault("remoteId", ""), texts.get("remoteVersion"), synced,
                texts.get("identityHint"), texts.get("shadow"), privateCopy, own);
    }

    /** The scalar members of the object the parser stands at the start of (a JSON null: absent). */
    private static Map<String, String> texts(JsonParser p) throws IOException {
        Map<String, String> texts = new HashMap<>();
        for (String name = p.nextFieldName(); name != null; name = p.nextFieldName()) {
            if (p.nextToken().isScalarValue()) {
                String v = p.getValueAsString();
                if (v != null) {
                    texts.put(name, v);
                }
            } else {
                p.skipChildren();
            }
        }
        return texts;
    }

    private Metadata metadata(JsonParser p) throws IOException {
        return p.currentToken() == JsonToken.VALUE_NULL ? null : json.readValue(p, Metadata.class);
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
