package dev.idiom.services.rest;

import dev.idiom.services.app.Operation;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.idiom.events.ConflictResolved;
import dev.idiom.events.DigitalEntity;
import dev.idiom.events.EntitySnapshot;
import dev.idiom.events.InvalidValueException;
import dev.idiom.events.SearchPage;
import dev.idiom.events.SearchQuery;
import dev.idiom.services.app.Caller;
import dev.idiom.services.app.EntityReads;
import dev.idiom.services.app.EntityWrites;
import dev.idiom.services.app.Provenance;
import dev.idiom.services.app.ReadPath;
import dev.idiom.services.http.PublicUrl;
import jakarta.servlet.http.HttpServletRequest;
import dev.idiom.services.app.EntityLifecycle;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.PATCH;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.EntityTag;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.net.URI;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.UUID;

/** {@code /api/entities}: create, MoreInfo, merge-patch update, history and search of DEs. */
@Needs(Operation.READ_ENTITIES)
@Path("/entities")
@Produces(MediaType.APPLICATION_JSON)
public final class EntitiesResource {
    static final String MERGE_PATCH = "application/merge-patch+json";

    private final EntityReads reads;
    private final EntityWrites writes;
    private final JsonBodies json;
    private final PublicUrl publicUrl;
    private final EntityLifecycle lifecycle;
    private final dev.idiom.services.tools.Tools tools;

    EntitiesResource(EntityReads reads, EntityWrites writes, EntityLifecycle lifecycle, dev.idiom.services.tools.Tools tools, JsonBodies json,
            PublicUrl publicUrl) {
        this.tools = tools;
        this.lifecycle = lifecycle;
        this.reads = reads;
        this.writes = writes;
        this.json = json;
        this.publicUrl = publicUrl;
    }

    @Needs(Operation.WRITE_ENTITIES)
    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    public Response create(byte[] body, @HeaderParam("Idiom-Source") String source, @Context HttpServletRequest request) {
        ObjectNode b = json.object(body);
        EntitySnapshot created = writes.create(json.newRecord(b), JsonBodies.markedPrivate(b), RoleCheck.caller(request).source("rest", source));
        // the address the client reached us at (public-url, or a trusted proxy's forwarding headers)
        return Response.created(URI.create(publicUrl.of(request) + "/api/entities/" + created.entity().id()))
                .tag(etag(created.version())).entity(created.json()).build();
    }

    /**
     * MoreInfo; with {@code Accept} naming a citation format (CSL-JSON, BibTeX, RIS, or
     * {@code text/x-bibliography; style=…; locale=…}), the DE as that citation, as DOI content negotiation answers.
     */
    @GET
    @Path("{id}")
    @Produces({MediaType.APPLICATION_JSON, CitationNegotiation.CSL_JSON, CitationNegotiation.BIBTEX, CitationNegotiation.RIS,
            CitationNegotiation.BIBLIOGRAPHY})
    public Response describe(@PathParam("id") String id, @QueryParam("source") String path, @QueryParam("version") String versionParam,
                             @QueryParam("asOf") String asOf, @HeaderParam("If-None-Match") String ifNoneMatch,
                             @Context HttpHeaders headers, @Context HttpServletRequest request) {
        UUID entityId = entityId(id);
        Integer version = versionParam == null ? null : (int) QueryParams.whole("version", versionParam, 0, 1, Integer.MAX_VALUE);
        // every parameter is checked, also those a version makes moot: a malformed request is refused, never half read
        java.time.Instant at = asOf == null ? null : instant(asOf);
        if (path != null && path.isBlank()) {
            throw new InvalidValueException("source must be 'cache' or 'db', got ''");
        }
        ReadPath readPath = ReadPath.parse(path);
        Caller caller = RoleCheck.caller(request);
        var citation = CitationNegotiation.chosen(headers);
        if (version != null || asOf != null) {
            DigitalEntity past = reads.asOf(entityId, version, version != null ? null : at, caller);
            if (citation.isPresent()) {
                return citation.get().answer(reads, List.of(past), true, caller);
            }
            return Response.ok(json.entity(past)).tag(etag(past.version())).header("Vary", "Accept").build();
        }
        EntitySnapshot snapshot = reads.describe(entityId, readPath, caller);
        if (citation.isPresent()) {
            return citation.get().answer(reads, List.of(snapshot.entity()), true, caller);
        }
        if (ifNoneMatch != null && Etags.matches(ifNoneMatch, snapshot.version())) {
            return Response.notModified(etag(snapshot.version())).header("Vary", "Accept").build();
        }
        return Response.ok(snapshot.json()).tag(etag(snapshot.version())).header("Vary", "Accept").build();
    }

    @Needs(Operation.WRITE_ENTITIES)
    @PATCH
    @Path("{id}")
    @Consumes({MERGE_PATCH, MediaType.APPLICATION_JSON})
    public Response patch(@PathParam("id") String id, byte[] body, @HeaderParam("If-Match") String ifMatch,
                          @HeaderParam("Idiom-Source") String source, @Context HttpServletRequest request) {
        UUID entityId = entityId(id);
        if (ifMatch == null || ifMatch.isBlank()) {
            throw new PreconditionRequired("PATCH needs If-Match with the version you read (the ETag, e.g. \"3\")");
        }
        ObjectNode patch = json.object(body);
        int expected = Etags.version(ifMatch);
        EntitySnapshot updated = writes.patch(entityId, json.mergePatch(patch), JsonBodies.privacyMark(patch), expected,
                RoleCheck.caller(request).source("rest", source));
        return Response.ok(updated.json()).tag(etag(updated.version())).build();
    }

    /** Moves the DE to Idiom's trash (If-Match: the version read); its copies follow per account ({@code deletions}). */
    @Needs(Operation.WRITE_ENTITIES)
    @DELETE
    @Path("{id}")
    public Response delete(@PathParam("id") String id, @HeaderParam("If-Match") String ifMatch, @HeaderParam("Idiom-Source") String source,
                           @Context HttpServletRequest request) {
        EntitySnapshot deleted = lifecycle.delete(entityId(id), expected(ifMatch, "DELETE"), RoleCheck.caller(request).source("rest", source));
        return Response.ok(deleted.json()).tag(etag(deleted.version())).build();
    }

    /** Takes the DE out of the trash; the copies its deletion removed are made again. */
    @Needs(Operation.WRITE_ENTITIES)
    @POST
    @Path("{id}/restore")
    public Response restore(@PathParam("id") String id, @HeaderParam("Idiom-Source") String source, @Context HttpServletRequest request) {
        EntitySnapshot restored = lifecycle.restore(entityId(id), RoleCheck.caller(request).source("rest", source));
        return Response.ok(restored.json()).tag(etag(restored.version())).build();
    }

    /** Sets the DE's fields back to what they were at {@code version} (new events; If-Match: the version read). */
    @Needs(Operation.WRITE_ENTITIES)
    @POST
    @Path("{id}/revert")
    public Response revert(@PathParam("id") String id, @QueryParam("version") String version, @HeaderParam("If-Match") String ifMatch,
                           @HeaderParam("Idiom-Source") String source, @Context HttpServletRequest request) {
        if (version == null) {
            throw new InvalidValueException("name the version to revert to: ?version=N");
        }
        EntitySnapshot reverted = lifecycle.revert(entityId(id), (int) QueryParams.whole("version", version, 0, 1, Integer.MAX_VALUE),
                expected(ifMatch, "revert"), RoleCheck.caller(request).source("rest", source));
        return Response.ok(reverted.json()).tag(etag(reverted.version())).build();
    }

    /**
     * Merges another DE into this one. Body: {"from": "<id>", "take": ["title", …]}: the fields to take
     * from the other DE (others stay, a gap is filled from it, tags are joined), "publish": true to
     * make the result public where a side was private (else it stays private). The other DE's id
     * answers with a redirect to this one from now on.
     */
    @Needs(Operation.CURATE_ENTITIES)
    @POST
    @Path("{id}/merge")
    @Consumes(MediaType.APPLICATION_JSON)
    public Response merge(@PathParam("id") String id, byte[] body, @HeaderParam("If-Match") String ifMatch, @HeaderParam("Idiom-Source") String source,
                          @Context HttpServletRequest request) {
        ObjectNode b = JsonBodies.closed(json.object(body), "from", "take", "publish");
        String from = JsonBodies.string(b, "from");
        if (from == null) {
            throw new InvalidValueException("name the DE to merge into this one: {\"from\": \"<id>\"}");
        }
        java.util.List<String> take = new java.util.ArrayList<>();
        if (b.has("take")) {
            if (!b.get("take").isArray()) {
                throw new InvalidValueException("\"take\" is a list of field names");
            }
            b.get("take").forEach(f -> take.add(f.asText()));
        }
        if (b.has("publish") && !b.get("publish").isBoolean()) {
            throw new InvalidValueException("\"publish\" is true or false");
        }
        EntityLifecycle.Outcome merged = lifecycle.merge(entityId(id), entityId(from), take, b.path("publish").asBoolean(false), expected(ifMatch, "merge"),
                RoleCheck.caller(request).source("rest", source));
        if (merged.duplicates().isEmpty()) {
            return Response.ok(merged.kept().json()).tag(etag(merged.kept().version())).build();
        }
        // the kept DE, and the other's copies in accounts where it has one: removed there, or for the curator to remove
        ObjectNode answer;
        try {
            answer = (ObjectNode) json.mapper().readTree(merged.kept().json());
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e); // the codec's own JSON
        }
        var list = answer.putArray("duplicateCopies");
        merged.duplicates().forEach(d -> list.addObject().put("tool", d.tool()).put("account", d.account()).put("remoteId", d.remoteId())
                .put("removal", d.removed() ? "propagate" : "keep"));
        return Response.ok(answer.toString()).tag(etag(merged.kept().version())).build();
    }

    /**
     * Splits one replica off this DE into a new DE made from that copy's record. Body:
     * {"tool", "account", "remoteId"}; answers 201 with the new DE.
     */
    @Needs(Operation.CURATE_ENTITIES)
    @POST
    @Path("{id}/split")
    @Consumes(MediaType.APPLICATION_JSON)
    public Response split(@PathParam("id") String id, byte[] body, @HeaderParam("If-Match") String ifMatch, @HeaderParam("Idiom-Source") String source,
                          @Context HttpServletRequest request) {
        Copy copy = copy(body, "split off");
        EntityLifecycle.Outcome split = lifecycle.split(entityId(id), copy.tool(), copy.account(), copy.remoteId(), expected(ifMatch, "split"),
                RoleCheck.caller(request).source("rest", source));
        return Response.created(URI.create(publicUrl.of(request) + "/api/entities/" + split.other().entity().id()))
                .tag(etag(split.other().version())).entity(split.other().json()).build();
    }

    /**
     * Unlinks one replica by hand. Body: {"tool", "account", "remoteId"}: the copy stays in its tool
     * as it is, nothing more is pushed to it, and pulls leave it alone from now on.
     */
    @Needs(Operation.CURATE_ENTITIES)
    @POST
    @Path("{id}/unlink")
    @Consumes(MediaType.APPLICATION_JSON)
    public Response unlink(@PathParam("id") String id, byte[] body, @HeaderParam("If-Match") String ifMatch, @HeaderParam("Idiom-Source") String source,
                           @Context HttpServletRequest request) {
        Copy copy = copy(body, "unlink");
        EntitySnapshot unlinked = lifecycle.unlink(entityId(id), copy.tool(), copy.account(), copy.remoteId(), expected(ifMatch, "unlink"),
                RoleCheck.caller(request).source("rest", source));
        return Response.ok(unlinked.json()).tag(etag(unlinked.version())).build();
    }

    /** A replica as a body names it. */
    private record Copy(String tool, String account, String remoteId) {}

    /** The replica a body names: {"tool", "account", "remoteId"} as the DE's replicas show it. */
    private Copy copy(byte[] body, String purpose) {
        ObjectNode b = JsonBodies.closed(json.object(body), "tool", "account", "remoteId");
        String tool = JsonBodies.string(b, "tool");
        String remoteId = JsonBodies.string(b, "remoteId");
        if (tool == null || remoteId == null) {
            throw new InvalidValueException("name the replica to " + purpose + ": {\"tool\", \"account\", \"remoteId\"} as the DE's replicas show it");
        }
        return new Copy(tool, JsonBodies.string(b, "account"), remoteId);
    }

    private static int expected(String ifMatch, String what) {
        if (ifMatch == null || ifMatch.isBlank()) {
            throw new PreconditionRequired(what + " needs If-Match with the version you read (the ETag, e.g. \"3\")");
        }
        return Etags.version(ifMatch);
    }

    @GET
    @Path("{id}/events")
    public String history(@PathParam("id") String id, @Context HttpServletRequest request) {
        UUID entityId = entityId(id);
        return json.events(reads.history(entityId, RoleCheck.caller(request)), "events", about(entityId));
    }

    /** The conflicts a DE's replicas had with Idiom: both values, the base, the winner, the policy. */
    @GET
    @Path("{id}/conflicts")
    public String conflicts(@PathParam("id") String id, @Context HttpServletRequest request) {
        UUID entityId = entityId(id);
        ObjectNode n = about(entityId);
        var list = n.putArray("conflicts");
        for (EntityReads.FeedEvent e : reads.history(entityId, RoleCheck.caller(request))) {
            // a DE with private parts: its conflicts (both values, the copy's account) are not for this caller
            if (!e.withheld() && e.event().event() instanceof ConflictResolved) {
                json.conflict(list.addObject(), e.event());
            }
        }
        return n.toString();
    }

    @GET
    @Path("{id}/provenance")
    public String provenance(@PathParam("id") String id, @Context HttpServletRequest request) {
        UUID entityId = entityId(id);
        ObjectNode n = about(entityId);
        ObjectNode fields = n.putObject("fields");
        List<EntityReads.FeedEvent> history = reads.history(entityId, RoleCheck.caller(request));
        if (history.stream().noneMatch(EntityReads.FeedEvent::withheld)) { // sources of a DE with private parts name private copies
            Provenance.of(entityId, history.stream().map(EntityReads.FeedEvent::event).toList()).forEach((f, s) -> fields.putObject(f.jsonName())
                    .put("source", s.source()).put("at", s.at().toString()).put("version", s.version()).put("event", s.eventType()));
        }
        return n.toString();
    }

    /** Search; with {@code Accept} naming a citation format, the page's DEs as citations (CSL-JSON: an array). */
    @GET
    @Produces({MediaType.APPLICATION_JSON, CitationNegotiation.CSL_JSON, CitationNegotiation.BIBTEX, CitationNegotiation.RIS,
            CitationNegotiation.BIBLIOGRAPHY})
    public Response search(@QueryParam("q") String text, @QueryParam("tag") String tag, @QueryParam("author") String author,
                         @QueryParam("yearFrom") String yearFrom, @QueryParam("yearTo") String yearTo, @QueryParam("type") String type,
                         @QueryParam("venue") String venue, @QueryParam("tool") String tool, @QueryParam("cursor") String cursor,
                         @QueryParam("limit") String limit, @Context HttpHeaders headers, @Context HttpServletRequest request) {
        var citation = CitationNegotiation.chosen(headers);
        Caller caller = RoleCheck.caller(request);
        SearchQuery query = new SearchQuery(text, tag, author, QueryParams.year("yearFrom", yearFrom), QueryParams.year("yearTo", yearTo),
                type, venue, tools.filter(tool), cursor, (int) QueryParams.whole("limit", limit, 50, 1, 200));
        if (citation.isPresent()) {
            // the key's turn first: a request refused its share costs no search
            try (var turn = reads.formattingTurn(citation.get().format(), caller)) {
                return citation.get().answer(reads, reads.search(query, caller).entities(), false, caller);
            }
        }
        return Response.ok(searchJson(reads.search(query, caller)), MediaType.APPLICATION_JSON).header("Vary", "Accept").build();
    }

    private String searchJson(SearchPage page) {
        StringBuilder b = new StringBuilder("{\"entities\":[");
        for (int i = 0; i < page.entities().size(); i++) {
            b.append(i == 0 ? "" : ",").append(json.entity(page.entities().get(i)));
        }
        ObjectNode facets = JsonNodeFactory.instance.objectNode();
        for (String name : SearchPage.FACETS) {
            ArrayNode values = facets.putArray(name);
            page.facets().getOrDefault(name, List.of()).forEach(f -> values.addObject().put("value", f.value()).put("count", f.count()));
        }
        b.append("],\"total\":").append(page.total()).append(",\"estimated\":").append(page.estimated()).append(",\"facets\":").append(facets)
                .append(",\"next\":").append(page.nextCursor() == null ? "null" : "\"" + page.nextCursor() + "\"").append('}');
        return b.toString();
    }

    static UUID entityId(String id) {
        try {
            return UUID.fromString(id);
        } catch (IllegalArgumentException e) {
            throw new InvalidValueException("'" + id + "' is not an entity id (a UUID)");
        }
    }

    private static final java.util.regex.Pattern RFC3339 = java.util.regex.Pattern.compile(
            "([0-9]{4}-[0-9]{2}-[0-9]{2})[Tt]([0-9]{2}:[0-9]{2}):([0-9]{2})(\\.[0-9]{1,9})?([Zz]|([+-])([01][0-9]|2[0-3]):([0-5][0-9]))");

    /**
     * An RFC 3339 date-time, as the document's {@code format: date-time} says: any offset up to
     * ±23:59 (java.time stops at ±18:00) and a leap second (:60, read as the next second).
     */
    static Instant instant(String s) {
        java.util.regex.Matcher m = RFC3339.matcher(s);
        try {
            if (!m.matches()) {
                throw new DateTimeParseException("not RFC 3339", s, 0);
            }
            int second = Integer.parseInt(m.group(3));
            java.time.LocalDateTime local = java.time.LocalDateTime.parse(m.group(1) + "T" + m.group(2) + ":" + (second == 60 ? "59" : m.group(3))
                    + (m.group(4) == null ? "" : m.group(4)));
            long offset = m.group(6) == null ? 0 : (m.group(6).equals("-") ? -1 : 1) * (Integer.parseInt(m.group(7)) * 3600L + Integer.parseInt(m.group(8)) * 60L);
            return local.toInstant(java.time.ZoneOffset.UTC).minusSeconds(offset).plusSeconds(second == 60 ? 1 : 0);
        } catch (DateTimeParseException e) {
            throw new InvalidValueException("asOf must be an RFC 3339 date-time such as 2026-01-31T12:00:00Z, got '" + s + "'");
        }
    }

    /** A document about one DE: {"entityId": …}, for the history, conflicts and provenance to fill. */
    private ObjectNode about(UUID entityId) {
        return json.mapper().createObjectNode().put("entityId", entityId.toString());
    }

    static EntityTag etag(int version) {
        return new EntityTag(Integer.toString(version));
    }

}
