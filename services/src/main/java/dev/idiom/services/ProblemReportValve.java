package dev.idiom.services;

import dev.idiom.services.http.Problem;
import java.io.IOException;
import java.io.Writer;
import java.util.Map;
import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.valves.ErrorReportValve;

/**
 * Tomcat's own error answers — a request line or header too large, a malformed URI, a request no
 * servlet was reached for — as the same problem document every other error is, not an HTML page
 * (and never a stack trace or the server's version).
 */
public final class ProblemReportValve extends ErrorReportValve {
    private static final Map<Integer, String> CODES = Map.of(400, "Invalid", 404, "NotFound", 413, "TooLarge", 414, "TooLarge",
            431, "TooLarge", 500, "Internal", 503, "Unavailable");

    public ProblemReportValve() {
        setShowReport(false);
        setShowServerInfo(false);
    }

    @Override
    protected void report(Request request, Response response, Throwable failure) {
        int status = response.getStatus();
        if (status < 400 || response.getContentWritten() > 0 || !response.setErrorReported()) {
            return;
        }
        String detail = switch (status) {
            case 400 -> "the request is malformed (request line, URI or headers); nothing was done";
            case 413, 414, 431 -> "the request line or headers are too large; nothing was done";
            case 404 -> "no such resource";
            default -> "the request could not be handled; nothing was done";
        };
        try {
            response.setContentType(Problem.MEDIA_TYPE);
            response.setCharacterEncoding("UTF-8");
            Writer w = response.getReporter();
            if (w != null) {
                w.write(Problem.json(status, CODES.getOrDefault(status, "HttpError"), detail));
                response.finishResponse();
            }
        } catch (IOException | IllegalStateException e) {
            // the connection is gone; there is no one to tell
        }
    }
}
