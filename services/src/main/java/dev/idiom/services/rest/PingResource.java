package dev.idiom.services.rest;

import dev.idiom.services.app.EntityReads;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.Response;

/** {@code /api/ping}: the empty operation, the saturation baseline. */
@Anonymous
@Path("/ping")
public final class PingResource {
    private final EntityReads reads;

    PingResource(EntityReads reads) {
        this.reads = reads;
    }

    @GET
    public Response ping() {
        reads.empty();
        return Response.noContent().build();
    }
}
