package dev.idiom.services.rest;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.idiom.events.DigitalEntity;
import dev.idiom.events.InvalidValueException;
import dev.idiom.events.Replica;
import dev.idiom.services.app.EntityLifecycle;
import dev.idiom.services.app.Operation;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.List;

/**
 * {@code /api/duplicates}: likely pairs a curator decides. Matching never joins two records of one
 * library, so two entries of one file that share a DOI are two DEs listed here; a curator merges them
 * ({@code POST /api/entities/{id}/merge}) or says they are different works ({@code POST /api/duplicates/dismiss}).
 */
@Needs(Operation.CURATE_ENTITIES)
@Path("/duplicates")
@Produces(MediaType.APPLICATION_JSON)
public final class DuplicatesResource {
    private final EntityLifecycle lifecycle;
    private final JsonBodies json;

    DuplicatesResource(EntityLifecycle lifecycle, JsonBodies json) {
        this.lifecycle = lifecycle;
        this.json = json;
    }

    /** Open pairs, those sharing a DOI first: each DE's id, version, title, year and copies, and the evidence. */
    @GET
    public String list(@QueryParam("limit") String limit, @Context HttpServletRequest request) {
        List<EntityLifecycle.DuplicatePair> pairs = lifecycle.duplicates((int) QueryParams.whole("limit", limit, 100, 1, 1000), RoleCheck.caller(request));
        ObjectNode n = json.mapper().createObjectNode();
        ArrayNode list = n.putArray("duplicates");
        for (EntityLifecycle.DuplicatePair p : pairs) {
            ObjectNode o = list.addObject();
            o.putObject("evidence").put("kind", p.evidence()).put("key", p.key());
            ArrayNode des = o.putArray("entities");
            side(des.addObject(), p.first());
            side(des.addObject(), p.second());
        }
        return n.toString();
    }

    private static void side(ObjectNode o, DigitalEntity de) {
        o.put("id", de.id().toString()).put("version", de.version()).put("title", de.metadata().title());
        if (de.metadata().year() != null) {
            o.put("year", de.metadata().year());
        }
        if (de.metadata().doi() != null) {
            o.put("doi", de.metadata().doi());
        }
        ArrayNode copies = o.putArray("replicas");
        for (Replica r : de.replicas()) {
            copies.addObject().put("tool", r.tool()).put("account", r.account()).put("remoteId", r.remoteId());
        }
    }

    /** Body {"entities": [a, b]}: the two are different works and are not suggested as a pair again. Answers 204. */
    @POST
    @Path("dismiss")
    @Consumes(MediaType.APPLICATION_JSON)
    public Response dismiss(byte[] body, @HeaderParam("Idiom-Source") String source, @Context HttpServletRequest request) {
        ObjectNode b = JsonBodies.closed(json.object(body), "entities");
        if (!b.has("entities") || !b.get("entities").isArray() || b.get("entities").size() != 2 || !b.get("entities").get(0).isTextual()
                || !b.get("entities").get(1).isTextual()) {
            throw new InvalidValueException("name the two DEs that are different works: {\"entities\": [\"<id>\", \"<id>\"]}");
        }
        lifecycle.dismissDuplicate(EntitiesResource.entityId(b.get("entities").get(0).asText()), EntitiesResource.entityId(b.get("entities").get(1).asText()),
                RoleCheck.caller(request).source("rest", source));
        return Response.noContent().build();
    }
}
