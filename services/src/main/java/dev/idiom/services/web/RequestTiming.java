package dev.idiom.services.web;

import dev.idiom.db.TimeSource;
import dev.idiom.services.app.ServiceTime;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/**
 * Times every request to Idiom's paths, refusals included (it runs before admission), and counts
 * it under its protocol and the operation the adapter named; a request no adapter named (an
 * unknown path, a refusal before dispatch) counts under a fixed name, so the set of series stays bounded.
 */
final class RequestTiming extends HttpFilter {
    private final transient Meters meters;

    RequestTiming(Meters meters) {
        this.meters = meters;
    }

    @Override
    protected void doFilter(HttpServletRequest req, HttpServletResponse res, FilterChain chain) throws IOException, ServletException {
        long start = TimeSource.nanoTime();
        try {
            chain.doFilter(req, res);
        } finally {
            String path = Refusal.path(req);
            String protocol = path.startsWith("/services/") ? "soap" : path.startsWith("/api/") ? "rest" : path.startsWith("/dav/") ? "dav" : "admin";
            Object named = req.getAttribute(ServiceTime.OPERATION);
            String operation = named instanceof String s ? s : protocol.equals("admin") ? adminPage(path) : "unmatched";
            int status = req.getAttribute(ServiceTime.FAULT_STATUS) instanceof Integer fault ? fault : res.getStatus();
            meters.served(protocol, operation, status, TimeSource.nanoTime() - start);
        }
    }

    private static String adminPage(String path) {
        for (String page : new String[] {"/admin/metrics", "/admin/health", "/admin/reports", "/admin/live", "/admin/login", "/admin/logout",
                "/admin/assets", "/admin/actions", "/admin/log", "/admin/conflicts",
                // the curator's workspace, page by page (a record's id or an account's name is not part of the name)
                "/curator/login", "/curator/logout", "/curator/live", "/curator/actions", "/curator/library", "/curator/records", "/curator/trash",
                "/curator/merge", "/curator/accounts"}) {
            if (path.startsWith(page)) {
                return page;
            }
        }
        if (path.equals("/curator") || path.equals("/curator/")) {
            return "/curator";
        }
        return path.equals("/admin") || path.equals("/admin/") ? "/admin" : path.isEmpty() || path.equals("/") ? "/" : "other";
    }

    @Override
    public void destroy() {
        meters.close();
    }
}
