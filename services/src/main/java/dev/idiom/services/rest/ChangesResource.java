package dev.idiom.services.rest;

import dev.idiom.services.app.Role;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.idiom.events.RecordedEvent;
import dev.idiom.services.app.EntityReads;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.util.List;

/** {@code /api/changes}: the change feed, for other nodes, other Idiom instances and replicas. */
@Needs(Role.READER)
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
    public String changes(@QueryParam("after") String afterParam, @QueryParam("limit") String limitParam) {
        long after = QueryParams.whole("after", afterParam, 0, 0, Long.MAX_VALUE);
        int limit = (int) QueryParams.whole("limit", limitParam, 100, 1, 1000);
        List<RecordedEvent> events = reads.changes(after, limit);
        ObjectNode n = json.mapper().createObjectNode();
        String body = json.events(events, "events", n);
        long next = events.isEmpty() ? after : events.getLast().position();
        return body.substring(0, body.length() - 1) + ",\"next\":" + next + ",\"head\":" + reads.head() + "}";
    }
}
