package dev.idiom.perf;

import java.net.http.HttpRequest;

/** The key the probes present: {@code IDIOM_KEY} (perf/serve-for-bench.sh sets it to the new server's admin key). */
final class ApiKey {
    private static final String KEY = System.getenv("IDIOM_KEY");

    private ApiKey() {}

    static HttpRequest.Builder signed(HttpRequest.Builder b) {
        return KEY == null || KEY.isBlank() ? b : b.header("Authorization", "Bearer " + KEY.strip());
    }
}
