package dev.idiom.services.rest;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.idiom.events.Replica;
import dev.idiom.services.app.EntityReads;
import dev.idiom.services.app.ReadPath;
import dev.idiom.services.app.ReplicaLinks;
import dev.idiom.services.app.Operation;
import jakarta.ws.rs.Consumes;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/** {@code /api/entities/{id}/replicas}: a DE's copies in tools; POST {"tool": name} uploads one. */
@Needs(Operation.SYNC_TOOLS)
@Path("/entities/{id}/replicas")
@Produces(MediaType.APPLICATION_JSON)
public final class ReplicasResource {
    private final ReplicaLinks replicas;
    private final EntityReads reads;
    private final JsonBodies json;

    ReplicasResource(ReplicaLinks replicas, EntityReads reads, JsonBodies json) {
        this.replicas = replicas;
        this.reads = reads;
        this.json = json;
    }

    /** The copies the caller may see (a reader without the private right: the public ones of a DE it may see). */
    @Needs(Operation.READ_ENTITIES)
    @GET
    public String list(@PathParam("id") String id, @Context HttpServletRequest request) {
        ArrayNode out = json.mapper().createArrayNode();
        reads.describe(EntitiesResource.entityId(id), ReadPath.DB, RoleCheck.caller(request)).entity().replicas().forEach(r -> out.add(view(r)));
        return out.toString();
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    public Response upload(@PathParam("id") String id, byte[] body) {
        Replica r = replicas.upload(EntitiesResource.entityId(id), json.toolName(JsonBodies.closed(json.object(body), "tool"), "upload to"));
        return Response.status(201).entity(view(r).toString()).build();
    }

    private ObjectNode view(Replica r) {
        ObjectNode n = json.mapper().createObjectNode().put("tool", r.tool()).put("account", r.account()).put("remoteId", r.remoteId())
                .put("remoteVersion", r.remoteVersion());
        n.set("synced", json.mapper().valueToTree(r.synced()));
        if (r.privateCopy()) {
            n.put("private", true);
        }
        return n;
    }
}
