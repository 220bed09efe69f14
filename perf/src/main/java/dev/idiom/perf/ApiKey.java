package dev.idiom.perf;

import java.net.http.HttpRequest;

/**
 * The key the probes present: {@code IDIOM_KEY} (perf/serve-for-bench.sh sets it to the new
 * server's admin key), or the one a saturation run read from the server it started.
 */
public final class ApiKey {
    private static volatile String key = System.getenv("IDIOM_KEY");

    private ApiKey() {}

    public static void use(String k) {
        key = k;
    }

    public static String current() {
        return key == null || key.isBlank() ? null : key.strip();
    }

    public static HttpRequest.Builder signed(HttpRequest.Builder b) {
        String k = current();
        return k == null ? b : b.header("Authorization", "Bearer " + k);
    }
}
