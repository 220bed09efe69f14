package dev.idiom.services.app;

import dev.idiom.events.DigitalEntity;
import dev.idiom.events.InvalidValueException;
import dev.idiom.events.Metadata;
import dev.idiom.services.citations.CitationFormat;
import dev.idiom.services.citations.Citations;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Formatted bibliographies within bounds. A CSL style formats a page of 200 DEs in a tenth of a
 * second of CPU or more, so eight readers looping over pages could take every core from everyone
 * else. Here formatting runs on its own few threads ({@code formatting-threads}); each key has one
 * request formatted at a time (a second at once: 429) and at most four per thread wait (then: 503);
 * a key below admin has at most {@code max-formatted-entries} entries formatted a request; and an
 * answer is cached per (each entry at its version as the caller sees it, style, locale), so a page
 * asked again costs nothing. The cache holds whole answers, not entries: a numeric style numbers an
 * entry by its place and an author-date style tells apart two works of one author and year by the
 * others, so an entry formatted alone is not that entry in a list.
 */
public final class BibliographyFormatting {
    private static final int CACHED_ANSWERS = 512;
    private static final long LONGEST_SECONDS = 30;

    private final Citations citations;
    private final ThreadPoolExecutor pool;
    private final int maxEntries;
    private final Set<String> formatting = ConcurrentHashMap.newKeySet();
    /** Set on a request's thread while it holds a turn, so the formatting it leads to does not ask for a second. */
    private final ThreadLocal<Boolean> holding = new ThreadLocal<>();
    private final Map<Answer, String> answers = Collections.synchronizedMap(new LinkedHashMap<>(64, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Answer, String> eldest) {
            return size() > CACHED_ANSWERS;
        }
    });

    /** One entry as formatted: which DE, at which version, with the content the caller was shown (a reader's view can hold less). */
    private record Entry(UUID id, int version, Metadata shown) {}

    private record Answer(String style, String locale, List<Entry> entries) {}

    public BibliographyFormatting(Citations citations, int threads, int maxEntries) {
        this.citations = citations;
        this.maxEntries = maxEntries;
        AtomicInteger n = new AtomicInteger();
        this.pool = new ThreadPoolExecutor(threads, threads, 30, TimeUnit.SECONDS, new ArrayBlockingQueue<>(4 * threads), r -> {
            Thread t = new Thread(r, "idiom-format-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        pool.allowCoreThreadTimeOut(true); // no thread kept for a server that formats nothing
    }

    /**
     * {@code shown} as a bibliography in {@code style} and {@code locale}, formatted for {@code caller}.
     *
     * @throws InvalidValueException more entries than a key below admin may have formatted
     * @throws ShareExceededException the key has a bibliography being formatted already, or every place is taken
     */
    public String format(List<DigitalEntity> shown, String style, String locale, Caller caller) {
        if (shown.size() > maxEntries && !caller.role().includes(Role.ADMIN)) {
            throw new InvalidValueException("a formatted bibliography holds at most " + maxEntries + " entries for this key (max-formatted-entries);"
                    + " ask for fewer (limit=" + maxEntries + ") or for CSL-JSON, BibTeX or RIS, which are not limited");
        }
        Answer key = new Answer(style, locale, shown.stream().map(de -> new Entry(de.id(), de.version(), de.metadata())).toList());
        String cached = answers.get(key);
        if (cached != null) {
            return cached;
        }
        try (Turn turn = turn(caller)) {
            Future<String> done;
            try {
                done = pool.submit(() -> citations.render(CitationFormat.BIBLIOGRAPHY, shown, false, style, locale));
            } catch (RejectedExecutionException full) {
                throw new ShareExceededException(true, "every place for formatting bibliographies is taken; retry in a second");
            }
            String out = waitFor(done);
            answers.put(key, out);
            return out;
        }
    }

    /** Something held until closed; closing never fails. */
    public interface Held extends AutoCloseable {
        @Override
        void close();
    }

    /** A key's turn at formatting, taken before the work that leads to it (a search), so a refusal costs nothing; closing gives it back. */
    public final class Turn implements Held {
        private final String keyName;

        private Turn(String keyName) {
            this.keyName = keyName;
        }

        @Override
        public void close() {
            if (keyName != null) {
                formatting.remove(keyName);
                holding.remove();
            }
        }
    }

    /**
     * The caller's turn at formatting (within a turn this thread holds already, one that gives
     * nothing back).
     *
     * @throws ShareExceededException the key has a bibliography being formatted already, or every place is taken
     */
    public Turn turn(Caller caller) {
        if (holding.get() != null) {
            return new Turn(null);
        }
        if (pool.getQueue().remainingCapacity() == 0) {
            throw new ShareExceededException(true, "every place for formatting bibliographies is taken; retry in a second");
        }
        if (!formatting.add(caller.keyName())) {
            throw new ShareExceededException(false, "this key has a bibliography being formatted already: one at a time per key; retry when it is done");
        }
        holding.set(Boolean.TRUE);
        return new Turn(caller.keyName());
    }

    /** Whether the key has a bibliography being formatted now. */
    boolean formatting(String keyName) {
        return formatting.contains(keyName);
    }

    private static String waitFor(Future<String> done) {
        try {
            return done.get(LONGEST_SECONDS, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r; // an unknown style or locale: the caller's 400
            }
            throw new IllegalStateException(e.getCause());
        } catch (TimeoutException e) {
            done.cancel(true);
            throw new ShareExceededException(true, "formatting took longer than " + LONGEST_SECONDS + " s; retry with fewer entries");
        } catch (InterruptedException e) {
            done.cancel(true);
            Thread.currentThread().interrupt();
            throw new ShareExceededException(true, "interrupted while formatting; retry");
        }
    }
}
