package dev.idiom.services.rest;

import dev.idiom.services.http.Problem;
import dev.idiom.services.app.ErrorCode;
import dev.idiom.services.http.BodyLimitExceeded;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.Response;
import java.net.URI;
import jakarta.ws.rs.ext.ExceptionMapper;
import java.util.logging.Level;
import java.util.logging.Logger;

/** Every failure becomes a problem document; nothing reaches the client as a stack trace. */
final class ProblemMapper implements ExceptionMapper<Throwable> {
    private static final Logger LOG = Logger.getLogger(ProblemMapper.class.getName());

    @Override
    public Response toResponse(Throwable e) {
        for (Throwable c = e; c != null; c = c.getCause()) {
            if (c instanceof BodyLimitExceeded tooLarge) {
                return ProblemResponse.of(ErrorCode.TOO_LARGE, tooLarge.getMessage());
            }
        }
        return switch (e) {
            case PreconditionRequired x -> ProblemResponse.of(ErrorCode.PRECONDITION_REQUIRED, x.getMessage());
            case BodyTooLarge x -> ProblemResponse.of(ErrorCode.TOO_LARGE, x.getMessage());
            // JAX-RS answers 404 for a query or header parameter it cannot convert: it is the request that is wrong
            case org.glassfish.jersey.server.ParamException x when !(x instanceof org.glassfish.jersey.server.ParamException.PathParamException) ->
                    ProblemResponse.of(ErrorCode.INVALID, "parameter '" + x.getParameterName() + "' has the wrong form (see /api/openapi.json)");
            case WebApplicationException x -> {
                int status = x.getResponse().getStatus();
                Response r = ProblemResponse.of(status, codeFor(status), messageFor(status, x));
                // a 405 says which methods the resource has (RFC 9110 §15.5.6)
                String allow = x.getResponse().getHeaderString("Allow");
                yield allow == null ? r : Response.fromResponse(r).header("Allow", allow).build();
            }
            default -> {
                ErrorCode.Failure f = ErrorCode.of(e);
                if (f.code() == ErrorCode.UNAVAILABLE) {
                    LOG.log(Level.WARNING, "event store failure", e);
                } else if (f.code() == ErrorCode.INTERNAL) {
                    LOG.log(Level.SEVERE, "unexpected failure", e);
                }
                Response r = ProblemResponse.of(f.code(), f.message());
                yield switch (f.code()) {
                    // a merged DE's id answers with its winner (the method and body kept, as 308 says)
                    case MOVED -> Response.fromResponse(r).location(URI.create("/api/entities/" + ((dev.idiom.consistency.report.EntityMovedException) e).winner()))
                            .build();
                    case UNAUTHORIZED -> Response.fromResponse(r).header("WWW-Authenticate", "Bearer realm=\"idiom\"").build();
                    // the store already retried transient failures; a client may try again shortly
                    case UNAVAILABLE, THROTTLED, BUSY -> Response.fromResponse(r).header("Retry-After", "1").build();
                    default -> r;
                };
            }
        };
    }

    private static String codeFor(int status) {
        return switch (status) {
            case 404 -> ErrorCode.NOT_FOUND.code();
            case 405 -> ErrorCode.METHOD_NOT_ALLOWED.code();
            case 406 -> ErrorCode.NOT_ACCEPTABLE.code();
            case 415 -> ErrorCode.UNSUPPORTED_MEDIA_TYPE.code();
            default -> status < 500 ? ErrorCode.INVALID.code() : ErrorCode.INTERNAL.code();
        };
    }

    private static String messageFor(int status, WebApplicationException x) {
        return switch (status) {
            case 404 -> "no such resource; see /api/openapi.json";
            case 405 -> "method not allowed on this resource";
            case 406 -> "no format this resource answers is acceptable; DEs come as application/json, and as citations in "
                    + "application/vnd.citationstyles.csl+json, application/x-bibtex, application/x-research-info-systems or "
                    + "text/x-bibliography (with style= and locale=)";
            case 415 -> "unsupported content type; send application/json (or application/merge-patch+json for PATCH)";
            default -> x.getMessage();
        };
    }
}
