package dev.idiom.services.rest;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.idiom.services.app.ErrorCode;
import jakarta.ws.rs.core.Response;

/** An RFC 9457 problem document: status, a stable code, and a message a person can act on. */
public final class Problem {
    public static final String MEDIA_TYPE = "application/problem+json";

    private Problem() {}

    static Response of(ErrorCode code, String detail) {
        return of(code.status(), code.code(), detail);
    }

    static Response of(int status, String code, String detail) {
        return Response.status(status).type(MEDIA_TYPE).entity(json(status, code, detail)).build();
    }

    /** The document itself, for answers given before a request reaches Jersey (servlet filters). */
    public static String json(int status, String code, String detail) {
        ObjectNode n = JsonNodeFactory.instance.objectNode();
        n.put("type", "https://idiom.dev/problems/" + code);
        n.put("title", title(status));
        n.put("status", status);
        n.put("code", code);
        n.put("detail", detail);
        return n.toString();
    }

    private static String title(int status) {
        Response.Status s = Response.Status.fromStatusCode(status);
        return s != null ? s.getReasonPhrase() : status == 428 ? "Precondition Required" : "Error";
    }
}
