package dev.idiom.services.web;

import dev.idiom.services.http.AuthFailures;
import dev.idiom.services.http.PublicUrl;
import dev.idiom.services.app.ForbiddenException;
import dev.idiom.services.app.NotAuthorizedException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.function.Function;

/**
 * A console's login form posted (the admin console's, the curator's workspace's): the key from the
 * form's body only, never the address; wrong keys counted with the API's; a session cookie on success.
 */
final class ConsoleLogin {
    private final AdminSessions sessions;
    private final AuthFailures failures;
    private final PublicUrl publicUrl;
    private final Function<String, String> form;

    /** @param form the login page with an error message (base URL as the page knows it) */
    ConsoleLogin(AdminSessions sessions, AuthFailures failures, PublicUrl publicUrl, Function<String, String> form) {
        this.sessions = sessions;
        this.failures = failures;
        this.publicUrl = publicUrl;
        this.form = form;
    }

    void post(HttpServletRequest req, HttpServletResponse res, String base) throws IOException {
        if (AdminConsole.keyInAddress(req.getQueryString())) {
            // a key in the address ends up in access logs, proxies and the browser's history: the form's body only
            AdminConsole.page(res, 400, form.apply("Send the key in the form's body, never in the address."));
            return;
        }
        String address = publicUrl.clientAddress(req);
        var wait = failures.wait(address, req.getParameter("key")); // logins count with wrong API keys: one guesser, one budget
        if (wait.isPresent()) {
            res.setHeader("Retry-After", Long.toString(Math.max(1, wait.get().toSeconds() + 1)));
            AdminConsole.page(res, 429, form.apply("Too many wrong keys from this address in the last minute; try again in "
                    + Math.max(1, wait.get().toSeconds() + 1) + " s."));
            return;
        }
        try {
            AdminSessions.Session s = sessions.login(req.getParameter("key"));
            res.setHeader("Set-Cookie", sessions.cookie(s, req.isSecure() || base.startsWith("https:")));
            res.setStatus(303);
            res.setHeader("Location", req.getContextPath() + sessions.path());
        } catch (NotAuthorizedException e) {
            failures.failed(address, req.getParameter("key"));
            AdminConsole.page(res, 401, form.apply("That key is not known, or was revoked."));
        } catch (ForbiddenException e) {
            AdminConsole.page(res, 403, form.apply(e.getMessage()));
        }
    }
}
