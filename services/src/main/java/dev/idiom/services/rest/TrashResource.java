package dev.idiom.services.rest;

import dev.idiom.events.DigitalEntity;
import dev.idiom.services.app.EntityLifecycle;
import dev.idiom.services.app.Operation;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import java.util.List;

/** {@code /api/trash}: the DEs deleted in Idiom, restorable until purged ({@code trash-days}); an admin may purge one at once. */
@Needs(Operation.TRASH)
@Path("/trash")
@Produces(MediaType.APPLICATION_JSON)
public final class TrashResource {
    private final EntityLifecycle lifecycle;
    private final JsonBodies json;

    TrashResource(EntityLifecycle lifecycle, JsonBodies json) {
        this.lifecycle = lifecycle;
        this.json = json;
    }

    /** The DEs in the trash, most recently deleted first, with when each goes for good. */
    @GET
    public String list(@QueryParam("limit") String limit) {
        List<DigitalEntity> trashed = lifecycle.trash((int) QueryParams.whole("limit", limit, 100, 1, 1000));
        StringBuilder b = new StringBuilder("{\"retentionDays\":").append(lifecycle.retention().toDays()).append(",\"entities\":[");
        for (int i = 0; i < trashed.size(); i++) {
            DigitalEntity de = trashed.get(i);
            b.append(i == 0 ? "" : ",").append("{\"purgedAfter\":\"").append(de.lifecycle().since().plus(lifecycle.retention()))
                    .append("\",\"entity\":").append(json.entity(de)).append('}');
        }
        return b.append("]}").toString();
    }

    /** Purges one DE from the trash now: it cannot be restored afterwards. */
    @Needs(Operation.PURGE)
    @DELETE
    @Path("{id}")
    public byte[] purge(@PathParam("id") String id, @jakarta.ws.rs.HeaderParam("Idiom-Source") String source, @Context HttpServletRequest request) {
        return lifecycle.purge(EntitiesResource.entityId(id), RoleCheck.caller(request).source("rest", source)).json();
    }
}
