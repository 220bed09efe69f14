package dev.idiom.services.app;

import dev.idiom.consistency.OptimisticRetry;
import dev.idiom.consistency.report.SyncRefusedException;
import dev.idiom.consistency.report.UnknownRemoteRecordException;
import dev.idiom.events.EventStoreException;
import dev.idiom.events.InvalidValueException;
import dev.idiom.events.StaleVersionException;
import dev.idiom.events.UnknownEntityException;
import dev.idiom.wrappers.RemoteChangedException;
import dev.idiom.wrappers.ToolAuthException;
import dev.idiom.wrappers.ToolException;

/**
 * The one table of Idiom's error codes, used by both protocols: the code (a SOAP fault code's
 * local name and REST's problem {@code code}), the HTTP status, and whether a client may simply
 * retry. {@link #of} classifies a failure of the application layer.
 */
public enum ErrorCode {
    INVALID("Invalid", 400, false),
    UNAUTHORIZED("Unauthorized", 401, false),
    FORBIDDEN("Forbidden", 403, false),
    NOT_FOUND("NotFound", 404, false),
    /** the DE was merged into another: REST redirects to it (308), SOAP names it */
    MOVED("Moved", 308, false),
    /** the DE is in Idiom's trash or was purged from it */
    GONE("Gone", 410, false),
    CONFLICT("Conflict", 409, false),
    REMOTE_CHANGED("RemoteChanged", 409, true),
    STALE_VERSION("StaleVersion", 412, false),
    TOO_LARGE("TooLarge", 413, false),
    PRECONDITION_REQUIRED("PreconditionRequired", 428, false),
    /** HTTP's own refusals, answered before an operation runs: no method, format or media type the resource has, a body too slow */
    METHOD_NOT_ALLOWED("MethodNotAllowed", 405, false),
    NOT_ACCEPTABLE("NotAcceptable", 406, false),
    REQUEST_TIMEOUT("RequestTimeout", 408, true),
    UNSUPPORTED_MEDIA_TYPE("UnsupportedMediaType", 415, false),
    INTERNAL("Internal", 500, false),
    TOOL_FAILED("ToolFailed", 502, true),
    TOOL_AUTH("ToolAuth", 502, false),
    UNAVAILABLE("Unavailable", 503, true),
    /** too many wrong keys from this client address in the last minute, or a key's share of costly work taken */
    THROTTLED("Throttled", 429, true),
    /** admission refused: the service is at its limit of requests in flight (load shedding) */
    BUSY("Busy", 503, true);

    private final String code;
    private final int status;
    private final boolean retryable;

    ErrorCode(String code, int status, boolean retryable) {
        this.code = code;
        this.status = status;
        this.retryable = retryable;
    }

    public String code() {
        return code;
    }

    public int status() {
        return status;
    }

    public boolean retryable() {
        return retryable;
    }

    /** A failure as both protocols report it: its code and the message a person can act on. */
    public record Failure(ErrorCode code, String message) {}

    /**
     * The code of a failure raised by the application layer, and what to tell the caller: the
     * failure's own message, except for database and unexpected failures, whose details stay in
     * the log.
     */
    public static Failure of(Throwable e) {
        return switch (e) {
            case InvalidValueException x -> new Failure(INVALID, x.getMessage());
            case dev.idiom.consistency.report.EntityMovedException x -> new Failure(MOVED, x.getMessage());
            case dev.idiom.consistency.report.EntityGoneException x -> new Failure(GONE, x.getMessage());
            case UnknownEntityException x -> new Failure(NOT_FOUND, x.getMessage());
            case StaleVersionException x -> new Failure(STALE_VERSION, x.getMessage() + "; read it again and retry");
            case NotAuthorizedException x -> new Failure(UNAUTHORIZED, x.getMessage());
            case ForbiddenException x -> new Failure(FORBIDDEN, x.getMessage());
            case ShareExceededException x -> new Failure(x.busy() ? BUSY : THROTTLED, x.getMessage());
            case UnknownKeyException x -> new Failure(NOT_FOUND, x.getMessage());
            case UnknownRemoteRecordException x -> new Failure(NOT_FOUND, x.getMessage());
            case dev.idiom.consistency.report.UnknownToolAccountException x -> new Failure(NOT_FOUND, x.getMessage());
            case ConflictException x -> new Failure(CONFLICT, x.getMessage());
            case SyncRefusedException x -> new Failure(CONFLICT, x.getMessage());
            case OptimisticRetry.GaveUpException x -> new Failure(CONFLICT, x.getMessage());
            case RemoteChangedException x -> new Failure(REMOTE_CHANGED, x.getMessage());
            case ToolAuthException x -> new Failure(TOOL_AUTH, x.getMessage());
            case ToolException x -> new Failure(TOOL_FAILED, x.getMessage());
            case EventStoreException x -> new Failure(UNAVAILABLE, "the database did not answer; nothing was written, retry later");
            default -> new Failure(INTERNAL, "unexpected server error; it has been logged");
        };
    }
}
