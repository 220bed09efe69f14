package dev.idiom.services;

import jakarta.servlet.ServletException;
import java.io.IOException;
import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.valves.ValveBase;
import org.apache.coyote.ActionCode;

/**
 * An answer that says {@code Connection: close} (a 408 to a slow sender) closes the connection at
 * once: without this Tomcat first swallows the rest of the unread body, and a slow sender kept its
 * connection long after its 408.
 */
final class RefusalCloses extends ValveBase {
    RefusalCloses() {
        super(true);
    }

    @Override
    public void invoke(Request request, Response response) throws IOException, ServletException {
        getNext().invoke(request, response);
        if ("close".equalsIgnoreCase(response.getHeader("Connection"))) {
            request.getCoyoteRequest().action(ActionCode.DISABLE_SWALLOW_INPUT, null);
        }
    }
}
