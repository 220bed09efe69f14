package dev.idiom.consistency.report;

import dev.idiom.events.Outbox;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * What a curator's sync of one account did: the pull's summary, copies unlinked because the tool
 * deleted them, deletions held for a curator (with why), the pushes by outcome, and what is still
 * owed to the account.
 *
 * @param withheldTags per DE (a sample), the tags left out of its copy in this account: private tags of another tool, tags this
 *     tool would act on
 * @param queued why the pull did not run now and when it will (a tool's turn not yet due), or null; the pushes ran all the same
 */
public record SyncReport(String account, ImportSummary pulled, int unlinked, String held, Map<PushOutcome, Integer> pushed, List<Outbox.Entry> owed,
                         Map<UUID, Set<String>> withheldTags, String queued) {
    public int pushedCount() {
        return pushed.getOrDefault(PushOutcome.PUSHED, 0);
    }

    public int mergedCount() {
        return pulled.count(ImportOutcome.Kind.UPDATED) + pulled.count(ImportOutcome.Kind.MERGED) + pushed.getOrDefault(PushOutcome.MERGED_REMOTE_CHANGES, 0);
    }

    public long parkedCount() {
        return owed.stream().filter(Outbox.Entry::parked).count();
    }

    /** Pushes per outcome ("pushed", "already_in_sync", "retry_later", …), zeros included. */
    public Map<String, Integer> pushedByOutcome() {
        Map<String, Integer> out = new LinkedHashMap<>();
        for (PushOutcome o : PushOutcome.values()) {
            out.put(o.name().toLowerCase(Locale.ROOT), pushed.getOrDefault(o, 0));
        }
        return out;
    }
}
