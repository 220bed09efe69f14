package dev.idiom.consistency;

import dev.idiom.consistency.report.CheckReport;
import dev.idiom.consistency.report.ImportOutcome;
import dev.idiom.events.Outbox;
import dev.idiom.events.accounts.ToolAccountRepository;
import dev.idiom.wrappers.AnnotationTool;
import dev.idiom.wrappers.ChangePage;
import dev.idiom.wrappers.RemoteRecord;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Anti-entropy for one account: every record the tool lists is compared, in
 * {@link CanonicalForm}, with what Idiom last synced; a difference is repaired through the one
 * decision ({@link Pull#one}); a replica behind its DE with no push owed gets one; copies missing
 * from a complete listing go through the deletion rules. A send-only account's differing copy is
 * reported, not pulled (the DE's next push writes over it); a receive-only account is owed no push.
 */
final class AntiEntropy {
    private static final java.util.logging.Logger LOG = java.util.logging.Logger.getLogger(AntiEntropy.class.getName());
    private final Pull pull;
    private final Deletions deletions;
    private final AccountReplicas replicas;
    private final Outbox outbox;
    private final ToolAccountRepository states;
    private final Clock clock;
    private final ToolDirectory tools;
    private final AccountExclusion exclusion;

    AntiEntropy(Pull pull, Deletions deletions, AccountReplicas replicas, Outbox outbox, ToolAccountRepository states, ToolDirectory tools, Clock clock,
            AccountExclusion exclusion) {
        this.exclusion = exclusion;
        this.tools = tools;
        this.pull = pull;
        this.deletions = deletions;
        this.replicas = replicas;
        this.outbox = outbox;
        this.states = states;
        this.clock = clock;
    }

    CheckReport check(AnnotationTool tool) {
        return exclusion.holding(tool, () -> checked(tool)); // a listing compared with what Idiom synced is only true while nobody writes
    }

    private CheckReport checked(AnnotationTool tool) {
        Map<String, RemoteRecord> listed = new HashMap<>();
        boolean complete = true;
        String cursor = null;
        ChangePage page;
        do {
            page = tool.changedSince(cursor);
            complete &= page.complete();
            page.records().forEach(r -> listed.put(r.remoteId(), r));
            cursor = page.cursor();
        } while (page.more());
        Set<String> owed = new HashSet<>();
        outbox.list(tool.kind(), tool.account(), Integer.MAX_VALUE).forEach(e -> owed.add(e.entityId() + "\n" + e.remoteId()));
        MirrorRule.Direction direction = MirrorRules.of(tools).of(tool.kind(), tool.account()).rule().direction();
        int[] found = new int[4]; // divergent, repaired, re-enqueued, read anew
        List<String> missing = new ArrayList<>();
        Map<String, java.util.UUID> holder = new HashMap<>();
        Map<String, Set<java.util.UUID>> shared = new java.util.TreeMap<>();
        replicas.forEach(tool, (de, r) -> {
            java.util.UUID other = holder.putIfAbsent(r.remoteId(), de.id());
            if (other != null && !other.equals(de.id())) {
                shared.computeIfAbsent(r.remoteId(), k -> new java.util.TreeSet<>(Set.of(other))).add(de.id());
            }
            RemoteRecord there = listed.get(r.remoteId());
            if (there == null) {
                missing.add(r.remoteId());
            } else if (CanonicalForm.agree(r.synced(), tool.tagsAsRead(there.metadata(), r.synced()), tool.fieldsKept())) {
                if (direction.written() && ReplicaContent.owed(de, tool, r) && !owed.contains(de.id() + "\n" + r.remoteId())) {
                    outbox.owe(de.id(), r, de.version());
                    found[2]++;
                }
            } else if (Reread.sameVersion(tool, r, there)) {
                // unchanged in the tool, read otherwise by Idiom: re-based (once) whatever the direction (nothing comes in), no divergence
                if (RecordArrival.READ_ANEW.equals(pull.one(tool, there).reason())) {
                    found[3]++;
                }
            } else {
                found[0]++;
                // send-only: nothing comes in; the copy stays counted as divergent until the DE's next push overwrites it
                if (direction.read() && pull.one(tool, there).kind() != ImportOutcome.Kind.SKIPPED) {
                    found[1]++;
                }
            }
        });
        String heldWhy = complete && !missing.isEmpty() ? deletions.apply(tool, missing, false).held() : null;
        if (!shared.isEmpty()) {
            LOG.warning(tool.kind() + " " + tool.account() + ": " + shared.size() + " copies are held by more than one DE (merge or unlink them): "
                    + shared.entrySet().stream().limit(20).map(e -> e.getKey() + " " + e.getValue()).toList());
        }
        int stillDivergent = found[0] - found[1];
        states.updateSyncState(tool.kind(), tool.account(), s -> s.checked(clock.instant(), stillDivergent), clock.instant());
        return new CheckReport(Outbox.accountKey(tool.kind(), tool.account()), listed.size(), replicas.count(tool.kind(), tool.account()), found[0], found[1], found[2],
                complete ? missing.size() : 0, heldWhy, found[3], shared.size());
    }
}
