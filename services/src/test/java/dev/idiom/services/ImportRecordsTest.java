package dev.idiom.services;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.idiom.db.TestDatabase;
import dev.idiom.events.ConflictResolved;
import dev.idiom.events.Field;
import dev.idiom.events.Metadata;
import dev.idiom.consistency.report.ImportOutcome;
import dev.idiom.consistency.report.ImportSummary;
import dev.idiom.wrappers.AnnotationTool;
import dev.idiom.wrappers.ChangePage;
import dev.idiom.wrappers.RemoteRecord;
import dev.idiom.wrappers.ToolLimits;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Import decisions on the real store, with a tool that hands over fixed records. */
class ImportRecordsTest {
    @TempDir
    Path dir;

    /**
     * A tool account holding the given records, nothing more; {@code complete}: its listing is a
     * full snapshot; a record succeeds a former copy when their shadows are equal (as a BibSonomy
     * post's key survives an edit on the site).
     */
    private record FixedTool(String kind, String account, List<RemoteRecord> records, boolean complete) implements AnnotationTool {
        FixedTool(String kind, String account, List<RemoteRecord> records) {
            this(kind, account, records, false);
        }

        @Override
        public boolean succeeds(RemoteRecord now, RemoteRecord former) {
            return now.shadow() != null && now.shadow().equals(former.shadow());
        }

        @Override
        public ToolLimits limits() {
            return ToolLimits.LOCAL_FILE;
        }

        @Override
        public ChangePage changedSince(String cursor) {
            return new ChangePage(records, List.of(), List.of(), "end", false, complete);
        }

        @Override
        public Optional<RemoteRecord> fetch(String remoteId) {
            return records.stream().filter(r -> r.remoteId().equals(remoteId)).findFirst();
        }

        @Override
        public RemoteRecord create(Metadata metadata, boolean keepPrivate) {
            throw new UnsupportedOperationException();
        }

        @Override
        public RemoteRecord update(RemoteRecord known, Metadata wanted) {
            throw new UnsupportedOperationException();
        }

        @Override
        public void delete(String remoteId, String knownVersion) {
            throw new UnsupportedOperationException();
        }
    }

    private Idiom idiom() {
        return Idiom.start(IdiomConfig.from(Map.of("db-url", TestDatabase.freshUrl(), "data", dir.toString(), "local-tool-hosts", "true"), Map.of(),
                k -> null));
    }

    @Test
    void bibSonomysInterhashJoinsTwoUsersPostsThatNoOtherKeyWouldMatch() {
        try (Idiom idiom = idiom()) {
            Metadata alice = Metadata.EMPTY.with(Field.TITLE, "Optimistic replication").with(Field.TAGS, new TreeSet<>(Set.of("a")));
            Metadata bob = Metadata.EMPTY.with(Field.TITLE, "Optimistic Replication: a survey").with(Field.VENUE, "CSUR");
            ImportOutcome first = idiom.application().imports().importOne(new FixedTool("bibsonomy", "alice", List.of()),
                    new RemoteRecord("h-alice", "t1", alice, "INTER1"));
            ImportOutcome second = idiom.application().imports().importOne(new FixedTool("bibsonomy", "bob", List.of()),
                    new RemoteRecord("h-bob", "t1", bob, "INTER1"));
            ImportOutcome third = idiom.application().imports().importOne(new FixedTool("bibsonomy", "carol", List.of()),
                    new RemoteRecord("h-carol", "t1", bob, "INTER2"));
            assertEquals(ImportOutcome.Kind.CREATED, first.kind());
            assertEquals(ImportOutcome.Kind.MERGED, second.kind());
            assertEquals(first.entityId(), second.entityId());
            assertEquals(ImportOutcome.Kind.CREATED, third.kind(), "another interhash, and nothing else matches");
            assertEquals("CSUR", idiom.store().load(first.entityId()).orElseThrow().metadata().venue());
        }
    }

    @Test
    void aReplicaChangedRemotelyBringsOnlyTheFieldsIdiomLeftAloneAndMergesTags() {
        try (Idiom idiom = idiom()) {
            Metadata v1 = Metadata.EMPTY.with(Field.TITLE, "Gossip").with(Field.YEAR, 1987).with(Field.TAGS, new TreeSet<>(Set.of("a", "b")));
            FixedTool tool = new FixedTool("zotero", "users/1", List.of());
            ImportOutcome created = idiom.application().imports().importOne(tool, new RemoteRecord("K1", "1", v1));
            var id = created.entityId();
            // Idiom changes the title and adds tag c; the tool changes title and year, drops b, adds d
            var de = idiom.store().load(id).orElseThrow();
            idiom.application().writes().patch(id, Map.of(Field.TITLE, "Gossip (Idiom)", Field.TAGS, new TreeSet<>(Set.of("a", "b", "c"))),
                    de.version(), "test");
            Metadata v2 = v1.with(Field.TITLE, "Gossip (tool)").with(Field.YEAR, 1988).with(Field.TAGS, new TreeSet<>(Set.of("a", "d")));
            ImportOutcome updated = idiom.application().imports().importOne(tool, new RemoteRecord("K1", "2", v2));
            assertEquals(ImportOutcome.Kind.UPDATED, updated.kind());
            Metadata now = idiom.store().load(id).orElseThrow().metadata();
            assertEquals("Gossip (Idiom)", now.title(), "both changed it: the default policy keeps Idiom's value");
            ConflictResolved conflict = idiom.store().history(id).stream().map(e -> e.event()).filter(ConflictResolved.class::isInstance)
                    .map(ConflictResolved.class::cast).findFirst().orElseThrow();
            assertEquals(new ConflictResolved(Field.TITLE, "Gossip", "Gossip (Idiom)", "Gossip (tool)", "Gossip (Idiom)", "prefer-idiom", "zotero",
                    "users/1"), conflict, "both values, the base, the winner and the policy are kept");
            assertEquals(1988, now.year(), "only the tool changed it: taken");
            assertEquals(new TreeSet<>(Set.of("a", "c", "d")), now.tags(), "tags merge as sets");
            assertEquals(ImportOutcome.Kind.UNCHANGED, idiom.application().imports().importOne(tool, new RemoteRecord("K1", "2", v2)).kind());
        }
    }

    @Test
    void aFullSnapshotReportsTheCopiesItNoLongerListsAndTheShadowIsKept() {
        try (Idiom idiom = idiom()) {
            RemoteRecord a = new RemoteRecord("https://a.example/", "m1", Metadata.EMPTY.with(Field.TITLE, "A").with(Field.URL, "https://a.example/"),
                    null, "{\"href\":\"https://a.example/\",\"shared\":\"no\"}");
            RemoteRecord b = new RemoteRecord("https://b.example/", "m1", Metadata.EMPTY.with(Field.TITLE, "B").with(Field.URL, "https://b.example/"));
            ImportSummary first = idiom.application().imports().importAll(new FixedTool("pinboard", "curator", List.of(a, b), true), true,
                    (soFar, done, size, last) -> {});
            assertEquals(List.of(), first.deletedRemoteIds());
            UUID id = idiom.application().imports().download(new FixedTool("pinboard", "curator", List.of(a)), a.remoteId()).entityId();
            assertEquals(a.shadow(), idiom.store().load(id).orElseThrow().replicas().getFirst().shadow(), "the record as the tool gave it");

            ImportSummary second = idiom.application().imports().importAll(new FixedTool("pinboard", "curator", List.of(b), true), true,
                    (soFar, done, size, last) -> {});
            assertEquals(List.of("https://a.example/"), second.deletedRemoteIds());
            ImportSummary partial = idiom.application().imports().importAll(new FixedTool("pinboard", "curator", List.of(b), false), true,
                    (soFar, done, size, last) -> {});
            assertEquals(List.of(), partial.deletedRemoteIds(), "a listing that is not a snapshot says nothing of what it leaves out");
        }
    }

    @Test
    void aCopyListedUnderANewIdThatSucceedsAKnownOneIsReKeyedNotLinkedTwice() {
        try (Idiom idiom = idiom()) {
            Metadata v1 = Metadata.EMPTY.with(Field.TITLE, "Epidemic algorithms").with(Field.YEAR, 1987);
            ImportOutcome first = idiom.application().imports().importOne(new FixedTool("bibsonomy", "alice", List.of()),
                    new RemoteRecord("hash1", "t1", v1, "INTER1", "key:demers1987"));
            ImportOutcome edited = idiom.application().imports().importOne(new FixedTool("bibsonomy", "alice", List.of()),
                    new RemoteRecord("hash2", "t2", v1.with(Field.VENUE, "PODC"), "INTER1", "key:demers1987"));
            assertEquals(ImportOutcome.Kind.UPDATED, edited.kind());
            var de = idiom.store().load(first.entityId()).orElseThrow();
            assertEquals(List.of("hash2"), de.replicas().stream().map(r -> r.remoteId()).toList(), "re-keyed, the old id gone");
            assertEquals("PODC", de.metadata().venue());
        }
    }

    @Test
    void theAccountsConflictPolicyDecidesWhichValueWins() {
        try (Idiom idiom = idiom()) {
            idiom.application().tools().accounts().put("lib", "zotero", "http://127.0.0.1:9/", "users/7", null, null, "prefer-remote");
            FixedTool tool = new FixedTool("zotero", "users/7", List.of());
            Metadata v1 = Metadata.EMPTY.with(Field.TITLE, "Gossip").with(Field.VENUE, "PODC");
            var id = idiom.application().imports().importOne(tool, new RemoteRecord("K1", "1", v1)).entityId();
            idiom.application().writes().patch(id, Map.of(Field.VENUE, "PODC '87"), 1, "test");
            idiom.application().imports().importOne(tool, new RemoteRecord("K1", "2", v1.with(Field.VENUE, "Proc. PODC")));
            assertEquals("Proc. PODC", idiom.store().load(id).orElseThrow().metadata().venue(), "prefer-remote: the replica's value wins");
            assertEquals(1, idiom.store().history(id).stream().filter(e -> e.event() instanceof ConflictResolved).count());
        }
    }
}
