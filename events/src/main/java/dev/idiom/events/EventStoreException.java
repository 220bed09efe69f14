package dev.idiom.events;

/** The database failed underneath the event store; the append (if any) was rolled back. */
public class EventStoreException extends RuntimeException {
    public EventStoreException(String message, Throwable cause) {
        super(message, cause);
    }
}
