package dev.idiom.events;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

/**
 * Where the suggested duplicates come from: two DEs that hold one work key (DOI, URL, title + first
 * author) are a likely pair, since matching never joins two records of one library on its own
 * (DESIGN.md). A curator merges a pair or says it is two works; the second is remembered here.
 */
public interface DuplicateSuggestions {
    /** Two DEs holding {@code shared}; {@code first} sorts before {@code second} as text. */
    record Candidate(UUID first, UUID second, MatchKeys.Key shared) {}

    /**
     * Pairs holding a shared work key that no curator dismissed, at most {@code limit} rows (a pair
     * sharing several keys may come once per key); DEs out of the live ones hold no work keys.
     */
    List<Candidate> candidates(int limit);

    /** How many pairs curators have dismissed: it grows with each dismissal, so candidates read at one count and store head stand until either moves. */
    long dismissed();

    /** Remembers that the two are different works (idempotent). */
    void dismiss(UUID a, UUID b, String by, Instant at);

    /** The pair in the order the store keeps it: the smaller id as text first. */
    static UUID[] ordered(UUID a, UUID b) {
        return a.toString().compareTo(b.toString()) <= 0 ? new UUID[] {a, b} : new UUID[] {b, a};
    }
}
