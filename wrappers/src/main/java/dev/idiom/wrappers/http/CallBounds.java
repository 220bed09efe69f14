package dev.idiom.wrappers.http;

import dev.idiom.db.TimeSource;
import dev.idiom.wrappers.ToolException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;

/**
 * How much of a tool's answer is read and how long a call may take, whole (a request timeout
 * covers only the wait for the headers; a tool that trickles its body would hold the call for
 * ever): the headers within the request's timeout, at most the total; the body checked against
 * the same deadline as each part of it arrives. Past either the call fails with a reason of ours
 * and is not retried inside the call.
 *
 * @param maxBytes the largest answer read (a Pinboard snapshot of 20,000 bookmarks is ~10 MB)
 * @param total the longest a call may take, from sending to the last byte of the answer
 */
public record CallBounds(long maxBytes, Duration total) {
    public static final CallBounds DEFAULTS = new CallBounds(64L << 20, Duration.ofMinutes(5));

    HttpResponse<String> send(HttpClient client, HttpRequest request, String tool) throws IOException, InterruptedException {
        long deadline = TimeSource.nanoTime() + total.toNanos();
        // the wait for the headers is bounded by the request's timeout (the rest of the total); the body's by the subscriber
        Duration headers = request.timeout().filter(t -> t.compareTo(total) < 0).orElse(total); // an adapter's shorter timeout stands
        HttpRequest timed = HttpRequest.newBuilder(request, (name, value) -> true).timeout(headers).build();
        try {
            return client.send(timed, info -> new Bounded(maxBytes, charset(info), deadline));
        } catch (java.net.http.HttpTimeoutException e) {
            throw new ToolException(tool + " did not answer " + request.method() + " " + request.uri().getPath() + " within " + total.toSeconds() + " s");
        } catch (IOException e) {
            for (Throwable t = e; t != null; t = t.getCause()) {
                if (t instanceof TooLarge) {
                    throw new ToolException(tool + " answered " + request.method() + " " + request.uri().getPath() + " with more than "
                            + maxBytes + " bytes; not read");
                }
                if (t instanceof TooSlow) {
                    throw new ToolException(tool + " did not finish answering " + request.method() + " " + request.uri().getPath() + " within "
                            + total.toSeconds() + " s");
                }
            }
            throw e;
        }
    }

    private static Charset charset(HttpResponse.ResponseInfo info) {
        String type = info.headers().firstValue("Content-Type").orElse("");
        int at = type.toLowerCase(java.util.Locale.ROOT).indexOf("charset=");
        if (at >= 0) {
            try {
                return Charset.forName(type.substring(at + 8).replace("\"", "").split(";")[0].strip());
            } catch (RuntimeException unknown) {
                return StandardCharsets.UTF_8;
            }
        }
        return StandardCharsets.UTF_8;
    }

    /** The answer was larger than {@link #maxBytes}. */
    private static final class TooLarge extends IOException {
        TooLarge() {
            super("answer too large");
        }
    }

    /** The answer's body was still arriving at the deadline. */
    private static final class TooSlow extends IOException {
        TooSlow() {
            super("answer too slow");
        }
    }

    /** Collects the body up to the limit; cancels the rest. */
    private static final class Bounded implements HttpResponse.BodySubscriber<String> {
        private final long max;
        private final Charset charset;
        private final long deadline;
        private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        private final CompletableFuture<String> body = new CompletableFuture<>();
        private Flow.Subscription subscription;

        Bounded(long max, Charset charset, long deadline) {
            this.max = max;
            this.charset = charset;
            this.deadline = deadline;
        }

        @Override
        public CompletionStage<String> getBody() {
            return body;
        }

        @Override
        public void onSubscribe(Flow.Subscription s) {
            subscription = s;
            s.request(Long.MAX_VALUE);
        }

        @Override
        public void onNext(List<ByteBuffer> buffers) {
            if (TimeSource.nanoTime() > deadline) {
                subscription.cancel();
                body.completeExceptionally(new TooSlow());
                return;
            }
            for (ByteBuffer b : buffers) {
                if (bytes.size() + (long) b.remaining() > max) {
                    subscription.cancel();
                    body.completeExceptionally(new TooLarge());
                    return;
                }
                byte[] chunk = new byte[b.remaining()];
                b.get(chunk);
                bytes.writeBytes(chunk);
            }
        }

        @Override
        public void onError(Throwable t) {
            body.completeExceptionally(t);
        }

        @Override
        public void onComplete() {
            body.complete(bytes.toString(charset));
        }
    }
}
