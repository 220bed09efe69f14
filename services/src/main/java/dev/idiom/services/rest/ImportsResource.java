package dev.idiom.services.rest;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.idiom.consistency.report.ImportOutcome;
import dev.idiom.services.app.ImportRecords;
import dev.idiom.services.app.Operation;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.Locale;

/**
 * {@code POST /api/imports}: {"tool": account name} imports what changed since the last import
 * ({"fromStart": true} for everything); with "remoteId" it downloads that one record.
 */
@Needs(Operation.SYNC_TOOLS)
@Path("/imports")
@Produces(MediaType.APPLICATION_JSON)
public final class ImportsResource {
    private final ImportRecords imports;
    private final JsonBodies json;

    ImportsResource(ImportRecords imports, JsonBodies json) {
        this.imports = imports;
        this.json = json;
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    public String run(byte[] body) {
        ObjectNode b = JsonBodies.closed(json.object(body), "tool", "remoteId", "fromStart");
        String tool = json.toolName(b, "import from");
        if (b.hasNonNull("remoteId")) {
            return outcome(imports.download(tool, JsonBodies.string(b, "remoteId"))).toString();
        }
        return json.summary(imports.importAccount(tool, JsonBodies.flag(b, "fromStart"), (s, done, size, last) -> { })).toString();
    }

    ObjectNode outcome(ImportOutcome o) {
        ObjectNode n = json.mapper().createObjectNode().put("outcome", o.kind().name().toLowerCase(Locale.ROOT)).put("remoteId", o.remoteId());
        n.put("entityId", o.entityId() == null ? null : o.entityId().toString());
        if (o.reason() != null) {
            n.put("reason", o.reason());
        }
        return n;
    }
}
