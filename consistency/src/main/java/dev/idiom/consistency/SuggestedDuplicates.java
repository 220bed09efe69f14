package dev.idiom.consistency;

import dev.idiom.events.DigitalEntity;
import dev.idiom.events.DuplicateSuggestions;
import dev.idiom.events.EventStore;
import dev.idiom.events.InvalidValueException;
import dev.idiom.events.MatchKeys;
import dev.idiom.events.UnknownEntityException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * The likely pairs a curator decides: two live DEs that share a DOI, URL or title + first author and
 * whose records are compatible as matching understands it (same DOI if both have one, years at most
 * one apart). Matching never joins two records of one library on its own, so this is where two
 * entries of one file that describe one work show up; a curator merges them ({@link DeLifecycle#merge})
 * or says they are different works ({@link #dismiss}), which is remembered.
 */
public final class SuggestedDuplicates {
    /** Candidate rows read for a listing, per pair asked for (a pair may share several keys). */
    private static final int ROWS_PER_PAIR = 4;

    private final EventStore store;
    private final DuplicateSuggestions suggestions;
    private final Clock clock;

    public SuggestedDuplicates(EventStore store, DuplicateSuggestions suggestions, Clock clock) {
        this.store = store;
        this.suggestions = suggestions;
        this.clock = clock;
    }

    /**
     * One likely pair and why.
     *
     * @param evidence the kind of key they share: {@code doi}, {@code url} or {@code title} (title, first author's family name and year)
     * @param key the shared key as matching normalises it
     */
    public record Pair(DigitalEntity first, DigitalEntity second, String evidence, String key) {}

    /** The last answer and what it was read at: the pairs change only when the store or the dismissals move. */
    private record Answer(long head, long dismissed, int limit, List<Pair> pairs) {}

    private volatile Answer last;

    /**
     * At most {@code limit} open pairs, those sharing a DOI first. Read again only when an event was
     * appended or a pair dismissed since the last answer (the candidates' join reads every work key:
     * tens of milliseconds on 20,000 DEs, and the curator's inbox asks on every reading).
     */
    public List<Pair> open(int limit) {
        if (limit < 1 || limit > 1000) {
            throw new InvalidValueException("limit must be between 1 and 1000, got " + limit);
        }
        long dismissed = suggestions.dismissed();
        long head = store.headPosition();
        Answer a = last;
        if (a != null && a.head() == head && a.dismissed() == dismissed && a.limit() == limit) {
            return a.pairs();
        }
        List<Pair> pairs = read(limit);
        last = new Answer(head, dismissed, limit, pairs);
        return pairs;
    }

    private List<Pair> read(int limit) {
        List<DuplicateSuggestions.Candidate> found = suggestions.candidates(limit * ROWS_PER_PAIR);
        Set<UUID> ids = new HashSet<>();
        found.forEach(c -> {
            ids.add(c.first());
            ids.add(c.second());
        });
        Map<UUID, DigitalEntity> states = store.loadAll(ids);
        List<Pair> out = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (DuplicateSuggestions.Candidate c : found) {
            DigitalEntity a = states.get(c.first());
            DigitalEntity b = states.get(c.second());
            if (a == null || b == null || !a.live() || !b.live() || !seen.add(c.first() + "/" + c.second())
                    || !MatchKeys.compatible(a.metadata(), b.metadata(), c.shared().kind())) {
                continue;
            }
            out.add(new Pair(a, b, c.shared().kind(), c.shared().value()));
            if (out.size() == limit) {
                break;
            }
        }
        return List.copyOf(out);
    }

    /** A curator says the two are different works: the pair is not suggested again. Both must exist. */
    public void dismiss(UUID a, UUID b, String source) {
        if (a.equals(b)) {
            throw new InvalidValueException("a DE is not a duplicate of itself: name two different entities");
        }
        for (UUID id : List.of(a, b)) {
            store.load(id).orElseThrow(() -> new UnknownEntityException(id));
        }
        suggestions.dismiss(a, b, source, clock.instant());
    }
}
