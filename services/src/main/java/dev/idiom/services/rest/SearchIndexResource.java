package dev.idiom.services.rest;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.idiom.services.app.Administration;
import dev.idiom.services.app.Operation;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/** {@code /api/search-index}: how current the search index is, and a rebuild from events that does not stop searches. */
@Needs(Operation.SEARCH_INDEX)
@Path("search-index")
@Produces(MediaType.APPLICATION_JSON)
public final class SearchIndexResource {
    private final Administration admin;
    private final JsonBodies json;

    SearchIndexResource(Administration admin, JsonBodies json) {
        this.admin = admin;
        this.json = json;
    }

    @GET
    public String figures() {
        return json.mapper().valueToTree(admin.figures().search()).toString();
    }

    /** Starts a rebuild (or joins the running one) and answers at once: 202, with the figures; GET shows when it is done. */
    @POST
    public Response rebuild() {
        admin.rebuildSearchIndex();
        ObjectNode n = json.mapper().valueToTree(admin.figures().search());
        return Response.accepted(n.toString()).build();
    }
}
