package dev.idiom.services.rest;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.idiom.events.RecordedEvent;
import dev.idiom.services.app.Role;
import dev.idiom.services.app.ReplicaSync;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.time.Instant;
import java.util.List;

/** {@code /api/consistency} (per tool account: in sync, pending, parked, divergent, lag) and {@code /api/conflicts} (all DEs). */
@Needs(Role.CURATOR)
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
        return n.toString();
    }

    /** Conflicts across all DEs, newest first; {@code before}: the position to continue below. */
    @GET
    @Path("conflicts")
    public String conflicts(@QueryParam("before") String beforeParam, @QueryParam("limit") String limitParam) {
        long before = QueryParams.whole("before", beforeParam, 0, Long.MIN_VALUE, Long.MAX_VALUE);
        int limit = (int) QueryParams.whole("limit", limitParam, 100, 1, 1000);
        List<RecordedEvent> found = sync.conflicts(before, limit);
        ObjectNode n = json.mapper().createObjectNode();
        ArrayNode list = n.putArray("conflicts");
        found.forEach(e -> json.conflict(list.addObject(), e));
        if (found.size() == limit) {
            n.put("before", found.getLast().position());
        }
        return n.toString();
    }

    private static String text(Instant t) {
        return t == null ? null : t.toString();
    }
}
