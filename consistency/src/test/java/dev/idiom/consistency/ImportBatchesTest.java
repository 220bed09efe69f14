package dev.idiom.consistency;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idiom.consistency.report.ImportOutcome;
import dev.idiom.consistency.report.ImportSummary;
import dev.idiom.consistency.report.Progress;
import dev.idiom.events.Author;
import dev.idiom.events.Field;
import dev.idiom.events.Metadata;
import dev.idiom.events.Replica;
import java.nio.file.Files;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * An import decides each batch of records while the batch before it commits: a record of the next
 * batch must still see what the committing batch links (a DE that gained a copy of this file there is
 * no match for another entry of the file), and a refusal in that batch (another writer moved a DE)
 * must not carry into the next one's decisions.
 */
class ImportBatchesTest {
    private final EngineFixture f = new EngineFixture();

    @AfterEach
    void close() {
        f.close();
    }

    /** {@code n} articles with their own DOIs; the entry at {@code duplicateAt} carries entry {@code original}'s DOI under another key. */
    private void bibFileOf(int n, int duplicateAt, int original) throws Exception {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < n; i++) {
            int doi = i == duplicateAt ? original : i;
            b.append("@article{k").append(i).append(",\n  title = {Study ").append(i).append(" of optimistic replication},\n")
                    .append("  author = {Saito").append(i).append(", Yasushi},\n  year = {2005},\n  doi = {10.1000/").append(doi).append("}\n}\n\n");
        }
        Files.writeString(f.bibFile, b.toString());
    }

    private List<UUID> holdersOfDoi(int doi) {
        return f.store.findKeys(List.of(new dev.idiom.events.MatchKeys.Key(dev.idiom.events.MatchKeys.DOI, "10.1000/" + doi)))
                .getOrDefault(new dev.idiom.events.MatchKeys.Key(dev.idiom.events.MatchKeys.DOI, "10.1000/" + doi), List.of());
    }

    private List<String> fileCopies(UUID id) {
        return f.load(id).replicas().stream().filter(r -> r.tool().equals("bibtex")).map(Replica::remoteId).sorted().toList();
    }

    private UUID knownWork() {
        return f.entered(Metadata.EMPTY.with(Field.TYPE, "article-journal").with(Field.TITLE, "Optimistic replication")
                .with(Field.AUTHORS, List.of(new Author("Saito", "Yasushi"))).with(Field.YEAR, 2005).with(Field.DOI, "10.1000/3"));
    }

    /** The DE of the second batch's entry that shares k3's DOI: its own, with only that entry as a copy. */
    private void duplicateHasItsOwnDe(UUID known) {
        List<UUID> holders = holdersOfDoi(3);
        assertEquals(2, holders.size(), "the two entries of one file that share a DOI stay two DEs: " + holders);
        UUID other = holders.stream().filter(id -> !id.equals(known)).findFirst().orElseThrow();
        assertEquals(List.of("k" + (Pull.BATCH + 5)), fileCopies(other));
    }

    @Test
    void aRecordOfTheNextBatchSeesTheCopyTheBatchStillCommittingLinksAndKeepsItsOwnDe() throws Exception {
        UUID known = knownWork();
        int n = Pull.BATCH + 20;
        bibFileOf(n, Pull.BATCH + 5, 3); // k3 joins the known DE in the first batch; its duplicate in the file must not
        // the first batch's commit is slow: the second batch is decided before it is in the store
        f.beforeNextBatch.set(() -> sleep(500));

        ImportSummary s = f.engine.pull().importAll(f.tools.file, true, Progress.SILENT);

        assertEquals(n - 1, s.count(ImportOutcome.Kind.CREATED), s.toString());
        assertEquals(1, s.count(ImportOutcome.Kind.MERGED), s.toString());
        assertEquals(List.of("k3"), fileCopies(known), "the known DE gains one copy of the file, not a second beside the first batch's");
        duplicateHasItsOwnDe(known);
    }

    @Test
    void aBatchDecidedOnARefusedBatchIsDecidedAgainAndNothingIsLostOrSkipped() throws Exception {
        UUID known = knownWork();
        int n = Pull.BATCH + 20;
        bibFileOf(n, Pull.BATCH + 5, 3); // k3 joins the known DE in the first batch, the duplicate in the second makes its own
        // another writer moves the known DE just before the first batch commits: k3's append is refused, decided again
        f.beforeNextBatch.set(() -> {
            sleep(300);
            f.editedInIdiom(known, Field.NOTES, "edited meanwhile");
        });

        ImportSummary s = f.engine.pull().importAll(f.tools.file, true, Progress.SILENT);

        assertEquals(n - 1, s.count(ImportOutcome.Kind.CREATED), s.toString());
        assertEquals(1, s.count(ImportOutcome.Kind.MERGED), s.toString());
        assertTrue(s.skipped().isEmpty(), s.toString());
        assertEquals(List.of("k3"), fileCopies(known));
        duplicateHasItsOwnDe(known);
        assertEquals("edited meanwhile", f.load(known).metadata().notes(), "the other writer's change is kept");
        assertEquals(n, f.store.findKeys(List.of(dev.idiom.events.MatchKeys.account("bibtex", f.tools.file.account())))
                .values().stream().mapToInt(List::size).sum(), "every entry is in exactly one DE, none twice");
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
