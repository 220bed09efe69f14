package dev.idiom.events;

import java.security.SecureRandom;
import java.time.Clock;
import java.util.UUID;

/** Time-ordered UUIDs (version 7, RFC 9562): ids sort by creation time, so do DEs. */
public final class EntityIds {
    private final Clock clock;
    private final SecureRandom random = new SecureRandom();

    public EntityIds(Clock clock) {
        this.clock = clock;
    }

    public UUID next() {
        long millis = clock.millis();
        long randA = random.nextInt(1 << 12);
        long msb = (millis << 16) | (0x7L << 12) | randA;
        long lsb = (random.nextLong() & 0x3FFFFFFFFFFFFFFFL) | 0x8000000000000000L;
        return new UUID(msb, lsb);
    }
}
