package dev.idiom.wrappers.http;

import dev.idiom.db.TimeSource;
import dev.idiom.wrappers.ToolAuthException;
import dev.idiom.wrappers.ToolException;
import dev.idiom.wrappers.ToolLimits;
import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadLocalRandom;
import java.util.logging.Logger;

/**
 * Calls a tool's HTTP API politely: no faster than its interval, no more in flight than it
 * allows, waiting out {@code Retry-After} and {@code Backoff}, retrying 429, 5xx and network
 * failures with exponential backoff and jitter, and turning 401/403 into {@link ToolAuthException}.
 */
public final class ToolHttp {
    private static final Logger LOG = Logger.getLogger(ToolHttp.class.getName());
    private static final Duration FIRST_BACKOFF = Duration.ofSeconds(1);
    private static final Duration MAX_BACKOFF = Duration.ofMinutes(2);

    private final String tool;
    private final ToolLimits limits;
    private final Clock clock;
    private final Pacing pacing;
    private final int maxAttempts;
    /** One client for every tool: it pools connections, and building one costs ~10 ms. */
    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10)).build();
    private final HttpClient client = CLIENT;
    private final Semaphore inFlight;
    private Instant nextAllowed = Instant.EPOCH;
    private final KeyBackoff keyBackoff;
    private final ToolHosts hosts;
    private final CallBounds bounds;
    /** Turns at the calls the tool limits apart from the rest (Pinboard's posts/all), for every adapter opened on the account. */
    private final CallGate gate;

    public ToolHttp(String tool, ToolLimits limits, Clock clock, Pacing pacing, int maxAttempts) {
        this(tool, limits, clock, pacing, maxAttempts, ToolHosts.ANY, CallBounds.DEFAULTS);
    }

    /**
     * @param hosts which hosts may be called (checked before every call)
     * @param bounds the largest answer read and the longest a call may take, whole
     */
    public ToolHttp(String tool, ToolLimits limits, Clock clock, Pacing pacing, int maxAttempts, ToolHosts hosts, CallBounds bounds) {
        this(tool, limits, clock, pacing, maxAttempts, hosts, bounds, CallGate.inMemory());
    }

    /** @param gate turns at the calls the tool limits on their own, shared with other nodes when it is the database's */
    public ToolHttp(String tool, ToolLimits limits, Clock clock, Pacing pacing, int maxAttempts, ToolHosts hosts, CallBounds bounds, CallGate gate) {
        this(tool, limits, clock, pacing, maxAttempts, hosts, bounds, gate, new KeyBackoff());
    }

    /** @param backoff the {@code Backoff} of the API key this account is called with, shared by every account on that key */
    public ToolHttp(String tool, ToolLimits limits, Clock clock, Pacing pacing, int maxAttempts, ToolHosts hosts, CallBounds bounds, CallGate gate,
            KeyBackoff backoff) {
        this.keyBackoff = backoff;
        this.gate = gate;
        this.tool = tool;
        this.limits = limits;
        this.clock = clock;
        this.pacing = pacing;
        this.maxAttempts = maxAttempts;
        this.inFlight = new Semaphore(Math.max(1, limits.maxConcurrent()));
        this.hosts = hosts;
        this.bounds = bounds;
    }

    /** The clock calls are timed by (a fake one in tests). */
    public Clock clock() {
        return clock;
    }

    public ToolHttp(String tool, ToolLimits limits) {
        this(tool, limits, TimeSource.SYSTEM, Pacing.SLEEP, 6);
    }

    /** Sends, retrying what is worth retrying; any other status is returned for the adapter to read. */
    public HttpResponse<String> send(HttpRequest request) {
        return send(request, true);
    }

    /**
     * Sends once, whatever the answer (a 429 or 5xx is returned, not retried): for a call the tool
     * limits on its own, whose retry is the gate's next turn, not seconds later.
     */
    public HttpResponse<String> sendOnce(HttpRequest request) {
        return send(request, false);
    }

    public CallGate gate() {
        return gate;
    }

    /** @param retry whether a failure is tried again (else one attempt, and a 429 or 5xx is the caller's to read) */
    private HttpResponse<String> send(HttpRequest request, boolean retry) {
        int maxAttempts = retry ? this.maxAttempts : 1;
        Duration backoff = FIRST_BACKOFF;
        for (int attempt = 1; ; attempt++) {
            HttpResponse<String> response;
            try {
                inFlight.acquire();
                try {
                    waitTurn();
                    hosts.check(request.uri()); // again at every call: the name may resolve elsewhere now
                    response = bounds.send(client, request, tool);
                } finally {
                    inFlight.release();
                }
            } catch (IOException e) {
                if (attempt >= maxAttempts || unresolved(e)) { // a name that does not resolve will not within this call's retries
                    if (attempt < maxAttempts) {
                        throw new ToolException(tool + " did not answer " + request.method() + " " + request.uri().getPath() + ": the host name does not resolve", e);
                    }
                    throw new ToolException(tool + " did not answer " + request.method() + " " + request.uri().getPath() + " after "
                            + attempt + " attempts: " + why(e), e);
                }
                pause(jittered(backoff));
                backoff = doubled(backoff);
                continue;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new ToolException("interrupted while calling " + tool, e);
            } catch (IllegalArgumentException unusable) {
                // an address HTTP cannot use (a port out of range in an account stored before it was checked): the tool's failure, not ours
                throw new ToolException(tool + " cannot be called at that address: " + unusable.getMessage());
            }
            honourBackoffHeader(response);
            int status = response.statusCode();
            if (status == 401 || status == 403) {
                throw new ToolAuthException(tool + " refused " + (status == 401 ? "the credentials (401)" : "access (403)") + " for "
                        + request.method() + " " + request.uri().getPath() + "; check the account's key and its permissions");
            }
            if (status != 429 && status < 500 || !retry) {
                return response;
            }
            if (attempt >= maxAttempts) {
                throw new ToolException(tool + " answered " + status + " to " + request.method() + " " + request.uri().getPath() + " "
                        + attempt + " times; giving up for now", null, retryAfter(response).orElse(null));
            }
            Duration wait = retryAfter(response).orElse(jittered(backoff));
            LOG.info(tool + " answered " + status + "; retrying in " + wait.toMillis() + " ms");
            pause(wait);
            backoff = doubled(backoff);
        }
    }

    private synchronized void waitTurn() throws InterruptedException {
        Instant now = clock.instant();
        Instant keyFree = keyBackoff.until();
        Instant allowed = keyFree.isAfter(nextAllowed) ? keyFree : nextAllowed;
        if (now.isBefore(allowed)) {
            pacing.pause(Duration.between(now, allowed));
        }
        Instant after = clock.instant();
        nextAllowed = (after.isAfter(nextAllowed) ? after : nextAllowed).plus(limits.minInterval());
    }

    /** Zotero's {@code Backoff: N}: wait N seconds before the next request with this key, whatever it is and whichever library it is for. */
    private void honourBackoffHeader(HttpResponse<String> response) {
        response.headers().firstValue("Backoff").ifPresent(v -> {
            try {
                keyBackoff.until(clock.instant().plusSeconds(Long.parseLong(v.strip())));
            } catch (NumberFormatException ignored) {
                // a malformed hint is no reason to fail the call
            }
        });
    }

    private static Optional<Duration> retryAfter(HttpResponse<String> response) {
        return response.headers().firstValue("Retry-After").flatMap(v -> {
            try {
                return Optional.of(Duration.ofSeconds(Long.parseLong(v.strip())));
            } catch (NumberFormatException e) {
                return Optional.empty();
            }
        });
    }

    private void pause(Duration d) {
        try {
            pacing.pause(d);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ToolException("interrupted while waiting for " + tool, e);
        }
    }

    private static Duration doubled(Duration d) {
        Duration twice = d.multipliedBy(2);
        return twice.compareTo(MAX_BACKOFF) > 0 ? MAX_BACKOFF : twice;
    }

    private static Duration jittered(Duration d) {
        return d.plusMillis(ThreadLocalRandom.current().nextLong(Math.max(1, d.toMillis() / 2)));
    }

    private static boolean unresolved(IOException e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof java.nio.channels.UnresolvedAddressException || t instanceof java.net.UnknownHostException) {
                return true;
            }
        }
        return false;
    }

    /** What a failed connection says: ConnectException and friends often carry no message of their own. */
    private static String why(IOException e) {
        Throwable t = e;
        while (t.getMessage() == null && t.getCause() != null) {
            t = t.getCause();
        }
        Throwable cause = t;
        // a short reason of ours: the underlying message names addresses and ports, which an API caller must not learn (a port scanner)
        LOG.fine(() -> "tool call failed: " + cause);
        return cause instanceof java.net.http.HttpTimeoutException ? "timed out" : "could not connect";
    }

    /**
     * What a tool said when it refused a call, for the server's log only: an answer never carries a
     * remote's words (a status and a reason of ours do), since the remote may be anyone's.
     */
    public static void logRefusal(String tool, String what, HttpResponse<String> r) {
        String body = r.body() == null ? "" : r.body().strip();
        LOG.info(tool + " could not " + what + ": HTTP " + r.statusCode() + (body.isEmpty() ? "" : ", said: "
                + (body.length() > 300 ? body.substring(0, 300) + "…" : body)));
    }

    /** Our words for a status a tool answered. */
    public static String reason(int status) {
        return switch (status) {
            case 400 -> "the tool refused the record as invalid";
            case 404 -> "not found there";
            case 409 -> "the library is locked; try again later";
            case 412 -> "it changed there meanwhile";
            case 413 -> "too large for the tool";
            case 422 -> "the tool could not process the record";
            default -> status >= 500 ? "the tool failed" : "refused";
        };
    }

    /**
     * One path segment (a record's id, a user name) as a URI carries it: whatever the id holds — a
     * '?', a '/', non-ASCII — it stays one segment of the path and cannot become a query or a new path.
     */
    public static String segment(String s) {
        return java.net.URLEncoder.encode(s, java.nio.charset.StandardCharsets.UTF_8).replace("+", "%20");
    }
}
