package dev.idiom.db;

import java.time.Clock;
import java.time.Duration;

/**
 * The one place that reads the machine's time or waits on it (an ArchUnit rule says so): the system
 * clock the composition root injects as every {@link Clock}, the monotonic time that measures how
 * long something took, and sleeping. A class that decides by the time is handed a {@code Clock}
 * (tests give it a fake one); one that only measures or waits comes here, so a search for how Idiom
 * reads the time has one answer.
 */
public final class TimeSource {
    private TimeSource() {}

    /** The system clock, in UTC: what the composition root hands every class that needs the time. */
    public static final Clock SYSTEM = Clock.systemUTC();

    /** Monotonic nanoseconds, for elapsed times only (never a date). */
    public static long nanoTime() {
        return System.nanoTime();
    }

    /** Milliseconds since the epoch on the system clock. */
    public static long currentTimeMillis() {
        return SYSTEM.millis();
    }

    public static void sleep(long millis) throws InterruptedException {
        Thread.sleep(millis);
    }

    public static void sleep(long millis, int nanos) throws InterruptedException {
        Thread.sleep(millis, nanos);
    }

    public static void sleep(Duration d) throws InterruptedException {
        Thread.sleep(d);
    }
}
