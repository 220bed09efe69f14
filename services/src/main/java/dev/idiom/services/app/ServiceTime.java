package dev.idiom.services.app;

import dev.idiom.db.TimeSource;
import dev.idiom.db.DbTime;
import java.util.concurrent.atomic.LongAdder;

/**
 * What requests cost inside Idiom: how many were served, the time from admission to the last byte
 * handed to the container, and the part of it spent on the database (connections held, group-commit
 * waits). Counters only grow; a reader takes the difference of two readings for a window, as a
 * saturation run does for its server-side breakdown.
 */
public final class ServiceTime {
    /**
     * The request attribute where a protocol adapter names the operation it served ({@code moreInfo},
     * {@code GET /api/entities/{id}}), so metrics count per operation without parsing the request again.
     */
    public static final String OPERATION = "dev.idiom.operation";
    /**
     * The request attribute where SOAP leaves the HTTP status its fault stands for (a SOAP 1.1 fault
     * is always HTTP 500, a client's mistake included), so metrics count it as what it was.
     */
    public static final String FAULT_STATUS = "dev.idiom.fault-status";

    private final LongAdder served = new LongAdder();
    private final LongAdder servedNanos = new LongAdder();
    private final LongAdder databaseNanos = new LongAdder();

    /** The counters at one moment. */
    public record Figures(long served, long servedNanos, long databaseNanos) {}

    /** A request begins on this thread: returns its start, for {@link #finished}. */
    public long started() {
        DbTime.takeNanos(); // a pooled platform thread may carry another request's count
        return TimeSource.nanoTime();
    }

    public void finished(long start) {
        servedNanos.add(TimeSource.nanoTime() - start);
        databaseNanos.add(DbTime.takeNanos());
        served.increment();
    }

    public Figures figures() {
        return new Figures(served.sum(), servedNanos.sum(), databaseNanos.sum());
    }
}
