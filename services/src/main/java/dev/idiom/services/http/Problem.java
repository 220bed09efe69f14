package dev.idiom.services.http;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import jakarta.ws.rs.core.Response;

/**
 * An RFC 9457 problem document: status, a stable code, and a message a person can act on; the
 * one shape of every refusal, whichever face (REST, the consoles, WebDAV, the servlet filters) gives it.
 */
public final class Problem {
    public static final String MEDIA_TYPE = "application/problem+json";

    private Problem() {}

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
