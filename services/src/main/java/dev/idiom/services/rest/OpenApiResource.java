package dev.idiom.services.rest;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.idiom.services.http.PublicUrl;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/**
 * {@code /api/openapi.json}: the OpenAPI 3 description of this endpoint, its {@code servers} entry
 * the absolute address the client reached Idiom at (see {@link PublicUrl}).
 */
@Anonymous
@Path("/openapi.json")
public final class OpenApiResource {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final ObjectNode document;
    private final PublicUrl publicUrl;

    OpenApiResource(PublicUrl publicUrl) {
        this.publicUrl = publicUrl;
        try (InputStream in = OpenApiResource.class.getResourceAsStream("/api/openapi.json")) {
            document = (ObjectNode) JSON.readTree(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    public String document(@Context HttpServletRequest request) {
        ObjectNode d = document.deepCopy();
        d.putArray("servers").addObject().put("url", publicUrl.of(request) + "/api");
        return d.toString();
    }
}
