package dev.idiom.services.rest;

import dev.idiom.services.app.Operation;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.idiom.services.app.EntityReads;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;

/** {@code /api/changes}: the change feed, for other nodes, other Idiom instances and replicas. */
@Needs(Operation.READ_CHANGES)
@Path("/changes")
@Produces(MediaType.APPLICATION_JSON)
public final class ChangesResource {
    private final EntityReads reads;
    private final JsonBodies json;

    ChangesResource(EntityReads reads, JsonBodies json) {
        this.reads = reads;
        this.json = json;
    }

    @GET
    public String changes(@QueryParam("after") String afterParam, @QueryParam("limit") String limitParam, @Context HttpServletRequest request) {
        long after = QueryParams.whole("after", afterParam, 0, 0, Long.MAX_VALUE);
        int limit = (int) QueryParams.whole("limit", limitParam, 100, 1, 1000);
        EntityReads.FeedPage page = reads.changes(after, limit, RoleCheck.caller(request));
        ObjectNode n = json.mapper().createObjectNode();
        String body = json.events(page.events(), "events", n);
        return body.substring(0, body.length() - 1) + ",\"next\":" + page.next() + ",\"head\":" + reads.head() + "}";
    }
}
