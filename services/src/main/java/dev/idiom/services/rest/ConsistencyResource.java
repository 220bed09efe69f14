package dev.idiom.services.rest;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.idiom.consistency.report.ConflictEntry;
import dev.idiom.events.DigitalEntity;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.EntityTag;
import jakarta.ws.rs.core.Response;
import dev.idiom.services.app.Operation;
import dev.idiom.services.app.ReplicaSync;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.time.Instant;
import java.util.List;

/** {@code /api/consistency} (per tool account: in sync, pending, parked, divergent, lag) and {@code /api/conflicts} (all DEs). */
@Needs(Operation.CONSISTENCY)
@Path("/")
@Produces(MediaType.APPLICATION_JSON)
public final class ConsistencyResource {
    private final ReplicaSync sync;
    private final JsonBodies json;

    ConsistencyResource(ReplicaSync sync, JsonBodies json) {
        this.sync = sync;
        this.json = json;
    }

    @GET
    @Path("consistency")
    public String report() {
        ObjectNode n = json.mapper().createObjectNode();
        ArrayNode accounts = n.putArray("accounts");
        int divergent = 0;
        int pending = 0;
        int parked = 0;
        for (dev.idiom.consistency.report.AccountConsistency a : sync.report()) {
            ObjectNode o = accounts.addObject().put("name", a.name()).put("kind", a.kind()).put("account", a.account()).put("paused", a.paused());
            o.put("held", a.held());
            o.put("replicas", a.replicas()).put("inSync", a.inSync()).put("pending", a.pending()).put("parked", a.parked())
                    .put("divergent", a.divergent()).put("outboxDepth", a.pending() + a.parked());
            o.put("lastPullAt", text(a.lastPullAt())).put("lastPushAt", text(a.lastPushAt())).put("lastCheckAt", text(a.lastCheckAt()))
                    .put("oldestOwedAt", text(a.oldestOwed()));
            dev.idiom.consistency.report.AccountConsistency.Lag lag = a.lag();
            o.putObject("propagationLagMs").put("samples", lag.samples()).put("p50", lag.p50()).put("p99", lag.p99()).put("max", lag.max())
                    .put("windowMinutes", lag.windowMinutes());
            divergent += a.divergent();
            pending += a.pending();
            parked += a.parked();
        }
        n.put("pending", pending).put("parked", parked).put("divergent", divergent);
        ArrayNode followers = n.putArray("followers"); // every follower of the store on this node, where it stands
        for (dev.idiom.events.Followers.Standing f : sync.followers()) {
            ObjectNode o = followers.addObject().put("name", f.name()).put("positionKeptIn", f.keptIn());
            o.put("position", f.position()).put("behind", f.behind()).put("eventsFollowed", f.eventsFollowed())
                    .put("lastLagMs", f.lastLagMillis()).put("maxLagMs", f.maxLagMillis()).put("failuresInARow", f.failures())
                    .put("lastRoundAt", f.lastRoundAtMillis() < 0 ? null : Instant.ofEpochMilli(f.lastRoundAtMillis()).toString());
        }
        return n.toString();
    }

    /**
     * Conflicts across all DEs, newest first, each with its id, its DE's title and its state (open:
     * left to a curator by the {@code ask} policy; settled: a policy chose; resolved: a curator chose);
     * {@code state} filters, {@code before}: the position to continue below.
     */
    @GET
    @Path("conflicts")
    public String conflicts(@QueryParam("state") String state, @QueryParam("before") String beforeParam, @QueryParam("limit") String limitParam) {
        long before = QueryParams.whole("before", beforeParam, 0, Long.MIN_VALUE, Long.MAX_VALUE);
        int limit = (int) QueryParams.whole("limit", limitParam, 100, 1, 1000);
        List<ConflictEntry> found = sync.conflicts(state, before, limit); // an empty or unknown state is refused (the document names three)
        ObjectNode n = json.mapper().createObjectNode();
        ArrayNode list = n.putArray("conflicts");
        for (ConflictEntry c : found) {
            ObjectNode o = json.conflict(list.addObject(), c.event());
            o.put("id", c.id().toString()).put("title", c.title()).put("state", c.state());
            if (c.settledBy() != null) {
                o.put("took", c.settledBy().take());
                o.set("value", c.settledBy().field().toJson(c.settledBy().value()));
            }
        }
        if (found.size() == limit) {
            n.put("before", found.getLast().event().position());
        }
        return n.toString();
    }

    /**
     * Settles a conflict. Body {"take": "idiom"|"tool"|"value", "value"?}: the DE's field takes Idiom's
     * value, the tool's, or the value given, as an ordinary change the engine carries to every copy
     * (a field held by the {@code ask} policy flows again). Answers the DE.
     */
    @POST
    @Path("conflicts/{id}/resolve")
    @Consumes(MediaType.APPLICATION_JSON)
    public Response resolve(@PathParam("id") String id, byte[] body, @HeaderParam("Idiom-Source") String source, @Context HttpServletRequest request) {
        ObjectNode b = JsonBodies.closed(json.object(body), "take", "value");
        String take = JsonBodies.string(b, "take");
        DigitalEntity de = sync.resolveConflict(EntitiesResource.entityId(id), take, b.get("value"), RoleCheck.caller(request).source("rest", source));
        return Response.ok(json.entity(de)).tag(new EntityTag(Integer.toString(de.version()))).build();
    }

    private static String text(Instant t) {
        return t == null ? null : t.toString();
    }
}
