package dev.idiom.events;

import java.util.List;
import java.util.UUID;

/** The result of refolding every DE: how many were checked and which differed. */
public record RebuildReport(int entities, long events, List<UUID> differing) {
    public boolean clean() {
        return differing.isEmpty();
    }
}
