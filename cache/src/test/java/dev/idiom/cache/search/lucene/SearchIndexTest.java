package dev.idiom.cache.search.lucene;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idiom.events.Author;
import dev.idiom.events.DigitalEntity;
import dev.idiom.events.EventCodec;
import dev.idiom.events.Field;
import dev.idiom.events.InvalidValueException;
import dev.idiom.events.Metadata;
import dev.idiom.events.RecordImported;
import dev.idiom.events.SearchPage;
import dev.idiom.events.SearchPage.FacetCount;
import dev.idiom.events.SearchQuery;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.IntPoint;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.store.FSDirectory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What a portal relies on from search: relevance, tolerance, filters, facets and paging. */
class SearchIndexTest {
    private final LuceneSearchIndex index = LuceneSearchIndex.inMemory(new EventCodec());
    private long position;

    @AfterEach
    void close() {
        index.close();
    }

    @Test
    void anExactTitleRanksAboveAScatteredMatch() {
        DigitalEntity scattered = put(de("Consistency of replicated data", "Optimistic methods", 2001, "article-journal", "replication", "Saito"));
        DigitalEntity exact = put(de("Optimistic Replication", null, 2005, "article-journal", "survey", "Shapiro"));
        DigitalEntity longer = put(de("Optimistic replication for mobile replication systems", null, 2003, "article-journal", "mobile", "Terry"));

        List<UUID> order = ids(search(SearchQuery.text("optimistic replication", 10)));

        assertEquals(exact.id(), order.getFirst(), "the exact title first");
        assertEquals(Set.of(scattered.id(), exact.id(), longer.id()), Set.copyOf(order));
        assertEquals(longer.id(), order.get(1), "the title phrase before words scattered over fields");
    }

    @Test
    void theWordsInOrderInATitleRankAboveTheSameWordsApart() {
        // the shorter title would win on the words alone (BM25 favours short fields)
        DigitalEntity apart = put(de("Replication, optimistic", null, 2001, "article-journal", "x", "Saito"));
        DigitalEntity inOrder = put(de("Optimistic replication in mobile systems today", null, 2003, "article-journal", "x", "Terry"));

        assertEquals(List.of(inOrder.id(), apart.id()), ids(search(SearchQuery.text("optimistic replication", 10))));
        assertEquals(List.of(apart.id(), inOrder.id()), ids(search(SearchQuery.text("replication optimistic", 10))), "and the other way round");
    }

    @Test
    void anAuthorQueryFindsMullerFromMuller() {
        DigitalEntity muller = put(de("Caches", null, 2010, "article-journal", "cache", "Müller"));
        DigitalEntity miller = put(de("Other", null, 2010, "article-journal", "cache", "Miller"));
        put(de("Third", null, 2010, "article-journal", "cache", "Smith"));

        assertEquals(List.of(muller.id(), miller.id()), ids(search(SearchQuery.text("muller", 10))),
                "Müller first; Miller is one letter off, so a typo match, ranked below");
        assertEquals(List.of(muller.id()), ids(search(new SearchQuery(null, null, "MULLER", null, null, null, null, null, null, 10))),
                "author= is the exact family name, accents and case folded");
    }

    @Test
    void aOneLetterTypoStillFindsTheWork() {
        DigitalEntity paxos = put(de("Paxos made simple", null, 2001, "article-journal", "consensus", "Lamport"));
        put(de("Raft in search of an understandable consensus algorithm", null, 2014, "paper-conference", "consensus", "Ongaro"));

        assertEquals(List.of(paxos.id()), ids(search(SearchQuery.text("paxso", 10))), "transposed letters");
        assertEquals(List.of(paxos.id()), ids(search(SearchQuery.text("lamprt made", 10))), "a letter missing in the author");
        assertEquals(List.of(paxos.id()), ids(search(SearchQuery.text("simp", 10))), "the last word as typed so far");
    }

    @Test
    void aQuotedPhraseMatchesOnlyItsWordsInOrder() {
        DigitalEntity inOrder = put(de("Eventual consistency today", null, 2013, "article-journal", "x", "Bailis"));
        put(de("Consistency, eventual and otherwise", null, 2013, "article-journal", "x", "Vogels"));

        assertEquals(List.of(inOrder.id()), ids(search(SearchQuery.text("\"eventual consistency\"", 10))));
        assertEquals(2, search(SearchQuery.text("eventual consistency", 10)).total());
    }

    @Test
    void everyWordOfAQuotedPhraseCountsAgainstTheWordCap() {
        // a title of exactly the cap's words; the phrase asks for them and then as many more as fit, that no DE has
        List<String> words = new ArrayList<>();
        for (int i = 0; i < RankedQuery.MAX_WORDS; i++) {
            words.add("word" + (char) ('a' + i % 26) + (char) ('a' + i / 26));
        }
        DigitalEntity de = put(de(String.join(" ", words), null, 2001, "article-journal", "x", "Long"));
        StringBuilder phrase = new StringBuilder("\"" + String.join(" ", words));
        for (int i = 0; phrase.length() < SearchQuery.MAX_CRITERION - 12; i++) {
            phrase.append(" absent").append(i); // as many as the longest criterion holds (~90 words)
        }
        SearchQuery q = SearchQuery.text(phrase.append('"').toString(), 10);
        assertEquals(List.of(de.id()), ids(search(q)), "the words past the cap are not part of the query, inside a phrase or not");
    }

    @Test
    void filtersNarrowByYearTypeVenueToolTagAndKeepTheirExactMeaning() {
        DigitalEntity a = put(imported(de("Alpha", "Réseaux", 1999, "article-journal", "Net", "A"), "zotero"));
        DigitalEntity b = put(de("Beta", "Reseaux", 2004, "book", "net", "B"));
        put(de("Gamma", "Other", 2010, "article-journal", "networks", "C"));

        assertEquals(List.of(a.id()), ids(search(query(null, null, 1990, 2000, null, null, null))));
        assertEquals(List.of(b.id()), ids(search(query(null, null, null, null, "BOOK", null, null))));
        assertEquals(Set.of(a.id(), b.id()), Set.copyOf(ids(search(query(null, null, null, null, null, "reseaux", null)))));
        assertEquals(List.of(a.id()), ids(search(query(null, null, null, null, null, null, "zotero"))));
        assertEquals(Set.of(a.id(), b.id()), Set.copyOf(ids(search(query(null, "NET", null, null, null, null, null)))),
                "tag= is the whole tag, folded: 'networks' is not 'net'");
        assertEquals(0, search(query("alpha", null, 2000, null, null, null, null)).total(), "text and filters all apply");
    }

    @Test
    void facetsCountEveryMatchByTagYearTypeAndVenue() {
        for (int i = 0; i < 30; i++) {
            put(de("Work " + i, i % 3 == 0 ? "SOSP" : "OSDI", 2000 + i % 2, i % 5 == 0 ? "book" : "article-journal", "t" + i % 4, "Author"));
        }
        SearchPage all = search(SearchQuery.text("work", 5));

        assertEquals(30, all.total());
        assertEquals(List.of(new FacetCount("2000", 15), new FacetCount("2001", 15)), all.facets().get("year"));
        assertEquals(List.of(new FacetCount("article-journal", 24), new FacetCount("book", 6)), all.facets().get("type"));
        assertEquals(List.of(new FacetCount("OSDI", 20), new FacetCount("SOSP", 10)), all.facets().get("venue"));
        assertEquals(List.of(new FacetCount("t0", 8), new FacetCount("t1", 8), new FacetCount("t2", 7), new FacetCount("t3", 7)),
                all.facets().get("tag"));

        SearchPage books = search(query("work", null, null, null, "book", null, null));
        assertEquals(Map.of("2000", 3L, "2001", 3L), counts(books.facets().get("year")), "facets follow the query");
    }

    @Test
    void theFacetsOfAHugeMatchSetAreEstimatedFromASampleAndSaySo() {
        List<DigitalEntity> batch = new ArrayList<>();
        int n = 3 * LuceneSearchIndex.EXACT_UP_TO;
        for (int i = 0; i < n; i++) { // years 50 / 30 / 20 %, a quarter books
            int year = i % 10 < 5 ? 2000 : i % 10 < 8 ? 2001 : 2002;
            batch.add(de("common work " + i, null, year, i % 4 == 0 ? "book" : "article-journal", "t", "A"));
        }
        index.put(batch, ++position);
        index.refresh();

        SearchPage byTag = search(query(null, "t", null, null, null, null, null));
        assertTrue(byTag.estimated());
        assertEquals(n, byTag.total(), "a term filter's total is counted exactly even when its facets are sampled");
        List<FacetCount> years = byTag.facets().get("year");
        assertEquals(List.of("2000", "2001", "2002"), years.stream().map(FacetCount::value).toList(), "the values in the order of their true counts");
        assertWithin(n * 0.5, years.get(0).count());
        assertWithin(n * 0.3, years.get(1).count());
        assertWithin(n * 0.2, years.get(2).count());
        assertWithin(n * 0.75, counts(byTag.facets().get("type")).get("article-journal"));

        SearchPage text = search(SearchQuery.text("common", 50));
        assertTrue(text.estimated());
        assertWithin(n, text.total());
        assertEquals(50, text.entities().size(), "the page itself is exact");
        assertEquals(text.facets(), search(SearchQuery.text("common", 50)).facets(), "the same view answers the same query alike");

        SearchPage books2002 = search(query("common", null, 2002, 2002, "book", null, null));
        assertFalse(books2002.estimated(), "a narrow query is counted exactly");
        assertEquals(n / 20, books2002.total());
    }

    /** A sampled count within 10 % of the true one (about 10,000 matches are sampled; this is several standard deviations). */
    private static void assertWithin(double expected, long actual) {
        assertTrue(Math.abs(actual - expected) <= expected * 0.1, "estimate " + actual + " within 10 % of " + expected);
    }

    @Test
    void pagingThroughTenThousandHitsHasNoDuplicatesOrGapsRankedOrNot() {
        List<DigitalEntity> batch = new ArrayList<>();
        for (int i = 0; i < 10_000; i++) {
            // a few title lengths, so scores differ and many tie
            batch.add(de("common " + "word ".repeat(i % 7) + i, null, 2000, "article-journal", "t", "A"));
        }
        index.put(batch, ++position);
        index.refresh();

        for (SearchQuery first : List.of(SearchQuery.text("common", 200), query(null, "t", null, null, null, null, null))) {
            Set<UUID> seen = new HashSet<>();
            int pages = 0;
            for (SearchPage page = search(first); ; page = search(first.after(page.nextCursor()))) {
                pages++;
                for (DigitalEntity de : page.entities()) {
                    assertTrue(seen.add(de.id()), "no duplicate: " + de.id());
                }
                assertEquals(10_000, page.total());
                assertFalse(page.estimated(), "10,000 matches are counted one by one, though the index expects more of a text query");
                if (page.nextCursor() == null) {
                    break;
                }
            }
            assertEquals(10_000, seen.size(), "no gaps");
            assertEquals(10_000 / first.limit(), pages);
        }
    }

    @Test
    void aCursorKeepsItsViewWhileWritesGoOn() {
        for (int i = 0; i < 100; i++) {
            put(de("stable " + i, null, 2000, "article-journal", "t", "A"));
        }
        SearchPage first = search(SearchQuery.text("stable", 60));
        for (int i = 0; i < 50; i++) {
            put(de("stable newcomer " + i, null, 2000, "article-journal", "t", "A")); // changes scores and the set
        }
        SearchPage second = search(SearchQuery.text("stable", 60).after(first.nextCursor()));

        Set<UUID> both = new HashSet<>(ids(first));
        second.entities().forEach(de -> assertTrue(both.add(de.id()), "no duplicate"));
        assertEquals(100, both.size(), "the 100 of the first view, no more, no less");
        assertNull(second.nextCursor());
        assertEquals(150, search(SearchQuery.text("stable", 60)).total(), "a new search sees the writes");
    }

    @Test
    void aWordInAThousandDEsIsTakenAsTypedRarerOnesAlsoMatchTheirTypos() {
        DigitalEntity typo = put(de("Paxes", null, 2001, "book", "t", "A")); // one letter from paxos
        List<DigitalEntity> batch = new ArrayList<>();
        for (int i = 0; i < RankedQuery.TAKEN_AS_TYPED - 1; i++) {
            batch.add(de("Paxos " + i, null, 2001, "article-journal", "t", "A"));
        }
        index.put(batch, ++position);
        index.refresh();
        SearchQuery books = query("paxos", null, null, null, "book", null, null);
        assertEquals(List.of(typo.id()), ids(search(books)), "a word in fewer DEs also matches its typos");

        put(de("Paxos once more", null, 2001, "article-journal", "t", "A"));
        assertEquals(0, search(books).total(), "a word in a thousand DEs matches as typed");
        assertEquals(RankedQuery.TAKEN_AS_TYPED, search(SearchQuery.text("paxos", 10)).total());
    }

    @Test
    void anIndexOfTheOlderShapeAnswersInIdOrderAndAsksToBeRebuilt(@TempDir Path dir) throws Exception {
        EventCodec codec = new EventCodec();
        List<UUID> ids = new ArrayList<>();
        // documents as shape 1 wrote them: no numeric id key, the year a point only; no shape in the commit
        try (IndexWriter old = new IndexWriter(FSDirectory.open(dir), new IndexWriterConfig(new FoldingAnalyzer()))) {
            for (int i = 0; i < 120; i++) {
                DigitalEntity de = de("old " + i, null, 1990 + i % 20, "article-journal", "t", "A");
                ids.add(de.id());
                Document d = SearchDocument.of(de, codec).getFirst();
                d.removeField(SearchDocument.AUDIENCE);
                d.removeField(SearchDocument.ID_HIGH);
                d.removeField(SearchDocument.YEAR);
                d.add(new IntPoint(SearchDocument.YEAR, 1990 + i % 20));
                old.addDocument(d);
            }
            old.setLiveCommitData(Map.of("idiom.position", "7").entrySet());
            old.commit();
        }
        ids.sort(java.util.Comparator.comparing(UUID::toString));

        try (LuceneSearchIndex older = LuceneSearchIndex.open(dir, codec)) {
            assertTrue(older.outdated());
            List<UUID> seen = new ArrayList<>();
            SearchQuery first = query(null, "t", 2000, null, null, null, null);
            for (SearchPage page = older.search(first); ; page = older.search(first.after(page.nextCursor()))) {
                seen.addAll(ids(page));
                if (page.nextCursor() == null) {
                    break;
                }
            }
            assertEquals(ids.stream().filter(id -> seen.contains(id)).toList(), seen, "in id order, across pages");
            assertEquals(60, seen.size(), "the years 2000-2009 found by their points");
        }
        try (LuceneSearchIndex fresh = LuceneSearchIndex.open(dir.resolve("next"), codec)) {
            fresh.put(List.of(de("new", null, 2000, "article-journal", "t", "A")), 1);
            assertFalse(fresh.outdated());
        }
        try (LuceneSearchIndex reopened = LuceneSearchIndex.open(dir.resolve("next"), codec)) {
            assertFalse(reopened.outdated(), "the shape is kept in the commit");
            assertEquals(1, reopened.search(query(null, "t", 2000, 2000, null, null, null)).total(), "the year found by its doc value");
        }
    }

    @Test
    void aForeignCursorIsRefusedAndAnEmptyRangeMatchesNothing() {
        put(de("Anything", null, 2005, "article-journal", "t", "A"));
        assertThrows(InvalidValueException.class, () -> SearchQuery.text("x", 10).after("zz"));
        assertEquals(0, search(query(null, null, 2010, 2000, null, null, null)).total());
        assertEquals(0, search(SearchQuery.text("nothingmatchesthis", 10)).total());
    }

    private SearchPage search(SearchQuery q) {
        return index.search(q);
    }

    private static SearchQuery query(String text, String tag, Integer from, Integer to, String type, String venue, String tool) {
        return new SearchQuery(text, tag, null, from, to, type, venue, tool, null, 50);
    }

    private DigitalEntity put(DigitalEntity de) {
        index.put(List.of(de), ++position);
        index.refresh();
        return de;
    }

    private static DigitalEntity de(String title, String venue, int year, String type, String tag, String family) {
        Metadata m = Metadata.EMPTY.with(Field.TYPE, type).with(Field.TITLE, title).with(Field.AUTHORS, List.of(new Author(family, "")))
                .with(Field.YEAR, year).with(Field.VENUE, venue).with(Field.TAGS, new TreeSet<>(Set.of(tag)));
        UUID id = UUID.randomUUID();
        return DigitalEntity.empty(id).apply(new RecordImported(m, "idiom", id.toString()), Instant.now());
    }

    private static DigitalEntity imported(DigitalEntity de, String tool) {
        return de.apply(new RecordImported(de.metadata(), tool, "acct", "R-" + de.id(), "1"), Instant.now());
    }

    private static List<UUID> ids(SearchPage page) {
        return page.entities().stream().map(DigitalEntity::id).toList();
    }

    private static Map<String, Long> counts(List<FacetCount> facet) {
        Map<String, Long> m = new java.util.HashMap<>();
        facet.forEach(f -> m.put(f.value(), f.count()));
        return m;
    }
}
