package dev.idiom.consistency;

import java.time.Instant;

/** Planted for the architecture test: the engine reading the machine's time past its injected clock. Never called. */
final class PlantedSystemTime {
    private PlantedSystemTime() {}

    static Instant late() throws InterruptedException {
        long t0 = System.nanoTime();
        Thread.sleep(1);
        return Instant.now().plusNanos(System.nanoTime() - t0);
    }
}
