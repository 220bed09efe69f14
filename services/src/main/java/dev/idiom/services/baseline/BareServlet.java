package dev.idiom.services.baseline;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/** The container alone: GET answers 204 like {@code /api/ping}; POST reads the body and answers its length. */
public final class BareServlet extends HttpServlet {
    @Override
    protected void doGet(HttpServletRequest req, HttpServletResponse res) {
        res.setStatus(HttpServletResponse.SC_NO_CONTENT);
    }

    @Override
    protected void doPost(HttpServletRequest req, HttpServletResponse res) throws IOException {
        long read = req.getInputStream().transferTo(java.io.OutputStream.nullOutputStream());
        res.setContentType("text/plain;charset=UTF-8");
        res.getWriter().write(Long.toString(read));
    }
}
