package dev.idiom.services.rest;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.idiom.services.tools.ToolAccount;
import dev.idiom.services.tools.ToolAccounts;
import jakarta.ws.rs.Consumes;
import dev.idiom.services.app.OperatorAccess;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/** {@code /api/tools}: configured annotation-tool accounts. Secrets go in, never out. */
@Path("/tools")
@Produces(MediaType.APPLICATION_JSON)
public final class ToolsResource {
    private final ToolAccounts accounts;
    private final OperatorAccess operators;
    private final JsonBodies json;

    ToolsResource(ToolAccounts accounts, OperatorAccess operators, JsonBodies json) {
        this.accounts = accounts;
        this.operators = operators;
        this.json = json;
    }

    @GET
    public String list(@HeaderParam("Authorization") String authorization) {
        operators.require(authorization);
        ArrayNode out = json.mapper().createArrayNode();
        accounts.list().forEach(a -> out.add(view(a)));
        return out.toString();
    }

    /** Body: {"kind", "baseUrl", "account", "secret", "newRecords", "conflictPolicy"}; the secret is sealed with IDIOM_SECRET_KEY. */
    @PUT
    @Path("{name}")
    @Consumes(MediaType.APPLICATION_JSON)
    public String put(@PathParam("name") String name, byte[] body, @HeaderParam("Authorization") String authorization) {
        operators.require(authorization);
        ObjectNode b = json.object(body);
        return view(accounts.put(name, b.path("kind").asText(null), b.path("baseUrl").asText(null), b.path("account").asText(""),
                b.path("secret").asText(null), b.path("newRecords").asText(null),
                b.path("conflictPolicy").asText(null))).toString();
    }

    private ObjectNode view(ToolAccount a) {
        return json.mapper().createObjectNode().put("name", a.name()).put("kind", a.kind()).put("baseUrl", a.baseUrl())
                .put("account", a.account()).put("hasSecret", a.hasSecret())
                .put("newRecords", a.newRecords()).put("conflictPolicy", a.conflictPolicy());
    }
}
