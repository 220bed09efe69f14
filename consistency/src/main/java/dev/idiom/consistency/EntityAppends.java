package dev.idiom.consistency;

import dev.idiom.events.Append;
import dev.idiom.events.AppendOutcome;
import dev.idiom.events.AppendResult;
import dev.idiom.events.NewEvent;
import java.util.List;
import java.util.UUID;

/**
 * The one door for appending a DE's events, as the engine needs it: the application's write
 * service implements it, so that an append by a pull, a push or an anti-entropy repair reaches
 * this node's cache and search index at once, as an API write does.
 */
public interface EntityAppends {
    /** Appends {@code events} if the DE is at {@code expectedVersion}; throws {@code StaleVersionException} if it moved. */
    AppendResult commit(UUID id, int expectedVersion, List<NewEvent> events);

    /** Several appends with one commit; each succeeds or is refused on its own (see {@code EventStore.appendAll}). */
    List<AppendOutcome> commitAll(List<Append> appends);
}
