package dev.idiom.events;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Level;
import java.util.logging.Logger;

/** A store's listeners and the announcing of its commits to them, in the order they were registered. */
public final class CommitAnnouncements {
    private static final Logger LOG = Logger.getLogger(CommitAnnouncements.class.getName());
    private final List<CommitListener> listeners = new CopyOnWriteArrayList<>();

    public void add(CommitListener listener) {
        listeners.add(java.util.Objects.requireNonNull(listener));
    }

    /** Announces {@code outcomes} and returns them. */
    public List<AppendOutcome> announced(List<AppendOutcome> outcomes) {
        announce(outcomes);
        return outcomes;
    }

    /** Each succeeded outcome to each listener; a replayed append wrote nothing new but is announced too (its state may be news to a cache). */
    public void announce(List<AppendOutcome> outcomes) {
        if (listeners.isEmpty()) {
            return;
        }
        for (AppendOutcome o : outcomes) {
            if (o.succeeded()) {
                for (CommitListener l : listeners) {
                    try {
                        l.committed(o.result());
                    } catch (RuntimeException e) { // the events are committed: a follower's failure is its own, caught up from the feed
                        LOG.log(Level.WARNING, "a commit listener failed; it catches up from the change feed: " + e.getMessage(), e);
                    }
                }
            }
        }
    }
}
