package dev.idiom.services.web;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * The last {@value #KEEP} things Idiom logged at INFO and above — pulls, imports, held accounts,
 * failed pushes and syncs, errors — kept in memory for the console's log, which filters them in the
 * page. A bounded ring: the oldest go first, so a storm of warnings costs memory once.
 */
final class RecentLog extends Handler implements AutoCloseable {
    static final int KEEP = 2000;
    private static final String ROOT = "dev.idiom";

    private final Deque<Entry> entries = new ArrayDeque<>();
    private final Logger root = Logger.getLogger(ROOT);

    /** One line: when, how bad, which part of Idiom, what. */
    record Entry(long millis, String level, String source, String message) {}

    RecentLog() {
        setLevel(Level.INFO);
        root.addHandler(this);
    }

    @Override
    public void publish(LogRecord r) {
        if (r == null || !isLoggable(r)) {
            return;
        }
        String name = r.getLoggerName() == null ? "" : r.getLoggerName();
        String message = r.getMessage() == null ? "" : r.getMessage();
        if (r.getParameters() != null && r.getParameters().length > 0) {
            message = java.text.MessageFormat.format(message, r.getParameters());
        }
        if (r.getThrown() != null && (r.getThrown().getMessage() == null || !message.contains(r.getThrown().getMessage()))) {
            message += " (" + r.getThrown() + ")"; // the cause's message, never its stack
        }
        Entry e = new Entry(r.getMillis(), r.getLevel().getName(), name.substring(name.lastIndexOf('.') + 1), message);
        synchronized (entries) {
            if (entries.size() == KEEP) {
                entries.removeFirst();
            }
            entries.addLast(e);
        }
    }

    /** Newest first. */
    ArrayNode json() {
        ArrayNode out = JsonNodeFactory.instance.arrayNode();
        synchronized (entries) {
            entries.descendingIterator().forEachRemaining(e -> out.addObject().put("at", java.time.Instant.ofEpochMilli(e.millis()).toString())
                    .put("level", e.level()).put("source", e.source()).put("message", e.message()));
        }
        return out;
    }

    @Override
    public void flush() {
        // in memory: nothing to flush
    }

    @Override
    public void close() {
        root.removeHandler(this);
    }
}
