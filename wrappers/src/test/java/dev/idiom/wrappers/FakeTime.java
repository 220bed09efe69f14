package dev.idiom.wrappers;

import dev.idiom.wrappers.http.Pacing;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

/** A clock that moves only when the code under test pauses: waits are recorded, never slept. */
public final class FakeTime extends Clock implements Pacing {
    private Instant now = Instant.parse("2026-06-01T00:00:00Z");
    public final List<Duration> waits = new ArrayList<>();

    @Override
    public synchronized void pause(Duration d) {
        waits.add(d);
        now = now.plus(d);
    }

    @Override
    public synchronized Instant instant() {
        return now;
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        return this;
    }
}
