package dev.idiom.services.app;

import dev.idiom.consistency.CanonicalForm;
import dev.idiom.consistency.ConflictPolicy;
import dev.idiom.consistency.ReplicaMerge;
import dev.idiom.events.Append;
import dev.idiom.events.AppendOutcome;
import dev.idiom.events.ConflictResolved;
import dev.idiom.events.DigitalEntity;
import dev.idiom.events.EntityEvent;
import dev.idiom.events.EntityIds;
import dev.idiom.events.EventStore;
import dev.idiom.events.InvalidValueException;
import dev.idiom.events.MatchKeys;
import dev.idiom.events.Metadata;
import dev.idiom.events.NewEvent;
import dev.idiom.events.RecordImported;
import dev.idiom.events.Replica;
import dev.idiom.events.ReplicaLinked;
import dev.idiom.events.StaleVersionException;
import dev.idiom.events.UnknownEntityException;
import dev.idiom.services.tools.Tools;
import dev.idiom.wrappers.AnnotationTool;
import dev.idiom.wrappers.ChangePage;
import dev.idiom.wrappers.RemoteRecord;
import dev.idiom.wrappers.Skipped;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;

/**
 * Download = a major event. Each record from a tool becomes a new DE, or merges into the DE of
 * the same work (DOI, then URL, then title + year + first author), or — when it is already a
 * replica of a DE and changed remotely — brings the remote changes in where Idiom had not changed
 * the field. The import cursor is saved after each page's events committed.
 */
public final class ImportRecords {
    private static final java.util.logging.Logger LOG = java.util.logging.Logger.getLogger(ImportRecords.class.getName());

    /** Told after each record: how far into the current page, and the tally so far. */
    public interface Progress {
        void step(ImportSummary soFar, int doneInPage, int pageSize, boolean lastPage);
    }

    /** Records written per transaction during an import. */
    static final int BATCH = 250;

    private final EventStore store;
    private final EntityWrites writes;
    private final Tools tools;
    private final EntityIds ids;

    public ImportRecords(EventStore store, EntityWrites writes, Tools tools, EntityIds ids) {
        this.store = store;
        this.writes = writes;
        this.tools = tools;
        this.ids = ids;
    }

    /** Imports what changed since the last import from the configured tool account {@code name} (or all). */
    public ImportSummary importAccount(String name, boolean fromStart, Progress progress) {
        return importAll(tools.open(name), fromStart, progress);
    }

    /** Imports a whole file of this kind ({@code bibtex}, {@code bookmarks}). */
    public ImportSummary importFile(String kind, Path file, Progress progress) {
        return importAll(tools.file(kind, file), true, progress);
    }

    /** Download: one record, by its remote id, from the configured tool account {@code name}. */
    public ImportOutcome download(String name, String remoteId) {
        return download(tools.open(name), remoteId);
    }

    /** Imports everything that changed since the last import from this tool account (or all). */
    public ImportSummary importAll(AnnotationTool tool, boolean fromStart, Progress progress) {
        ImportSummary summary = new ImportSummary();
        String cursor = fromStart ? null : tools.accounts().cursor(tool.kind(), tool.account()).orElse(null);
        ChangePage page;
        Set<String> listed = new HashSet<>();
        boolean complete = true;
        do {
            page = tool.changedSince(cursor);
            complete &= page.complete();
            page.records().forEach(r -> listed.add(r.remoteId()));
            for (Skipped s : page.skipped()) {
                summary.add(new ImportOutcome(ImportOutcome.Kind.SKIPPED, s.remoteId(), null, s.reason()));
            }
            List<RemoteRecord> records = page.records();
            int done = 0;
            for (int from = 0; from < records.size(); from += BATCH) {
                for (ImportOutcome o : importBatch(tool, records.subList(from, Math.min(records.size(), from + BATCH)))) {
                    summary.add(o);
                    progress.step(summary, ++done, records.size(), !page.more());
                }
            }
            summary.deletedRemotely(page.deleted());
            if (complete && !page.more()) {
                summary.deletedRemotely(missingFromSnapshot(tool, listed)); // a full snapshot: what it no longer lists is gone
            }
            cursor = page.cursor();
            tools.accounts().saveCursor(tool.kind(), tool.account(), cursor); // after the page's events committed
        } while (page.more());
        summary.finish(cursor);
        if (fromStart) { // a whole import (a pull's own line comes from the sync)
            LOG.info("imported " + tool.kind() + " " + tool.account() + ": " + summary);
        }
        return summary;
    }

    /** The remote ids of this tool account's copies that Idiom knows and a full snapshot did not list. */
    private List<String> missingFromSnapshot(AnnotationTool tool, Set<String> listed) {
        MatchKeys.Key account = MatchKeys.account(tool.kind(), tool.account());
        List<UUID> holders = store.findKeys(List.of(account)).getOrDefault(account, List.of());
        List<String> missing = new ArrayList<>();
        for (DigitalEntity de : store.loadAll(new HashSet<>(holders)).values()) {
            for (Replica r : de.replicas()) {
                if (r.tool().equals(tool.kind()) && Objects.equals(r.account(), tool.account()) && !listed.contains(r.remoteId())) {
                    missing.add(r.remoteId());
                }
            }
        }
        return missing;
    }

    /** Download: one record by its remote id. */
    public ImportOutcome download(AnnotationTool tool, String remoteId) {
        return tool.fetch(remoteId).map(r -> importOne(tool, r))
                .orElseThrow(() -> new UnknownRemoteRecordException(tool.kind(), tool.account(), remoteId));
    }

    /**
     * Imports records in one transaction: each decided against the store as the earlier records
     * of the batch leave it (so two records of one work still make one DE), then all appended
     * with one commit. A record whose append was refused (another writer moved its DE meanwhile)
     * is imported again on its own.
     */
    List<ImportOutcome> importBatch(AnnotationTool tool, List<RemoteRecord> records) {
        PendingView view = new PendingView(tool, records, tools.accounts().conflictPolicy(tool.kind(), tool.account()));
        List<ImportOutcome> outcomes = new ArrayList<>();
        List<Append> appends = new ArrayList<>();
        List<Integer> appendOf = new ArrayList<>(); // record index → its append's index, or -1
        for (RemoteRecord r : records) {
            Decision d = decideOrSkip(tool, r, view);
            outcomes.add(d.outcome());
            appendOf.add(d.append() == null ? -1 : appends.size());
            if (d.append() != null) {
                appends.add(d.append());
                view.apply(d.append());
            }
        }
        List<AppendOutcome> written = writes.appendAll(appends);
        for (int i = 0; i < records.size(); i++) {
            int a = appendOf.get(i);
            if (a >= 0 && !written.get(a).succeeded()) {
                outcomes.set(i, importOne(tool, records.get(i)));
            }
        }
        return outcomes;
    }

    public ImportOutcome importOne(AnnotationTool tool, RemoteRecord r) {
        for (int attempt = 0; ; attempt++) {
            Decision d = decideOrSkip(tool, r, new PendingView(tools.accounts().conflictPolicy(tool.kind(), tool.account())));
            if (d.append() == null) {
                return d.outcome();
            }
            try {
                writes.append(d.append().entityId(), d.append().expectedVersion(), d.append().events());
                return d.outcome();
            } catch (StaleVersionException raced) {
                if (attempt == 2) {
                    return new ImportOutcome(ImportOutcome.Kind.SKIPPED, r.remoteId(), null,
                            "the matching entity kept changing during the import; run it again");
                }
            } catch (InvalidValueException invalid) {
                return new ImportOutcome(ImportOutcome.Kind.SKIPPED, r.remoteId(), null, invalid.getMessage());
            }
        }
    }

    /** What to do with one record: its outcome, and the append that records it (none when unchanged or skipped). */
    private record Decision(ImportOutcome outcome, Append append) {
        Decision {
            if (append != null) {
                outcome = outcome.withConflicts((int) append.events().stream().filter(e -> e.event() instanceof ConflictResolved).count());
            }
        }
    }

    private Decision decideOrSkip(AnnotationTool tool, RemoteRecord r, PendingView view) {
        if (r.metadata().title() == null || r.metadata().title().isBlank()) {
            return new Decision(new ImportOutcome(ImportOutcome.Kind.SKIPPED, r.remoteId(), null, "the record has no title"), null);
        }
        try {
            return decide(tool, r, view);
        } catch (InvalidValueException invalid) {
            return new Decision(new ImportOutcome(ImportOutcome.Kind.SKIPPED, r.remoteId(), null, invalid.getMessage()), null);
        }
    }

    private Decision decide(AnnotationTool tool, RemoteRecord r, PendingView view) {
        String source = source(tool);
        Optional<UUID> linked = view.findReplica(tool.kind(), tool.account(), r.remoteId());
        if (linked.isPresent()) {
            DigitalEntity de = view.load(linked.get());
            Replica replica = de.replica(tool.kind(), tool.account(), r.remoteId()).orElseThrow();
            // the same version with the same content is no change; the same version with other content (anti-entropy found the
            // replica diverged) goes through the merge like any remote change
            if (Objects.equals(replica.remoteVersion(), r.version()) && CanonicalForm.agree(replica.synced(), r.metadata(), tool.fieldsKept())
                    && replica.privateCopy() == r.privateCopy()) {
                return new Decision(new ImportOutcome(ImportOutcome.Kind.UNCHANGED, r.remoteId(), de.id(), null), null);
            }
            List<EntityEvent> events = new ArrayList<>(ReplicaMerge.remoteChanges(replica.synced(), r.metadata(), de.metadata(), view.policy,
                    tool.kind(), tool.account(), tool.fieldsKept(), de.updatedAt(), tool.modifiedAt(r)));
            events.add(new ReplicaLinked(tool.kind(), tool.account(), r.remoteId(), r.version(), r.metadata(), r.shadow(), null, r.privateCopy()));
            return new Decision(new ImportOutcome(ImportOutcome.Kind.UPDATED, r.remoteId(), de.id(), null),
                    new Append(de.id(), de.version(), events.stream().map(e -> new NewEvent(UUID.randomUUID(), source, e)).toList()));
        }
        RecordImported imported = new RecordImported(r.metadata(), tool.kind(), tool.account(), r.remoteId(), r.version(), r.identityHint(),
                r.shadow(), r.privateCopy());
        // (tool, account, remote id, version) names the event: a retried import cannot record it twice
        NewEvent event = new NewEvent(UUID.nameUUIDFromBytes((tool.kind() + "\n" + tool.account() + "\n" + r.remoteId() + "\n" + r.version())
                .getBytes(StandardCharsets.UTF_8)), source, imported);
        // the tool's own cross-user identity (BibSonomy's interhash) first, then DOI, URL, title
        Optional<UUID> match = r.identityHint() == null ? Optional.empty() : view.findKey(MatchKeys.hint(tool.kind(), r.identityHint()));
        if (match.isEmpty()) {
            match = view.findMatch(r.metadata());
        }
        if (match.isPresent()) {
            DigitalEntity de = view.load(match.get());
            Optional<Decision> moved = relinked(tool, r, de, source, view);
            if (moved.isPresent()) {
                return moved.get();
            }
            return new Decision(new ImportOutcome(ImportOutcome.Kind.MERGED, r.remoteId(), de.id(), null), new Append(de.id(), de.version(), List.of(event)));
        }
        UUID id = ids.next();
        return new Decision(new ImportOutcome(ImportOutcome.Kind.CREATED, r.remoteId(), id, null), new Append(id, 0, List.of(event)));
    }

    /**
     * A record the tool lists under a new id that is a copy this DE already has under its former
     * id (a BibSonomy post edited on the site gets a new hash): the remote change is merged and the
     * replica re-keyed, rather than a second replica linked and the old one left behind.
     */
    private Optional<Decision> relinked(AnnotationTool tool, RemoteRecord r, DigitalEntity de, String source, PendingView view) {
        for (Replica former : de.replicas()) {
            if (former.tool().equals(tool.kind()) && Objects.equals(former.account(), tool.account()) && !former.remoteId().equals(r.remoteId())
                    && tool.succeeds(r, new RemoteRecord(former.remoteId(), former.remoteVersion(), former.synced(), former.identityHint(), former.shadow()))) {
                List<EntityEvent> events = new ArrayList<>(ReplicaMerge.remoteChanges(former.synced(), r.metadata(), de.metadata(),
                        view.policy, tool.kind(), tool.account(), tool.fieldsKept(), de.updatedAt(), tool.modifiedAt(r)));
                events.add(new ReplicaLinked(tool.kind(), tool.account(), r.remoteId(), r.version(), r.metadata(), r.shadow(), former.remoteId(),
                        r.privateCopy()));
                return Optional.of(new Decision(new ImportOutcome(ImportOutcome.Kind.UPDATED, r.remoteId(), de.id(), null),
                        new Append(de.id(), de.version(), events.stream().map(e -> new NewEvent(UUID.randomUUID(), source, e)).toList())));
            }
        }
        return Optional.empty();
    }

    /**
     * The store as a batch's earlier records leave it: the keys and states the batch's records
     * can need are read from the store once, up front; entities that earlier records of the batch
     * create or change are seen in their pending state.
     */
    private final class PendingView {
        private final Map<UUID, DigitalEntity> states = new HashMap<>();
        private final Map<MatchKeys.Key, List<UUID>> holders = new HashMap<>();
        /** The account's conflict policy, read once per batch. */
        final ConflictPolicy policy;

        /** A view for one record, reading the store as it goes. */
        PendingView(ConflictPolicy policy) {
            this.policy = policy;
        }

        /** A view for a batch: every key the records could match, and the entities holding them, in two round trips. */
        PendingView(AnnotationTool tool, List<RemoteRecord> records, ConflictPolicy policy) {
            this.policy = policy;
            Set<MatchKeys.Key> wanted = new LinkedHashSet<>();
            for (RemoteRecord r : records) {
                wanted.add(MatchKeys.replica(tool.kind(), tool.account(), r.remoteId()));
                if (r.identityHint() != null) {
                    wanted.add(MatchKeys.hint(tool.kind(), r.identityHint()));
                }
                wanted.addAll(MatchKeys.of(r.metadata()));
            }
            Map<MatchKeys.Key, List<UUID>> found = store.findKeys(wanted);
            wanted.forEach(k -> holders.put(k, new ArrayList<>(found.getOrDefault(k, List.of()))));
            states.putAll(store.loadAll(found.values().stream().flatMap(List::stream).collect(Collectors.toSet())));
        }

        void apply(Append a) {
            DigitalEntity before = a.expectedVersion() == 0 ? DigitalEntity.empty(a.entityId()) : load(a.entityId());
            DigitalEntity after = before.appending(a.expectedVersion(), a.events(), Instant.EPOCH); // times are the store's to set
            MatchKeys.of(before).forEach(k -> holders.getOrDefault(k, new ArrayList<>()).remove(a.entityId()));
            MatchKeys.of(after).forEach(k -> {
                List<UUID> ids = holders.computeIfAbsent(k, x -> new ArrayList<>());
                if (!ids.contains(a.entityId())) {
                    ids.add(a.entityId());
                }
            });
            states.put(a.entityId(), after);
        }

        DigitalEntity load(UUID id) {
            DigitalEntity de = states.get(id);
            if (de == null) {
                de = store.load(id).orElseThrow(() -> new UnknownEntityException(id));
                states.put(id, de);
            }
            return de;
        }

        Optional<UUID> findReplica(String tool, String account, String remoteId) {
            return findKey(MatchKeys.replica(tool, account, remoteId));
        }

        Optional<UUID> findKey(MatchKeys.Key key) {
            return holders(key).stream().findFirst();
        }

        /** The first key (DOI, URL, title) whose holder is compatible with the record, as the store's findMatch decides. */
        Optional<UUID> findMatch(Metadata record) {
            return MatchKeys.firstMatch(record, this::holders, id -> load(id).metadata());
        }

        private List<UUID> holders(MatchKeys.Key k) {
            if (!holders.containsKey(k)) {
                holders.put(k, new ArrayList<>(store.findKeys(List.of(k)).getOrDefault(k, List.of())));
            }
            return holders.get(k);
        }
    }

    static String source(AnnotationTool tool) {
        String s = "replica:" + tool.kind() + ":" + tool.account();
        return s.length() > 200 ? s.substring(0, 200) : s;
    }
}
