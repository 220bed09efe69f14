package dev.idiom.services.rest;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.idiom.consistency.report.FidelityTable;
import dev.idiom.events.InvalidValueException;
import dev.idiom.services.app.ReplicaSync;
import dev.idiom.services.app.Operation;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

/** {@code /api/fidelity?from=&to=}: what of one tool account's records a copy in another would hold, per type and field. */
@Needs(Operation.CONSISTENCY)
@Path("/fidelity")
@Produces(MediaType.APPLICATION_JSON)
public final class FidelityResource {
    private final ReplicaSync sync;
    private final JsonBodies json;

    FidelityResource(ReplicaSync sync, JsonBodies json) {
        this.sync = sync;
        this.json = json;
    }

    @GET
    public String table(@QueryParam("from") String from, @QueryParam("to") String to) {
        if (from == null || from.isBlank() || to == null || to.isBlank()) {
            throw new InvalidValueException("say which accounts: ?from=NAME&to=NAME (tool accounts configured with PUT /api/tools/NAME)");
        }
        FidelityTable t = sync.fidelity(from, to);
        ObjectNode n = json.mapper().createObjectNode().put("from", t.from()).put("to", t.to()).put("records", t.records());
        int[] sums = t.totals();
        n.putObject("totals").put("present", sums[0]).put("arrives", sums[1]).put("asExtras", sums[2]).put("cannotHold", sums[3]);
        ArrayNode rows = n.putArray("fields");
        t.rows().forEach(r -> rows.addObject().put("type", r.type()).put("field", r.field()).put("present", r.present()).put("arrives", r.arrives())
                .put("asExtras", r.asExtras()).put("cannotHold", r.cannotHold()));
        return n.toString();
    }
}
