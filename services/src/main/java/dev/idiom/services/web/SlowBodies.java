package dev.idiom.services.web;

import dev.idiom.db.TimeSource;
import dev.idiom.services.app.ErrorCode;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URLDecoder;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Enumeration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Slow senders must not hold the places requests are served in. A body of up to {@link #PREREAD}
 * bytes is read here, before admission, so a client trickling it in waits on its own (virtual)
 * thread, not in one of {@code max-in-flight}'s places; every body must arrive at
 * {@code min-body-rate} bytes a second after a grace of {@link #GRACE_NANOS} (else 408 and the
 * connection closed); an anonymous request (the console's login) may send at most
 * {@link #ANONYMOUS_MAX} bytes with a declared length. The connector's own read timeout ends a
 * client that sends nothing at all.
 */
final class SlowBodies extends HttpFilter {
    /** Bodies up to this size are read before admission: every SOAP call and REST write of Idiom's is smaller. */
    static final int PREREAD = 64 * 1024;
    /** The largest body of a request without a key (a login form). */
    static final int ANONYMOUS_MAX = 8 * 1024;
    static final long GRACE_NANOS = 5_000_000_000L;

    private final long minRate;

    /** @param minRate bytes a second a body must arrive at, after the grace (0: no minimum) */
    SlowBodies(long minRate) {
        this.minRate = minRate;
    }

    @Override
    protected void doFilter(HttpServletRequest req, HttpServletResponse res, FilterChain chain) throws IOException, ServletException {
        long declared = req.getContentLengthLong();
        boolean chunked = declared < 0 && req.getHeader("Transfer-Encoding") != null;
        if (KeyCheck.anonymous(req) && (declared > ANONYMOUS_MAX || chunked)) {
            Refusal.send(req, res, ErrorCode.TOO_LARGE, "a request without a key may send at most " + ANONYMOUS_MAX + " bytes, with its length declared");
            return;
        }
        if (declared <= 0 && !chunked) {
            chain.doFilter(req, res);
            return;
        }
        if (declared > 0 && declared <= PREREAD) {
            byte[] body;
            try {
                body = new MinRate(req.getInputStream(), minRate).readUpTo((int) declared);
            } catch (IOException slow) {
                res.setHeader("Connection", "close");
                res.setStatus(408);
                res.setContentType(dev.idiom.services.http.Problem.MEDIA_TYPE);
                res.getWriter().write(dev.idiom.services.http.Problem.json(ErrorCode.REQUEST_TIMEOUT.status(), ErrorCode.REQUEST_TIMEOUT.code(), "the request body did not arrive in time: "
                        + slow.getMessage()));
                return;
            }
            chain.doFilter(new Buffered(req, body), res);
            return;
        }
        chain.doFilter(new RateChecked(req, minRate), res); // larger or chunked: read in service, at the minimum rate still
    }

    /** A body's progress against the minimum rate: fails once it falls behind (after the grace). */
    static final class Pace {
        private final long minRate;
        private long start;
        private long read;

        Pace(long minRate) {
            this.minRate = minRate;
        }

        /** Before the first read: the clock starts when the body is first asked for. */
        void start() {
            if (start == 0) {
                start = TimeSource.nanoTime();
            }
        }

        /** After a read that gave {@code n} bytes (-1 at the end). */
        void after(int n) throws IOException {
            start();
            if (n > 0) {
                read += n;
            }
            long elapsed = TimeSource.nanoTime() - start;
            if (minRate > 0 && elapsed > GRACE_NANOS && read < minRate * ((elapsed - GRACE_NANOS) / 1_000_000_000L)) {
                throw new IOException(read + " bytes in " + elapsed / 1_000_000 + " ms, below " + minRate + " bytes a second (min-body-rate)");
            }
        }
    }

    /** A body stream that fails once the body falls behind the minimum rate. */
    static final class MinRate extends InputStream {
        private final InputStream in;
        private final Pace pace;

        MinRate(InputStream in, long minRate) {
            this.in = in;
            this.pace = new Pace(minRate);
        }

        byte[] readUpTo(int length) throws IOException {
            byte[] out = new byte[length];
            int at = 0;
            while (at < length) {
                int n = read(out, at, length - at);
                if (n < 0) {
                    break;
                }
                at += n;
            }
            return at == length ? out : java.util.Arrays.copyOf(out, at);
        }

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            pace.start();
            int n = in.read(b, off, len);
            pace.after(n);
            return n;
        }
    }

    /** A request whose body was read already: served from memory, its form parameters too. */
    private static final class Buffered extends HttpServletRequestWrapper {
        private final byte[] body;
        private Map<String, String[]> parameters;

        Buffered(HttpServletRequest req, byte[] body) {
            super(req);
            this.body = body;
        }

        @Override
        public ServletInputStream getInputStream() {
            ByteArrayInputStream in = new ByteArrayInputStream(body);
            return new ServletInputStream() {
                @Override
                public int read() {
                    return in.read();
                }

                @Override
                public int read(byte[] b, int off, int len) {
                    return in.read(b, off, len);
                }

                @Override
                public boolean isFinished() {
                    return in.available() == 0;
                }

                @Override
                public boolean isReady() {
                    return true;
                }

                @Override
                public void setReadListener(ReadListener listener) {
                    throw new IllegalStateException("the body was read already");
                }
            };
        }

        @Override
        public BufferedReader getReader() {
            return new BufferedReader(new InputStreamReader(new ByteArrayInputStream(body), charset()));
        }

        private Charset charset() {
            try {
                return getCharacterEncoding() == null ? StandardCharsets.UTF_8 : Charset.forName(getCharacterEncoding());
            } catch (RuntimeException unknown) {
                return StandardCharsets.UTF_8;
            }
        }

        /** The query's parameters and, for a form, the body's: the container cannot parse a body it no longer has. */
        private synchronized Map<String, String[]> parameters() {
            if (parameters == null) {
                Map<String, List<String>> all = new LinkedHashMap<>();
                parse(getQueryString(), all);
                String type = getContentType();
                if (type != null && type.toLowerCase(java.util.Locale.ROOT).startsWith("application/x-www-form-urlencoded")) {
                    parse(new String(body, charset()), all);
                }
                Map<String, String[]> done = new LinkedHashMap<>();
                all.forEach((k, v) -> done.put(k, v.toArray(String[]::new)));
                parameters = Collections.unmodifiableMap(done);
            }
            return parameters;
        }

        private static void parse(String encoded, Map<String, List<String>> into) {
            if (encoded == null || encoded.isEmpty()) {
                return;
            }
            for (String pair : encoded.split("&")) {
                if (pair.isEmpty()) {
                    continue;
                }
                int eq = pair.indexOf('=');
                try {
                    String k = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
                    String v = eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
                    into.computeIfAbsent(k, x -> new ArrayList<>()).add(v);
                } catch (IllegalArgumentException malformed) {
                    // a malformed pair is skipped, as the container does
                }
            }
        }

        @Override
        public String getParameter(String name) {
            String[] v = parameters().get(name);
            return v == null || v.length == 0 ? null : v[0];
        }

        @Override
        public Map<String, String[]> getParameterMap() {
            return parameters();
        }

        @Override
        public Enumeration<String> getParameterNames() {
            return Collections.enumeration(parameters().keySet());
        }

        @Override
        public String[] getParameterValues(String name) {
            return parameters().get(name);
        }
    }

    /** A request whose body is read in service, at the minimum rate. */
    private static final class RateChecked extends HttpServletRequestWrapper {
        private final long minRate;

        RateChecked(HttpServletRequest req, long minRate) {
            super(req);
            this.minRate = minRate;
        }

        @Override
        public ServletInputStream getInputStream() throws IOException {
            Pace pace = new Pace(minRate);
            return new WrappedInput(super.getInputStream()) {
                @Override
                void check(int n) throws IOException {
                    pace.after(n);
                }
            };
        }
    }
}
