package dev.idiom.services.rest;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/** {@code /api/openapi.json}: the OpenAPI 3 description of this endpoint. */
@Path("/openapi.json")
public final class OpenApiResource {
    private final byte[] document;

    OpenApiResource() {
        try (InputStream in = OpenApiResource.class.getResourceAsStream("/api/openapi.json")) {
            document = in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    public byte[] document() {
        return document;
    }
}
