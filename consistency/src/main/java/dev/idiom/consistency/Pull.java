package dev.idiom.consistency;

import dev.idiom.consistency.report.ImportOutcome;
import dev.idiom.consistency.report.ImportSummary;
import dev.idiom.consistency.report.Progress;
import dev.idiom.consistency.report.UnknownRemoteRecordException;
import dev.idiom.events.Append;
import dev.idiom.events.AppendOutcome;
import dev.idiom.events.DigitalEntity;
import dev.idiom.events.NewEvent;
import dev.idiom.events.EventStore;
import dev.idiom.events.InvalidValueException;
import dev.idiom.events.accounts.ToolAccountRepository;
import dev.idiom.wrappers.AnnotationTool;
import dev.idiom.wrappers.ChangePage;
import dev.idiom.wrappers.RemoteRecord;
import dev.idiom.wrappers.Skipped;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Consumer;
import java.util.logging.Logger;

/**
 * Records coming in from a tool account: a whole import, a pull of what changed since the
 * account's cursor, one record (a download, a push that met a remote change, an anti-entropy
 * repair). Each record goes through {@link RecordArrival}; a page's records are decided against
 * the store as the batch's earlier records leave it and appended with one commit. The cursor is
 * saved after the page's events committed. A full snapshot's missing copies are reported as
 * deleted (the caller applies the deletion rules).
 */
public final class Pull {
    private static final Logger LOG = Logger.getLogger(Pull.class.getName());
    /** Records written per transaction. */
    static final int BATCH = 250;

    private final EventStore store;
    private final ToolDirectory tools;
    private final ToolAccountRepository states;
    private final RecordArrival arrival;
    private final AccountReplicas replicas;
    private final OptimisticRetry retry;
    private final Clock clock;
    private final AccountExclusion exclusion;
    private final dev.idiom.events.Outbox outbox;

    Pull(EventStore store, AccountReplicas replicas, ToolDirectory tools, ToolAccountRepository states,
            dev.idiom.events.EntityIds ids, OptimisticRetry retry, Clock clock, AccountExclusion exclusion, dev.idiom.events.Outbox outbox) {
        this.exclusion = exclusion;
        this.outbox = outbox;
        this.store = store;
        this.tools = tools;
        this.states = states;
        this.arrival = new RecordArrival(ids);
        this.replicas = replicas;
        this.retry = retry;
        this.clock = clock;
    }

    /** Imports everything that changed since the last import from this tool account ({@code fromStart}: all). */
    public ImportSummary importAll(AnnotationTool tool, boolean fromStart, Progress progress) {
        return exclusion.holding(tool, () -> importing(tool, fromStart, progress));
    }

    private ImportSummary importing(AnnotationTool tool, boolean fromStart, Progress progress) {
        ImportSummary summary = new ImportSummary();
        String cursor = fromStart ? null : states.cursor(tool.kind(), tool.account()).orElse(null);
        ChangePage page;
        Set<String> listed = new HashSet<>();
        boolean complete = true;
        List<UUID> heldBefore = null;
        do {
            page = tool.changedSince(cursor);
            complete &= page.complete();
            if (heldBefore == null && complete) {
                // a copy this run links came from this run's listing: only those held before it can be missing from the snapshot
                heldBefore = replicas.holders(tool.kind(), tool.account());
            }
            if (heldBefore != null && !heldBefore.isEmpty()) { // only a snapshot that may leave a known copy out needs what it listed
                page.records().forEach(r -> listed.add(r.remoteId()));
                listed.addAll(page.present());
            }
            for (Skipped s : page.skipped()) {
                if (s.imported()) {
                    summary.keptAside(s.remoteId(), s.reason()); // imported, one value left in the copy
                } else {
                    summary.add(new ImportOutcome(ImportOutcome.Kind.SKIPPED, s.remoteId(), null, s.reason()));
                }
            }
            List<RemoteRecord> records = page.records();
            int[] done = {0};
            boolean last = !page.more();
            inBatches(tool, records, outcome -> {
                summary.add(outcome);
                progress.step(summary, ++done[0], records.size(), last);
            });
            summary.deletedRemotely(page.deleted());
            if (complete && !page.more()) {
                summary.deletedRemotely(missingFromSnapshot(tool, heldBefore, listed)); // a full snapshot: what it no longer lists is gone
            }
            cursor = page.cursor();
            states.saveCursor(tool.kind(), tool.account(), cursor, clock.instant()); // after the page's events committed
        } while (page.more());
        summary.finish(cursor);
        if (fromStart) { // a whole import (a pull's own line comes from the sync)
            LOG.info("imported " + tool.kind() + " " + tool.account() + ": " + summary);
        }
        return summary;
    }

    /**
     * The remote ids of this account's copies that Idiom knows and a full snapshot did not list (for
     * a tool whose listings can leave a record out, only those a fetch no longer finds).
     */
    List<String> missingFromSnapshot(AnnotationTool tool, Set<String> listed) {
        return missingFromSnapshot(tool, replicas.holders(tool.kind(), tool.account()), listed);
    }

    /** As above, among the copies of {@code holders} (the DEs that held a copy in the account before this run linked any). */
    private List<String> missingFromSnapshot(AnnotationTool tool, List<UUID> holders, Set<String> listed) {
        List<String> missing = new ArrayList<>();
        replicas.forEach(tool, holders, (de, r) -> {
            if (!listed.contains(r.remoteId())) {
                missing.add(r.remoteId());
            }
        }, () -> false);
        return tool.listingMayMissRecords() ? missing.stream().filter(id -> tool.fetch(id).isEmpty()).toList() : missing;
    }

    /**
     * Before copies that were tried already are made again in a tool that keeps no origin (a file):
     * the account's records that no DE holds are read, and those that are the copy of one of
     * {@code tried} are linked to it ({@link RecordArrival#OWN_COPY}), so the copy is not made twice.
     * Nothing else is taken from the listing here (the account's pull does that, with its cursor
     * and deletions). Returns how many were linked.
     */
    int adoptOwnCopies(AnnotationTool tool, Set<UUID> tried) {
        return exclusion.holding(tool, () -> {
            int linked = 0;
            String cursor = null;
            ChangePage page;
            do {
                page = tool.changedSince(cursor);
                for (RemoteRecord r : page.records()) {
                    if (store.findReplica(tool.kind(), tool.account(), r.remoteId()).isPresent()) {
                        continue;
                    }
                    RecordArrival.Decision d = arrival.decide(tool, r, new PendingView(store, tools.policy(tool.kind(), tool.account())).copiesTried(() -> tried));
                    if (RecordArrival.OWN_COPY.equals(d.outcome().reason()) && d.append() != null) {
                        retry.appendOnLatest("linking Idiom's own copy " + r.remoteId() + " in " + tool.kind() + " " + tool.account(), store,
                                d.append().entityId(), d.append().expectedVersion(), d.append().events());
                        linked++;
                    }
                }
                cursor = page.cursor();
            } while (page.more());
            if (linked > 0) {
                LOG.info(tool.kind() + " " + tool.account() + ": " + linked + " copies Idiom made before (their links not recorded) found and linked, not made again");
            }
            return linked;
        });
    }

    /** Download: one record by its remote id. */
    public ImportOutcome download(AnnotationTool tool, String remoteId) {
        return exclusion.holding(tool, () -> tool.fetch(remoteId).map(r -> one(tool, r))
                .orElseThrow(() -> new UnknownRemoteRecordException(tool.kind(), tool.account(), remoteId)));
    }

    /**
     * Records in one transaction: each decided against the store as the earlier records of the
     * batch leave it, then all appended with one commit. A record whose append was refused
     * (another writer moved its DE meanwhile) is decided again on its own.
     */
    public List<ImportOutcome> batch(AnnotationTool tool, List<RemoteRecord> records) {
        return exclusion.holding(tool, () -> finish(commit(decide(tool, records, PendingView.Pending.NONE))));
    }

    /**
     * A page's records a batch at a time, each batch decided while the one before it commits (an
     * import waited on each commit with nothing else to do: half its time at 200,000 records). The
     * next batch's view starts from what the committing one changes; should any of that batch's
     * appends be refused (another writer moved a DE), the next batch is decided again from the store
     * once the refused records are. Outcomes are reported in the records' order.
     */
    private void inBatches(AnnotationTool tool, List<RemoteRecord> records, Consumer<ImportOutcome> each) {
        Committing committing = null;
        try {
            for (int from = 0; from < records.size(); from += BATCH) {
                List<RemoteRecord> part = records.subList(from, Math.min(records.size(), from + BATCH));
                Decided next = decide(tool, part, committing == null ? PendingView.Pending.NONE : committing.decided().view().pending());
                if (committing != null) {
                    finish(committing).forEach(each);
                    if (committing.refusedAny()) {
                        next = decide(tool, part, PendingView.Pending.NONE);
                    }
                }
                committing = commit(next);
            }
            if (committing != null) {
                finish(committing).forEach(each);
            }
        } finally {
            if (committing != null) {
                committing.awaitQuietly(); // after a failure above, nothing is left writing behind the caller's back
            }
        }
    }

    /** A batch's records decided in order, each against the view as the ones before it leave it. */
    private Decided decide(AnnotationTool tool, List<RemoteRecord> records, PendingView.Pending before) {
        PendingView view = new PendingView(store, tool, records, tools.policy(tool.kind(), tool.account()), before)
                .copiesTried(() -> outbox.copiesTried(tool.kind(), tool.account()));
        List<ImportOutcome> outcomes = new ArrayList<>();
        List<Append> batch = new ArrayList<>();
        List<Integer> appendOf = new ArrayList<>(); // record index → its append's index, or -1
        for (RemoteRecord r : records) {
            RecordArrival.Decision d = arrival.decide(tool, r, view);
            outcomes.add(d.outcome());
            appendOf.add(d.append() == null ? -1 : batch.size());
            if (d.append() != null) {
                batch.add(d.append());
                view.apply(d.append());
            }
        }
        return new Decided(tool, records, view, outcomes, batch, appendOf);
    }

    private record Decided(AnnotationTool tool, List<RemoteRecord> records, PendingView view, List<ImportOutcome> outcomes, List<Append> appends,
                           List<Integer> appendOf) {}

    /** A decided batch whose appends are being committed, on a thread of their own. */
    private record Committing(Decided decided, CompletableFuture<List<AppendOutcome>> written) {
        boolean refusedAny() {
            return written.join().stream().anyMatch(o -> !o.succeeded());
        }

        void awaitQuietly() {
            try {
                written.join();
            } catch (RuntimeException ignored) {
                // the failure that brought us here is the one reported
            }
        }
    }

    private Committing commit(Decided d) {
        return new Committing(d, d.appends().isEmpty() ? CompletableFuture.completedFuture(List.of())
                : CompletableFuture.supplyAsync(() -> store.appendAll(d.appends()), r -> Thread.ofVirtual().name("idiom-import-commit").start(r)));
    }

    /** Waits for the commit; a record whose append was refused is decided again on its own. */
    private List<ImportOutcome> finish(Committing c) {
        List<AppendOutcome> written;
        try {
            written = c.written().join();
        } catch (CompletionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : e;
        }
        Decided d = c.decided();
        List<ImportOutcome> outcomes = new ArrayList<>(d.outcomes());
        for (int i = 0; i < d.records().size(); i++) {
            int a = d.appendOf().get(i);
            if (a >= 0 && !written.get(a).succeeded()) {
                outcomes.set(i, one(d.tool(), d.records().get(i)));
            }
        }
        return outcomes;
    }

    /**
     * The DE as this record from {@code tool} would leave it, decided as {@link #one} decides it, with
     * nothing written (a dry run asks what the pushes would then owe); empty if it would change no DE
     * Idiom holds (a new DE, a skip, no change).
     */
    Optional<DigitalEntity> wouldLeave(AnnotationTool tool, RemoteRecord r) {
        RecordArrival.Decision d;
        try {
            d = arrival.decide(tool, r, new PendingView(store, tools.policy(tool.kind(), tool.account())));
        } catch (InvalidValueException invalid) {
            return Optional.empty();
        }
        if (d.append() == null || d.append().expectedVersion() == 0) {
            return Optional.empty();
        }
        return store.load(d.append().entityId()).map(de -> {
            DigitalEntity after = de;
            for (NewEvent e : d.append().events()) {
                after = after.apply(e.event(), de.updatedAt());
            }
            return after;
        });
    }

    /** One record, decided from the store as it is now and again if its DE moves meanwhile; giving up is reported as a skip with why. */
    public ImportOutcome one(AnnotationTool tool, RemoteRecord r) {
        return exclusion.holding(tool, () -> decided(tool, r));
    }

    private ImportOutcome decided(AnnotationTool tool, RemoteRecord r) {
        try {
            return retry.run("the record " + r.remoteId() + " from " + tool.kind() + " " + tool.account(), () -> {
                RecordArrival.Decision d = arrival.decide(tool, r, new PendingView(store, tools.policy(tool.kind(), tool.account()))
                        .copiesTried(() -> outbox.copiesTried(tool.kind(), tool.account())));
                if (d.append() != null) {
                    store.append(d.append().entityId(), d.append().expectedVersion(), d.append().events());
                }
                return d.outcome();
            });
        } catch (OptimisticRetry.GaveUpException kept) {
            return new ImportOutcome(ImportOutcome.Kind.SKIPPED, r.remoteId(), null, kept.getMessage());
        } catch (InvalidValueException invalid) {
            return new ImportOutcome(ImportOutcome.Kind.SKIPPED, r.remoteId(), null, invalid.getMessage());
        }
    }
}
