package dev.idiom.services.web;

import dev.idiom.services.app.ApiKeys;
import dev.idiom.services.app.Caller;
import dev.idiom.services.app.ErrorCode;
import dev.idiom.services.app.NotAuthorizedException;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/**
 * Every request presents an API key, except the few anonymous ones (the empty operation, the
 * WSDL, the OpenAPI document, the landing page). A missing or wrong key is refused here, before
 * any body is parsed; the endpoint then checks the caller's role for its operation.
 */
final class KeyCheck extends HttpFilter {
    private final ApiKeys keys;

    KeyCheck(ApiKeys keys) {
        this.keys = keys;
    }

    @Override
    protected void doFilter(HttpServletRequest req, HttpServletResponse res, FilterChain chain) throws IOException, ServletException {
        if (anonymous(req)) {
            chain.doFilter(req, res);
            return;
        }
        Caller caller;
        try {
            caller = keys.authenticate(req.getHeader("Authorization"));
        } catch (NotAuthorizedException e) {
            Refusal.send(req, res, ErrorCode.UNAUTHORIZED, e.getMessage());
            return;
        }
        req.setAttribute(Caller.ATTRIBUTE, caller);
        chain.doFilter(req, res);
    }

    static boolean anonymous(HttpServletRequest req) {
        String path = Refusal.path(req);
        return switch (path) {
            case "/api/ping", "/api/openapi.json", "", "/" -> true;
            case "/services/DigitalEntityService" -> "GET".equals(req.getMethod()) && "wsdl".equalsIgnoreCase(req.getQueryString());
            default -> false;
        };
    }
}
