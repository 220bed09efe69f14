package dev.idiom.services.web;

import dev.idiom.services.app.ErrorCode;
import dev.idiom.services.app.ServiceTime;
import dev.idiom.services.http.Problem;
import dev.idiom.services.soap.SoapEndpoint;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/**
 * An answer given by a filter before any endpoint runs, in the caller's protocol: a SOAP fault
 * envelope on {@code /services/}, a problem document elsewhere. The body is never read.
 */
final class Refusal {
    private Refusal() {}

    static void send(HttpServletRequest req, HttpServletResponse res, ErrorCode code, String message) throws IOException {
        req.setAttribute(ServiceTime.FAULT_STATUS, code.status()); // metrics count what it stands for, not SOAP's 500
        if (isZotero(req)) {
            // the Zotero API answers in plain text; a Retry-After the caller set stays (desktop and pyzotero wait it out)
            res.setStatus(code.status());
            res.setContentType("text/plain;charset=UTF-8");
            res.getWriter().write(message);
        } else if (isSoap(req)) {
            // SOAP 1.1 over HTTP: a fault travels with 500, so toolkits read its code; the statuses
            // that say "not now" or "not this size" (503, 429, 413) keep their meaning for the transport
            res.setStatus(code.status() == 503 || code.status() == 413 || code.status() == 429 ? code.status() : 500);
            res.setContentType("text/xml;charset=UTF-8");
            res.getWriter().write(SoapEndpoint.faultEnvelope(code.code(), message));
        } else {
            res.setStatus(code.status());
            if (code == ErrorCode.UNAUTHORIZED) {
                res.setHeader("WWW-Authenticate", "Bearer realm=\"idiom\"");
            }
            res.setContentType(Problem.MEDIA_TYPE);
            res.getWriter().write(Problem.json(code.status(), code.code(), message));
        }
    }

    /** Whether the request is for the Zotero API's paths ({@link WebApp#ZOTERO}). */
    static boolean isZotero(HttpServletRequest req) {
        String path = path(req);
        for (String pattern : WebApp.ZOTERO) {
            String exact = pattern.endsWith("/*") ? pattern.substring(0, pattern.length() - 2) : pattern;
            if (path.equals(exact) || pattern.endsWith("/*") && path.startsWith(exact + "/")) {
                return true;
            }
        }
        return false;
    }

    static boolean isSoap(HttpServletRequest req) {
        return path(req).startsWith("/services/");
    }

    /**
     * The path inside the context as the container routes it (decoded, normalised), whatever servlet it
     * maps to: every check decides on what will be served, never on the raw URI ({@link PathCheck}).
     */
    static String path(HttpServletRequest req) {
        String info = req.getPathInfo();
        return req.getServletPath() + (info == null ? "" : info);
    }
}
