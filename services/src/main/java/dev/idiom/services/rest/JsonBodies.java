package dev.idiom.services.rest;

import dev.idiom.services.http.ConflictJson;
import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import dev.idiom.events.ConflictResolved;
import dev.idiom.events.DigitalEntity;
import dev.idiom.events.EventCodec;
import dev.idiom.events.Field;
import dev.idiom.events.InvalidValueException;
import dev.idiom.events.Metadata;
import dev.idiom.events.RecordedEvent;
import dev.idiom.services.app.EntityReads;
import dev.idiom.consistency.report.ImportOutcome;
import dev.idiom.services.app.InputLimits;
import dev.idiom.consistency.report.ImportSummary;
import java.io.IOException;
import java.util.Locale;
import java.util.EnumMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** JSON in and out of the REST endpoint: strict parsing with clear errors, and the representations. */
final class JsonBodies {
    private static final Set<String> READ_ONLY = Set.of("id", "version", "createdAt", "updatedAt");

    private final ObjectMapper json;
    private final EventCodec codec;
    private final int maxDepth;
    private final InputLimits limits;

    JsonBodies(EventCodec codec, InputLimits limits) {
        this.codec = codec;
        this.limits = limits;
        this.maxDepth = limits.maxJsonDepth();
        // the depth is refused by the parser as it reads, before a deep tree is built
        this.json = JsonMapper.builder(com.fasterxml.jackson.core.JsonFactory.builder()
                        .streamReadConstraints(com.fasterxml.jackson.core.StreamReadConstraints.builder().maxNestingDepth(maxDepth).build()).build())
                .enable(DeserializationFeature.FAIL_ON_READING_DUP_TREE_KEY)
                .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
                .build();
    }

    /** A request body that must be one JSON object. */
    ObjectNode object(byte[] body) {
        if (body == null || body.length == 0) {
            throw new InvalidValueException("the request body is empty; send a JSON object");
        }
        JsonNode n;
        try {
            n = json.readTree(body);
        } catch (com.fasterxml.jackson.core.exc.StreamConstraintsException e) {
            throw new InvalidValueException("the JSON body is nested deeper than " + maxDepth + " levels (max-json-depth)");
        } catch (JsonParseException e) {
            throw new InvalidValueException("malformed JSON at line " + e.getLocation().getLineNr() + ", column "
                    + e.getLocation().getColumnNr() + ": " + e.getOriginalMessage());
        } catch (JsonProcessingException e) {
            throw new InvalidValueException("malformed JSON: " + e.getOriginalMessage());
        } catch (IOException e) {
            throw new InvalidValueException("could not read the request body: " + e.getMessage());
        }
        if (n == null || !n.isObject()) {
            throw new InvalidValueException("the request body must be a JSON object");
        }
        return (ObjectNode) n;
    }

    /** Refuses members other than {@code allowed}: a misspelt option must not be silently ignored. */
    static ObjectNode closed(ObjectNode body, String... allowed) {
        java.util.List<String> known = java.util.List.of(allowed);
        for (Iterator<String> it = body.fieldNames(); it.hasNext(); ) {
            String name = it.next();
            if (!known.contains(name)) {
                throw new InvalidValueException("unknown member '" + name + "'; this body has " + String.join(", ", known));
            }
        }
        return body;
    }

    /** A member that must be a string when present: null when absent or null. */
    static String string(ObjectNode body, String name) {
        JsonNode v = body.get(name);
        if (v == null || v.isNull()) {
            return null;
        }
        if (!v.isTextual()) {
            throw new InvalidValueException("\"" + name + "\" must be a string, got " + v.getNodeType().name().toLowerCase(Locale.ROOT));
        }
        return v.asText();
    }

    /** A member that must be true or false when present. */
    static boolean flag(ObjectNode body, String name) {
        JsonNode v = body.get(name);
        if (v != null && !v.isNull() && !v.isBoolean()) {
            throw new InvalidValueException("\"" + name + "\" must be true or false");
        }
        return v != null && v.asBoolean(false);
    }

    /** The tool account a federation request names: {"tool": "…"}. */
    String toolName(ObjectNode body, String purpose) {
        String name = string(body, "tool");
        if (name == null || name.isBlank()) {
            throw new InvalidValueException("name the tool account to " + purpose + ": {\"tool\": \"…\"}");
        }
        return name;
    }

    /** Whether a new DE is to be private: {"metadata": {...}, "private": true}. */
    static boolean markedPrivate(ObjectNode body) {
        return body.has("metadata") && Boolean.TRUE.equals(privacyMark(body));
    }

    /** The privacy mark a body sets: null when it says nothing of it. */
    static Boolean privacyMark(ObjectNode body) {
        return body.has("private") ? strictFlag(body, "private") : null;
    }

    /** A member that is true or false when present (null is neither); false when absent. */
    static boolean strictFlag(ObjectNode body, String name) {
        JsonNode v = body.get(name);
        if (v != null && !v.isBoolean()) {
            throw new InvalidValueException("\"" + name + "\" must be true or false");
        }
        return v != null && v.asBoolean();
    }

    /** Metadata of a new DE: {"metadata": {...}, "private": …} or the fields at the top level. */
    Metadata newRecord(ObjectNode body) {
        JsonNode fields = body.has("metadata") ? closed(body, "metadata", "private").get("metadata") : body;
        if (!fields.isObject()) {
            throw new InvalidValueException("metadata must be a JSON object");
        }
        Metadata m = Metadata.EMPTY;
        for (Map.Entry<Field, Object> e : fieldValues((ObjectNode) fields, false).entrySet()) {
            m = m.with(e.getKey(), e.getValue());
        }
        return m;
    }

    /**
     * A JSON merge patch (RFC 7396) of the DE representation: only "metadata" may change; its
     * members set fields (null clears, arrays replace).
     */
    Map<Field, Object> mergePatch(ObjectNode patch) {
        Map<Field, Object> values = new EnumMap<>(Field.class);
        for (Iterator<String> it = patch.fieldNames(); it.hasNext(); ) {
            String name = it.next();
            if (READ_ONLY.contains(name)) {
                throw new InvalidValueException("'" + name + "' is read-only; patch members of \"metadata\"");
            }
            if (!name.equals("metadata") && !name.equals("private")) {
                throw new InvalidValueException("unknown member '" + name + "'; a DE has id, version, createdAt, updatedAt, metadata, private");
            }
        }
        JsonNode m = patch.get("metadata");
        if (m == null) {
            return values;
        }
        if (!m.isObject()) {
            throw new InvalidValueException("\"metadata\" must be an object of fields to set");
        }
        values.putAll(fieldValues((ObjectNode) m, true));
        return values;
    }

    private Map<Field, Object> fieldValues(ObjectNode fields, boolean nullClears) {
        Map<Field, Object> values = new EnumMap<>(Field.class);
        for (Map.Entry<String, JsonNode> e : fields.properties()) {
            Field f = Field.named(e.getKey());
            if (e.getValue().isArray()) {
                limits.checkSent(f, e.getValue().size());
            }
            values.put(f, f.fromJson(shaped(f, e.getValue(), nullClears)));
        }
        return values;
    }

    /**
     * The JSON types the OpenAPI document declares, held strictly (the stored-event decoder is
     * lenient, a request is not): text fields are strings, an author is {family, given} and nothing else.
     */
    private static JsonNode shaped(Field f, JsonNode v, boolean nullClears) {
        if (v.isNull()) {
            if (!nullClears) {
                throw new InvalidValueException("\"" + f.jsonName() + "\" is null; a new entity leaves a field out instead");
            }
            return v;
        }
        switch (f.kind()) {
            case YEAR, MONTH, DAY, TAGS -> { } // Field checks these as strictly as the document
            case EXTRAS -> {
                if (!v.isArray()) {
                    throw new InvalidValueException("\"" + f.jsonName() + "\" must be an array of {\"name\": \"…\", \"value\": \"…\"}, got "
                            + v.getNodeType().name().toLowerCase(Locale.ROOT));
                }
                for (JsonNode pair : v) {
                    if (!pair.isObject() || !pair.path("name").isTextual() || !pair.path("value").isTextual()) {
                        throw new InvalidValueException("each of " + f.jsonName() + " is {\"name\": \"…\", \"value\": \"…\"}, got " + pair);
                    }
                    closed((ObjectNode) pair, "name", "value");
                }
            }
            case NAMES -> { // not an array: Field says so
                for (JsonNode a : v.isArray() ? v : List.<JsonNode>of()) {
                    if (!a.isObject() || !a.path("family").isTextual() || (a.has("given") && !a.get("given").isTextual())) {
                        throw new InvalidValueException("each of " + f.jsonName() + " is {\"family\": \"…\", \"given\": \"…\"} (given optional), got " + a);
                    }
                    closed((ObjectNode) a, "family", "given");
                }
            }
            default -> {
                if (!v.isTextual()) {
                    throw new InvalidValueException("\"" + f.jsonName() + "\" must be a string, got " + v.getNodeType().name().toLowerCase(Locale.ROOT));
                }
            }
        }
        return v;
    }

    /** A DE as answers give it: never with shadows (see {@link EventCodec#view}). */
    String entity(DigitalEntity de) {
        return codec.view(de);
    }

    ObjectNode event(RecordedEvent e) {
        return event(e, false);
    }

    /** One event; {@code withheld}: the DE has private parts this caller may not see, so neither content nor source is given. */
    ObjectNode event(RecordedEvent e, boolean withheld) {
        ObjectNode n = json.createObjectNode();
        n.put("position", e.position());
        n.put("entityId", e.entityId().toString());
        n.put("version", e.version());
        n.put("type", e.event().type());
        n.put("major", e.event().major());
        n.put("source", withheld ? null : e.source());
        n.put("recordedAt", e.recordedAt().toString());
        n.put("eventId", e.eventId().toString());
        if (withheld) {
            n.putNull("payload");
            n.put("withheld", true);
            return n;
        }
        JsonNode payload = codec.payloadTree(e.event());
        if (payload instanceof ObjectNode o) {
            o.remove("shadow"); // the tool's own form of a record stays inside Idiom: it can hold what the tool keeps private
        }
        n.set("payload", payload);
        return n;
    }

    String events(List<EntityReads.FeedEvent> events, String listName, ObjectNode extra) {
        ObjectNode n = extra != null ? extra : json.createObjectNode();
        var arr = n.putArray(listName);
        events.forEach(e -> arr.add(event(e.event(), e.withheld())));
        return n.toString();
    }

    ObjectMapper mapper() {
        return json;
    }

    /** One conflict (see {@link ConflictJson}). */
    ObjectNode conflict(ObjectNode o, RecordedEvent e) {
        return ConflictJson.write(o, e);
    }

    /** An import's (or a pull's) tally. */
    ObjectNode summary(ImportSummary s) {
        ObjectNode n = json.createObjectNode().put("records", s.records());
        for (ImportOutcome.Kind k : ImportOutcome.Kind.values()) {
            n.put(k.name().toLowerCase(Locale.ROOT), s.count(k));
        }
        n.put("deletedRemotely", s.deletedRemotely()).put("seconds", s.seconds()).put("recordsPerSecond", s.rate());
        ArrayNode skipped = n.putArray("skippedRecords");
        s.skipped().forEach(o -> skipped.addObject().put("remoteId", o.remoteId()).put("reason", o.reason()));
        ArrayNode aside = n.putArray("keptAside"); // imported records, each without a value past the record's bounds (it stays in the copy)
        s.keptAside().forEach(k -> aside.addObject().put("remoteId", k.remoteId()).put("value", k.what()));
        return n;
    }
}
