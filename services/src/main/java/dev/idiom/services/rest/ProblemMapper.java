package dev.idiom.services.rest;

import dev.idiom.events.EventStoreException;
import dev.idiom.events.InvalidValueException;
import dev.idiom.events.StaleVersionException;
import dev.idiom.events.UnknownEntityException;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import java.util.logging.Level;
import java.util.logging.Logger;

/** Every failure becomes a problem document; nothing reaches the client as a stack trace. */
final class ProblemMapper implements ExceptionMapper<Throwable> {
    private static final Logger LOG = Logger.getLogger(ProblemMapper.class.getName());

    @Override
    public Response toResponse(Throwable e) {
        for (Throwable c = e; c != null; c = c.getCause()) {
            if (c instanceof dev.idiom.services.web.BodyLimitExceeded tooLarge) {
                return Problem.of(413, "TooLarge", tooLarge.getMessage());
            }
        }
        return switch (e) {
            case InvalidValueException x -> Problem.of(400, "Invalid", x.getMessage());
            case UnknownEntityException x -> Problem.of(404, "NotFound", x.getMessage());
            case StaleVersionException x -> Problem.of(412, "StaleVersion", x.getMessage() + "; read it again and retry");
            case PreconditionRequired x -> Problem.of(428, "PreconditionRequired", x.getMessage());
            case BodyTooLarge x -> Problem.of(413, "TooLarge", x.getMessage());
            case dev.idiom.services.app.NotAuthorizedException x -> Response.fromResponse(Problem.of(401, "Unauthorized", x.getMessage()))
                    .header("WWW-Authenticate", "Bearer realm=\"idiom\"").build();
            case dev.idiom.wrappers.RemoteChangedException x -> Problem.of(409, "RemoteChanged", x.getMessage());
            case dev.idiom.wrappers.ToolAuthException x -> Problem.of(502, "ToolAuth", x.getMessage());
            case dev.idiom.wrappers.ToolException x -> Problem.of(502, "ToolFailed", x.getMessage());
            case EventStoreException x -> {
                LOG.log(Level.WARNING, "event store failure", x);
                yield Problem.of(503, "Unavailable", "the database did not answer; nothing was written, retry later");
            }
            case WebApplicationException x -> {
                int status = x.getResponse().getStatus();
                yield Problem.of(status, codeFor(status), messageFor(status, x));
            }
            default -> {
                LOG.log(Level.SEVERE, "unexpected failure", e);
                yield Problem.of(500, "Internal", "unexpected server error; it has been logged");
            }
        };
    }

    private static String codeFor(int status) {
        return switch (status) {
            case 404 -> "NotFound";
            case 405 -> "MethodNotAllowed";
            case 406 -> "NotAcceptable";
            case 415 -> "UnsupportedMediaType";
            default -> status < 500 ? "Invalid" : "Internal";
        };
    }

    private static String messageFor(int status, WebApplicationException x) {
        return switch (status) {
            case 404 -> "no such resource; see /api/openapi.json";
            case 405 -> "method not allowed on this resource";
            case 415 -> "unsupported content type; send application/json (or application/merge-patch+json for PATCH)";
            default -> x.getMessage();
        };
    }
}
