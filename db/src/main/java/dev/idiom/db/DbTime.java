package dev.idiom.db;

/**
 * Time the current thread spent on database work (a connection held, or waiting for a group
 * commit), so a request can report how much of its time was the database's: the server-side
 * breakdown of the saturation reports. A plain per-thread counter: one request, one thread.
 */
public final class DbTime {
    private static final ThreadLocal<long[]> SPENT = ThreadLocal.withInitial(() -> new long[1]);

    private DbTime() {}

    /** Adds the time since {@code startNanos} (a {@link System#nanoTime()} reading) to this thread's count. */
    public static void since(long startNanos) {
        SPENT.get()[0] += TimeSource.nanoTime() - startNanos;
    }

    /** This thread's count since the last take, which it resets. */
    public static long takeNanos() {
        long[] spent = SPENT.get();
        long nanos = spent[0];
        spent[0] = 0;
        return nanos;
    }
}
