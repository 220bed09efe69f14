package dev.idiom.wrappers.http;

import dev.idiom.db.TimeSource;
import java.time.Duration;

/** Waits between calls; injected so tests can see the waits without sleeping through them. */
@FunctionalInterface
public interface Pacing {
    void pause(Duration d) throws InterruptedException;

    Pacing SLEEP = d -> {
        if (!d.isNegative() && !d.isZero()) {
            TimeSource.sleep(d);
        }
    };
}
