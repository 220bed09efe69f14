package dev.idiom.wrappers.idiom;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.idiom.events.EventCodec;
import dev.idiom.events.Field;
import dev.idiom.events.Metadata;
import dev.idiom.wrappers.AnnotationTool;
import dev.idiom.wrappers.ChangePage;
import dev.idiom.wrappers.RemoteChangedException;
import dev.idiom.wrappers.RemoteRecord;
import dev.idiom.wrappers.Skipped;
import dev.idiom.wrappers.ToolException;
import dev.idiom.wrappers.ToolIdentityChangedException;
import dev.idiom.wrappers.ToolLimits;
import dev.idiom.wrappers.http.ToolHttp;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Another Idiom over its REST API: the change feed ({@code /api/changes}) is the sync loop, the
 * DE's version (its ETag) the remote version, {@code If-Match} the write precondition. Idiom
 * keeps every DE's history and so does not delete.
 */
public final class IdiomPeer implements AnnotationTool {
    /**
     * A peer holds every field its API takes, each tool kind's extras too (another Idiom carries them
     * on to its own tools): all of Idiom's until its OpenAPI document has been read ({@link #served}),
     * then those it names, so a peer running an older Idiom is never sent a field it would refuse.
     */
    @Override
    public java.util.Set<Field> fieldsKept() {
        java.util.Set<Field> s = served;
        return s == null ? java.util.EnumSet.allOf(Field.class) : s;
    }

    /** How long the peer's list of fields is used before its API document is read again. */
    static final Duration SERVED_KEPT = Duration.ofHours(1);
    private volatile java.util.Set<Field> served;
    private volatile java.time.Instant servedAt;

    /**
     * The fields the peer's REST API takes, from its own OpenAPI document ({@code /api/openapi.json},
     * read anonymously, asked again hourly): a peer from before a field was added to the record lists
     * no such property. Until it answers with one, every field.
     */
    java.util.Set<Field> served() {
        java.time.Instant now = http.clock().instant();
        if (servedAt != null && now.isBefore(servedAt.plus(SERVED_KEPT))) {
            return fieldsKept();
        }
        servedAt = now;
        try {
            HttpResponse<String> r = http.send(at("/api/openapi.json").timeout(Duration.ofSeconds(60)).GET().build());
            JsonNode props = r.statusCode() == 200 ? JSON.readTree(r.body()).path("components").path("schemas").path("MetadataPatch").path("properties")
                    : null;
            if (props != null && props.isObject() && props.has("title")) {
                java.util.Set<Field> s = java.util.EnumSet.noneOf(Field.class);
                for (Field f : Field.values()) {
                    if (props.has(f.jsonName())) {
                        s.add(f);
                    }
                }
                served = s;
            }
        } catch (IOException | RuntimeException unread) {
            // an answer that is no API document: what was known stays, asked again in an hour
        }
        return fieldsKept();
    }

    /** {@code m} with only the fields the peer takes. */
    private Metadata servable(Metadata m) {
        java.util.Set<Field> kept = served();
        Metadata out = m;
        for (Field f : Field.values()) {
            if (!kept.contains(f)) {
                out = out.with(f, null);
            }
        }
        return out;
    }

    public static final ToolLimits LIMITS = new ToolLimits(200, Duration.ZERO, 4);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final URI base;
    private final String key;
    private final ToolHttp http;
    private final EventCodec codec = new EventCodec();

    /**
     * @param base the other Idiom's root URL, e.g. http://idiom.example:8080
     * @param key an API key of the other Idiom (a curator's, to push; a reader's only pulls)
     */
    public IdiomPeer(URI base, String key, ToolHttp http) {
        this.base = URI.create(base.toString().replaceAll("/+$", ""));
        this.key = key == null ? "" : key.strip();
        this.http = http;
    }

    /** True: a DE's version moves with every event. */
    @Override
    public boolean versionNamesContent() {
        return true;
    }

    @Override
    public String kind() {
        return "idiom";
    }

    @Override
    public boolean keepsPrivate() {
        return true;
    }

    @Override
    public String account() {
        return base.getAuthority();
    }

    @Override
    public ToolLimits limits() {
        return LIMITS;
    }

    private HttpResponse<String> send(HttpRequest.Builder b) {
        if (!key.isEmpty()) {
            b.header("Authorization", "Bearer " + key);
        }
        return http.send(b.header("Idiom-Source", "peer").timeout(Duration.ofSeconds(60)).build());
    }

    private HttpRequest.Builder at(String path) {
        return HttpRequest.newBuilder(URI.create(base + path));
    }

    @Override
    public ChangePage changedSince(String cursor) {
        long after = cursor == null ? 0 : Long.parseLong(cursor);
        served(); // what the peer holds is compared on the fields it takes
        HttpResponse<String> r = send(at("/api/changes?after=" + after + "&limit=" + LIMITS.maxBatch()).GET());
        JsonNode changes = json(r, 200, "read the change feed");
        if (changes.has("head") && changes.path("head").asLong() < after) {
            // a feed never shrinks: a head behind our cursor is another instance under the same address
            throw new ToolIdentityChangedException("the Idiom at " + base + " has a change feed ending at " + changes.path("head").asLong()
                    + ", before the " + after + " events already synced: it is a new instance (a recreated database?), not the one synced before");
        }
        Set<String> ids = new LinkedHashSet<>();
        changes.path("events").forEach(e -> ids.add(e.path("entityId").asText()));
        List<RemoteRecord> records = new ArrayList<>();
        List<Skipped> skipped = new ArrayList<>();
        for (String id : ids) {
            try {
                fetch(id).ifPresent(records::add);
            } catch (ToolException e) {
                skipped.add(new Skipped(id, e.getMessage()));
            }
        }
        return new ChangePage(records, List.of(), skipped, changes.path("next").asText(Long.toString(after)),
                changes.path("events").size() == LIMITS.maxBatch());
    }

    /** A DE private there, or with a private copy there, stays private here (our key could see it only by right). */
    private RemoteRecord record(JsonNode de) {
        boolean privateThere = de.path("private").asBoolean(false);
        for (JsonNode r : de.path("replicas")) {
            privateThere |= r.path("private").asBoolean(false);
        }
        return new RemoteRecord(de.path("id").asText(), de.path("version").asText(), codec.metadata(de.path("metadata")), null, null,
                privateThere);
    }

    @Override
    public String probeId() {
        return "00000000-0000-0000-0000-000000000000";
    }

    @Override
    public Optional<RemoteRecord> fetch(String id) {
        HttpResponse<String> r = send(at("/api/entities/" + ToolHttp.segment(id) + "?source=db").GET());
        if (r.statusCode() == 404 || r.statusCode() == 400) {
            return Optional.empty();
        }
        return Optional.of(record(json(r, 200, "read entity " + id)));
    }

    @Override
    public RemoteRecord create(Metadata m, boolean keepPrivate) {
        ObjectNode body = JSON.createObjectNode();
        body.set("metadata", codec.metadataTree(servable(m)));
        if (keepPrivate) {
            body.put("private", true);
        }
        HttpResponse<String> r = send(at("/api/entities").header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body.toString())));
        return record(json(r, 201, "create an entity"));
    }

    @Override
    public RemoteRecord update(RemoteRecord known, Metadata m) {
        String id = known.remoteId();
        String knownVersion = known.version();
        ObjectNode metadata = JSON.createObjectNode();
        java.util.Set<Field> kept = served();
        for (Field f : Field.values()) {
            if (kept.contains(f) && !java.util.Objects.equals(known.metadata().get(f), m.get(f))) {
                metadata.set(f.jsonName(), f.toJson(m.get(f))); // a merge patch of the changed fields; null clears
            }
        }
        if (metadata.isEmpty()) {
            return fetch(id).filter(r -> r.version().equals(knownVersion))
                    .orElseThrow(() -> new RemoteChangedException("entity " + id + " on " + account() + " changed since version " + knownVersion));
        }
        ObjectNode body = JSON.createObjectNode();
        body.set("metadata", metadata);
        HttpResponse<String> r = send(at("/api/entities/" + ToolHttp.segment(id)).header("Content-Type", "application/merge-patch+json")
                .header("If-Match", "\"" + knownVersion + "\"").method("PATCH", HttpRequest.BodyPublishers.ofString(body.toString())));
        if (r.statusCode() == 412) {
            throw new RemoteChangedException("entity " + id + " on " + account() + " changed since version " + knownVersion);
        }
        return record(json(r, 200, "update entity " + id));
    }

    @Override
    public void delete(String id, String knownVersion) {
        throw new ToolException("an Idiom instance keeps every entity's history and does not delete; " + id + " stays on " + account());
    }

    private static JsonNode json(HttpResponse<String> r, int status, String what) {
        if (r.statusCode() != status) {
            ToolHttp.logRefusal("the Idiom at " + r.uri().getAuthority(), what, r);
            throw new ToolException("the Idiom at " + r.uri().getAuthority() + " could not " + what + ": HTTP " + r.statusCode() + " ("
                    + ToolHttp.reason(r.statusCode()) + ")");
        }
        try {
            return JSON.readTree(r.body());
        } catch (IOException e) {
            throw new ToolException("the Idiom at " + r.uri().getAuthority() + " answered malformed JSON");
        }
    }
}
