package dev.idiom.services.http;

import java.io.IOException;

/** A streamed (chunked) request body ran past the size limit; endpoints answer 413. */
public final class BodyLimitExceeded extends IOException {
    public BodyLimitExceeded(long limit) {
        super("request body is larger than the limit of " + limit + " bytes");
    }
}
