package dev.idiom.services.rest;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.idiom.services.app.ApiKeys;
import dev.idiom.services.app.Operation;
import dev.idiom.services.app.Role;
import dev.idiom.services.http.PublicUrl;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;

/** {@code /api/keys}: an admin creates (the key shown once), lists and revokes API keys. */
@Needs(Operation.KEYS)
@Path("/keys")
@Produces(MediaType.APPLICATION_JSON)
public final class KeysResource {
    private final ApiKeys keys;
    private final JsonBodies json;
    private final PublicUrl publicUrl;

    KeysResource(ApiKeys keys, JsonBodies json, PublicUrl publicUrl) {
        this.keys = keys;
        this.json = json;
        this.publicUrl = publicUrl;
    }

    @GET
    public String list() {
        ArrayNode out = json.mapper().createArrayNode();
        keys.list().forEach(k -> out.add(view(k)));
        return out.toString();
    }

    /** Body: {"name", "role", "privateRecords"}; the answer holds the key itself, this once. */
    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    public Response create(byte[] body, @Context HttpServletRequest request) {
        ObjectNode b = JsonBodies.closed(json.object(body), "name", "role", "privateRecords");
        ApiKeys.Issued issued = keys.create(JsonBodies.string(b, "name"), Role.parse(JsonBodies.string(b, "role")),
                JsonBodies.strictFlag(b, "privateRecords"), RoleCheck.caller(request).keyName());
        ObjectNode out = view(issued.key()).put("key", issued.secret());
        return Response.created(URI.create(publicUrl.of(request) + "/api/keys/" + URLEncoder.encode(issued.key().name(), StandardCharsets.UTF_8)))
                .entity(out.toString()).build();
    }

    @DELETE
    @Path("{name}")
    public Response revoke(@PathParam("name") String name) {
        keys.revoke(name);
        return Response.noContent().build();
    }

    private ObjectNode view(ApiKeys.ApiKey k) {
        ObjectNode n = json.mapper().createObjectNode().put("name", k.name()).put("role", k.role().id())
                .put("createdAt", k.createdAt().toString()).put("createdBy", k.createdBy()).put("privateRecords", k.seesPrivate());
        n.put("revokedAt", k.revokedAt() == null ? null : k.revokedAt().toString());
        return n;
    }
}
