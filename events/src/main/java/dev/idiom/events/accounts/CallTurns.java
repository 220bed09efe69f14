package dev.idiom.events.accounts;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/** Turns at the calls a tool limits on its own, per tool account, shared by every node on the database. */
public interface CallTurns {
    /** Empty when the turn at {@code call} was due and is now taken; else when it will be due (nothing taken). */
    Optional<Instant> take(String kind, String account, String call, Instant now, Duration interval);

    /** The call was answered at {@code at}: the next turn is {@code interval} later, the doubling forgotten. */
    void answered(String kind, String account, String call, Instant at, Duration interval);

    /** The call was refused as too early at {@code at}: the next turn is twice the last wait later. */
    void refused(String kind, String account, String call, Instant at, Duration interval);
}
