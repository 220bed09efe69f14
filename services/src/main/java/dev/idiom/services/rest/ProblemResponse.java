package dev.idiom.services.rest;

import dev.idiom.services.app.ErrorCode;
import dev.idiom.services.http.Problem;
import jakarta.ws.rs.core.Response;

/** A {@link Problem} as a JAX-RS answer. */
final class ProblemResponse {
    private ProblemResponse() {}

    static Response of(ErrorCode code, String detail) {
        return of(code.status(), code.code(), detail);
    }

    static Response of(int status, String code, String detail) {
        return Response.status(status).type(Problem.MEDIA_TYPE).entity(Problem.json(status, code, detail)).build();
    }
}
