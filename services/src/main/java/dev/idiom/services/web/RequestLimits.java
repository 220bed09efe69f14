package dev.idiom.services.web;

import dev.idiom.services.http.BodyLimitExceeded;
import dev.idiom.services.app.ErrorCode;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/**
 * Refuses request bodies over the limit before any endpoint parses them: 413 when the declared
 * length is too large; a chunked body is cut off at the limit (the endpoint then fails to parse
 * it and writes nothing).
 */
final class RequestLimits extends HttpFilter {
    private final long maxBodyBytes;
    private final String setting;

    RequestLimits(long maxBodyBytes) {
        this(maxBodyBytes, "max-body");
    }

    /** @param setting the configuration key that sets the limit, named in a refusal */
    RequestLimits(long maxBodyBytes, String setting) {
        this.maxBodyBytes = maxBodyBytes;
        this.setting = setting;
    }

    @Override
    protected void doFilter(HttpServletRequest req, HttpServletResponse res, FilterChain chain) throws IOException, ServletException {
        long declared = req.getContentLengthLong();
        if (declared > maxBodyBytes) {
            Refusal.send(req, res, ErrorCode.TOO_LARGE, "request body of " + declared + " bytes is larger than the limit of " + maxBodyBytes
                    + " bytes (" + setting + ")");
            return;
        }
        chain.doFilter(declared >= 0 ? req : new Bounded(req, maxBodyBytes), res);
    }

    /** A request whose body stream ends in an error past the limit. */
    private static final class Bounded extends HttpServletRequestWrapper {
        private final long limit;

        Bounded(HttpServletRequest req, long limit) {
            super(req);
            this.limit = limit;
        }

        @Override
        public ServletInputStream getInputStream() throws IOException {
            return new WrappedInput(super.getInputStream()) {
                private long read;

                @Override
                void check(int n) throws IOException {
                    if (n > 0 && (read += n) > limit) {
                        throw new BodyLimitExceeded(limit);
                    }
                }
            };
        }
    }
}
