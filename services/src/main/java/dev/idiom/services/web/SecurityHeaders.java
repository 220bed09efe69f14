package dev.idiom.services.web;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/**
 * Headers every answer of Idiom's carries, so that no page of it can be framed, sniffed into
 * another type or made to run what it did not ship: set before the servlet runs, so a page with a
 * policy of its own (the console's {@link ConsolePage#CSP}) replaces this one. Saturation report
 * files (JMeter's dashboard) run their own inline scripts, from Idiom's origin only.
 */
final class SecurityHeaders extends HttpFilter {
    /** The landing page, the report list, JSON and XML answers: nothing to run, inline styles only. */
    static final String CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; frame-ancestors 'none'; base-uri 'none'; "
            + "form-action 'self'";
    /** A report file: JMeter's dashboard, its scripts inline and beside it. */
    static final String REPORT_CSP = "default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; "
            + "img-src 'self' data:; frame-ancestors 'self'; base-uri 'none'; form-action 'none'";

    @Override
    protected void doFilter(HttpServletRequest req, HttpServletResponse res, FilterChain chain) throws IOException, ServletException {
        boolean report = Refusal.path(req).startsWith("/admin/reports/");
        res.setHeader("X-Content-Type-Options", "nosniff");
        res.setHeader("Referrer-Policy", "no-referrer");
        res.setHeader("X-Frame-Options", report ? "SAMEORIGIN" : "DENY");
        res.setHeader("Content-Security-Policy", report ? REPORT_CSP : CSP);
        chain.doFilter(req, res);
    }
}
