package dev.idiom.consistency;

import dev.idiom.consistency.report.PushOutcome;
import dev.idiom.events.NewEvent;
import java.time.Instant;

/**
 * What one step of a push came to, before anything of it is recorded: the outcome, the event that
 * records it (none where nothing changed), what becomes of the outbox row, whether the change
 * reached the copy (the lag is measured) and, where the copy now has another id, that id (a change
 * that came meanwhile is owed to it). {@link PushLedger} records it, once.
 */
record PushResult(PushOutcome outcome, NewEvent event, Row row, boolean reached, String owedAgainUnder) {
    /** What becomes of the row. */
    sealed interface Row {
        /** Released as pushed up to {@code version} (a newer change keeps it owed). */
        record Acknowledged(int version) implements Row {}

        /** Kept, parked with the reason until a curator acts or the DE changes. */
        record Parked(String reason) implements Row {}

        /** Kept, due again at {@code at}. */
        record Due(Instant at, String error) implements Row {}
    }

    /** The same, with the event that records it. */
    PushResult withEvent(NewEvent e) {
        return new PushResult(outcome, e, row, reached, owedAgainUnder);
    }

    static PushResult settled(PushOutcome outcome, int version) {
        return new PushResult(outcome, null, new Row.Acknowledged(version), false, null);
    }

    static PushResult parked(String reason) {
        return new PushResult(PushOutcome.PARKED, null, new Row.Parked(reason), false, null);
    }

    static PushResult due(PushOutcome outcome, Instant at, String error) {
        return new PushResult(outcome, null, new Row.Due(at, error), false, null);
    }

    /** The copy holds what was sent: the row goes, with the event that says so. */
    static PushResult reached(PushOutcome outcome, NewEvent event, int version, String owedAgainUnder) {
        return new PushResult(outcome, event, new Row.Acknowledged(version), true, owedAgainUnder);
    }
}
