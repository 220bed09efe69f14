package dev.idiom.services.app;

import dev.idiom.events.Changes;
import dev.idiom.events.DigitalEntity;
import dev.idiom.events.EntityEvent;
import dev.idiom.events.EntityIds;
import dev.idiom.events.EventStore;
import dev.idiom.events.Field;
import dev.idiom.events.InvalidValueException;
import dev.idiom.events.MatchKeys;
import dev.idiom.events.Metadata;
import dev.idiom.events.NewEvent;
import dev.idiom.events.RecordImported;
import dev.idiom.events.Replica;
import dev.idiom.events.ReplicaLinked;
import dev.idiom.events.StaleVersionException;
import dev.idiom.services.tools.ToolAccounts;
import dev.idiom.wrappers.AnnotationTool;
import dev.idiom.wrappers.ChangePage;
import dev.idiom.wrappers.RemoteRecord;
import dev.idiom.wrappers.Skipped;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.UUID;

/**
 * Download = a major event. Each record from a tool becomes a new DE, or merges into the DE of
 * the same work (DOI, then URL, then title + year + first author), or — when it is already a
 * replica of a DE and changed remotely — brings the remote changes in where Idiom had not changed
 * the field. The import cursor is saved after each page's events committed.
 */
public final class ImportRecords {
    /** Told after each record: how far into the current page, and the tally so far. */
    public interface Progress {
        void step(ImportSummary soFar, int doneInPage, int pageSize, boolean lastPage);
    }

    private final EventStore store;
    private final EntityWrites writes;
    private final ToolAccounts cursors;
    private final EntityIds ids;

    public ImportRecords(EventStore store, EntityWrites writes, ToolAccounts cursors, EntityIds ids) {
        this.store = store;
        this.writes = writes;
        this.cursors = cursors;
        this.ids = ids;
    }

    /** Imports everything that changed since the last import from this tool account (or all). */
    public ImportSummary importAll(AnnotationTool tool, boolean fromStart, Progress progress) {
        ImportSummary summary = new ImportSummary();
        String cursor = fromStart ? null : cursors.cursor(tool.kind(), tool.account()).orElse(null);
        ChangePage page;
        do {
            page = tool.changedSince(cursor);
            for (Skipped s : page.skipped()) {
                summary.add(new ImportOutcome(ImportOutcome.Kind.SKIPPED, s.remoteId(), null, s.reason()));
            }
            int done = 0;
            for (RemoteRecord r : page.records()) {
                summary.add(importOne(tool, r));
                progress.step(summary, ++done, page.records().size(), !page.more());
            }
            summary.deletedRemotely(page.deleted().size());
            cursor = page.cursor();
            cursors.saveCursor(tool.kind(), tool.account(), cursor);
        } while (page.more());
        summary.finish(cursor);
        return summary;
    }

    /** Download: one record by its remote id. */
    public ImportOutcome download(AnnotationTool tool, String remoteId) {
        return tool.fetch(remoteId).map(r -> importOne(tool, r))
                .orElseThrow(() -> new InvalidValueException(tool.kind() + " " + tool.account() + " has no record " + remoteId));
    }

    public ImportOutcome importOne(AnnotationTool tool, RemoteRecord r) {
        if (r.metadata().title() == null || r.metadata().title().isBlank()) {
            return new ImportOutcome(ImportOutcome.Kind.SKIPPED, r.remoteId(), null, "the record has no title");
        }
        for (int attempt = 0; ; attempt++) {
            try {
                return attempt(tool, r);
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

    private ImportOutcome attempt(AnnotationTool tool, RemoteRecord r) {
        String source = source(tool);
        Optional<UUID> linked = store.findReplica(tool.kind(), tool.account(), r.remoteId());
        if (linked.isPresent()) {
            DigitalEntity de = store.load(linked.get()).orElseThrow();
            Replica replica = de.replica(tool.kind(), tool.account(), r.remoteId()).orElseThrow();
            if (Objects.equals(replica.remoteVersion(), r.version())) {
                return new ImportOutcome(ImportOutcome.Kind.UNCHANGED, r.remoteId(), de.id(), null);
            }
            List<EntityEvent> events = new ArrayList<>(remoteChanges(replica.synced(), r.metadata(), de.metadata()));
            events.add(new ReplicaLinked(tool.kind(), tool.account(), r.remoteId(), r.version(), r.metadata()));
            writes.append(de.id(), de.version(), events.stream().map(e -> new NewEvent(UUID.randomUUID(), source, e)).toList());
            return new ImportOutcome(ImportOutcome.Kind.UPDATED, r.remoteId(), de.id(), null);
        }
        RecordImported imported = new RecordImported(r.metadata(), tool.kind(), tool.account(), r.remoteId(), r.version(), r.identityHint());
        // (tool, account, remote id, version) names the event: a retried import cannot record it twice
        NewEvent event = new NewEvent(UUID.nameUUIDFromBytes((tool.kind() + "\n" + tool.account() + "\n" + r.remoteId() + "\n" + r.version())
                .getBytes(StandardCharsets.UTF_8)), source, imported);
        // the tool's own cross-user identity (BibSonomy's interhash) first, then DOI, URL, title
        Optional<UUID> match = r.identityHint() == null ? Optional.empty() : store.findKey(MatchKeys.hint(tool.kind(), r.identityHint()));
        if (match.isEmpty()) {
            match = store.findMatch(r.metadata());
        }
        if (match.isPresent()) {
            DigitalEntity de = store.load(match.get()).orElseThrow();
            writes.append(de.id(), de.version(), List.of(event));
            return new ImportOutcome(ImportOutcome.Kind.MERGED, r.remoteId(), de.id(), null);
        }
        UUID id = ids.next();
        writes.append(id, 0, List.of(event));
        return new ImportOutcome(ImportOutcome.Kind.CREATED, r.remoteId(), id, null);
    }

    /**
     * Three-way per field against the state last synced with the replica: where only the remote
     * changed the field, take it; where Idiom changed it too, keep Idiom's (conflicts are the
     * consistency engine's to record). Tags merge as sets.
     */
    static List<EntityEvent> remoteChanges(Metadata base, Metadata remote, Metadata mine) {
        List<EntityEvent> events = new ArrayList<>();
        for (Field f : Field.values()) {
            if (f == Field.TAGS) {
                SortedSet<String> merged = new TreeSet<>(mine.tags());
                remote.tags().stream().filter(t -> !base.tags().contains(t)).forEach(merged::add);
                base.tags().stream().filter(t -> !remote.tags().contains(t)).forEach(merged::remove);
                events.addAll(Changes.toSet(mine, f, merged));
            } else if (!Objects.equals(remote.get(f), base.get(f)) && Objects.equals(mine.get(f), base.get(f))) {
                events.addAll(Changes.toSet(mine, f, remote.get(f)));
            }
        }
        return events;
    }

    static String source(AnnotationTool tool) {
        String s = "replica:" + tool.kind() + ":" + tool.account();
        return s.length() > 200 ? s.substring(0, 200) : s;
    }
}
