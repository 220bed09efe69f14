package dev.idiom.services.web;

import dev.idiom.services.app.ErrorCode;
import dev.idiom.services.app.ServiceTime;
import dev.idiom.services.http.Problem;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Refuses a path that could mean one thing to a check and another to the container: path
 * parameters ({@code ;}, which Tomcat strips before routing, so {@code /admin/..;/services/…} is
 * routed to SOAP), encoded dots, slashes, backslashes, NUL or percent signs, and dot segments. Idiom's
 * paths have none of them, so nothing is lost. Runs before every other check; every later check
 * reads the path Tomcat routes ({@link Refusal#path}).
 */
final class PathCheck extends HttpFilter {
    private static final Pattern SUSPICIOUS = Pattern.compile(";|%(2e|2f|5c|00|25)|\\\\|(^|/)\\.\\.?(/|$)");

    @Override
    protected void doFilter(HttpServletRequest req, HttpServletResponse res, FilterChain chain) throws IOException, ServletException {
        String raw = req.getRequestURI();
        if (SUSPICIOUS.matcher(raw.toLowerCase(Locale.ROOT)).find()) {
            // a problem document whatever the path: which protocol it is for is exactly what is in doubt
            req.setAttribute(ServiceTime.FAULT_STATUS, 400);
            res.setStatus(400);
            res.setContentType(Problem.MEDIA_TYPE);
            res.getWriter().write(Problem.json(400, ErrorCode.INVALID.code(), "the path holds a path parameter (;), a dot segment or an "
                    + "encoded '.', '/', '\\\\', '%' or NUL; Idiom's paths have none"));
            return;
        }
        chain.doFilter(req, res);
    }
}
