package dev.idiom.cache.search.lucene;

import dev.idiom.cache.search.SearchIndex;
import dev.idiom.events.DigitalEntity;
import dev.idiom.events.EventCodec;
import dev.idiom.events.InvalidValueException;
import dev.idiom.events.SearchPage;
import dev.idiom.events.SearchQuery;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.document.LongField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.FieldDoc;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.ScoreMode;
import org.apache.lucene.search.ScorerSupplier;
import org.apache.lucene.search.SearcherLifetimeManager;
import org.apache.lucene.search.SearcherManager;
import org.apache.lucene.search.Sort;
import org.apache.lucene.search.SortField;
import org.apache.lucene.search.SortedNumericSelector;
import org.apache.lucene.search.TopFieldCollectorManager;
import org.apache.lucene.search.TopFieldDocs;
import org.apache.lucene.search.Weight;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.store.NRTCachingDirectory;
import org.apache.lucene.util.BytesRef;

/**
 * The search index on Lucene: BM25 ranking ({@link RankedQuery}), facets ({@link FacetCounts}),
 * search-after paging. A page's cursor names the searcher (point-in-time view) that answered it,
 * kept a while so the next page reads the same view: no duplicates or gaps while writes go on.
 * Only one thread (the feed) puts and refreshes; any number search.
 */
public final class LuceneSearchIndex implements SearchIndex {
    private static final String POSITION = "idiom.position";
    /** The shape of the documents; an index without it is of shape 1 (no numeric id key), shape 2 has no title word pairs. */
    private static final String SHAPE = "idiom.shape";
    private static final int CURRENT_SHAPE = 7; // 4: documents by audience, JSON without shadows; 5: CSL types (article-journal…); 6: privacy by origin; 7: tool accounts
    /** Views kept for cursors: the newest 64, none older than five minutes (then a cursor reads the current view). */
    private static final int KEPT_VIEWS = 64;
    private static final double VIEW_SECONDS = 300;
    /** The id order: by the id's numeric first half, on which Lucene skips what cannot reach the page, then the id. */
    private static final Sort BY_ID = new Sort(LongField.newSortField(SearchDocument.ID_HIGH, false, SortedNumericSelector.Type.MIN),
            new SortField(SearchDocument.ID, SortField.Type.STRING));
    /** The same order in an index of shape 1. */
    private static final Sort BY_ID_TEXT = new Sort(new SortField(SearchDocument.ID, SortField.Type.STRING));
    private static final Sort BY_SCORE = new Sort(SortField.FIELD_SCORE, new SortField(SearchDocument.ID, SortField.Type.STRING));
    private static final Set<String> JSON_ONLY = Set.of(SearchDocument.JSON);

    private final Directory directory;
    private final EventCodec codec;
    private final Analyzer analyzer = new FoldingAnalyzer();
    private final IndexWriter writer;
    private final SearcherManager searchers;
    private final SearcherLifetimeManager views = new SearcherLifetimeManager();
    private final FacetCounts.Facets facets = new FacetCounts.Facets();
    /** Total and facets of recent (view, query) pairs. */
    private final Map<String, FacetCounts.Result> counted = Collections.synchronizedMap(new LinkedHashMap<>(256, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, FacetCounts.Result> eldest) {
            return size() > COUNTED;
        }
    });
    private static final int COUNTED = 256;
    /** Up to this many expected matches, the total and the facets are exact. */
    static final int EXACT_UP_TO = 20_000;
    /** Beyond, about this many matches are sampled for them. */
    static final int SAMPLE = 5_000;
    private static final int MIN_SAMPLE = 500;
    private volatile long position;
    private final int shape;

    private LuceneSearchIndex(Directory directory, EventCodec codec) throws IOException {
        this.directory = directory;
        this.codec = codec;
        // a refresh must not wait for the merge of the segments it flushed (Lucene's default waits up to 500 ms): measured
        // on a 100k index, 40 documents put and refreshed in a loop, refresh p99 185 ms / max 462 with it, 23 / 105 without
        IndexWriterConfig config = new IndexWriterConfig(analyzer).setOpenMode(IndexWriterConfig.OpenMode.CREATE_OR_APPEND)
                .setRAMBufferSizeMB(64).setMaxFullFlushMergeWaitMillis(0);
        this.writer = new IndexWriter(directory, config);
        Map<String, String> committed = new HashMap<>();
        Iterable<Map.Entry<String, String>> data = writer.getLiveCommitData();
        if (data != null) {
            data.forEach(e -> committed.put(e.getKey(), e.getValue()));
        }
        position = Long.parseLong(committed.getOrDefault(POSITION, "0"));
        shape = writer.getDocStats().maxDoc == 0 ? CURRENT_SHAPE : Integer.parseInt(committed.getOrDefault(SHAPE, "1"));
        this.searchers = new SearcherManager(writer, null);
    }

    /** The index in {@code dir} (created if absent), resuming from the position it last committed. */
    public static LuceneSearchIndex open(Path dir, EventCodec codec) {
        try {
            // small new segments stay in memory until merged or committed: refreshing every few ms must not create files each time
            return new LuceneSearchIndex(new NRTCachingDirectory(FSDirectory.open(dir), 8, 64), codec);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open the search index in " + dir + ": " + e.getMessage(), e);
        }
    }

    /** An index in memory (tests, and a node started without a data directory for it). */
    public static LuceneSearchIndex inMemory(EventCodec codec) {
        try {
            return new LuceneSearchIndex(new ByteBuffersDirectory(), codec);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void put(Collection<DigitalEntity> entities, long upTo) {
        write(entities, upTo, true);
    }

    /** No delete term per document: each one is buffered and resolved against every segment at the next flush. */
    @Override
    public void add(Collection<DigitalEntity> entities, long upTo) {
        write(entities, upTo, false);
    }

    private void write(Collection<DigitalEntity> entities, long upTo, boolean replacing) {
        try {
            for (DigitalEntity de : entities) {
                if (!de.live()) { // in the trash, purged or merged away: not found by search
                    if (replacing) {
                        writer.deleteDocuments(new Term(SearchDocument.ID, de.id().toString()));
                    }
                    continue;
                }
                if (replacing) {
                    writer.updateDocuments(new Term(SearchDocument.ID, de.id().toString()), SearchDocument.of(de, codec));
                } else {
                    writer.addDocuments(SearchDocument.of(de, codec));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("indexing failed: " + e.getMessage(), e);
        }
        synchronized (this) { // IndexWriter takes documents from several threads; the position must only move forward
            position = Math.max(position, upTo);
        }
    }

    @Override
    public long position() {
        return position;
    }

    /**
     * Documents of shape 1 lack the numeric id key and the year's doc value: such an index sorts by the id's text and finds
     * years by points only; of shape 2, the title's word pairs: it checks words in order by phrase. Slower, until rebuilt.
     */
    @Override
    public boolean outdated() {
        return shape < CURRENT_SHAPE;
    }

    @Override
    public long refresh() {
        long upTo = position; // everything put before this read is in the refreshed view
        try {
            searchers.maybeRefreshBlocking();
            int[] kept = {0};
            views.prune((ageSeconds, view) -> ageSeconds > VIEW_SECONDS || ++kept[0] > KEPT_VIEWS);
        } catch (IOException e) {
            throw new UncheckedIOException("refreshing the search index failed: " + e.getMessage(), e);
        }
        return upTo;
    }

    @Override
    public void commit() {
        try {
            writer.setLiveCommitData(Map.of(POSITION, Long.toString(position), SHAPE, Integer.toString(shape)).entrySet());
            writer.commit();
        } catch (IOException e) {
            throw new UncheckedIOException("committing the search index failed: " + e.getMessage(), e);
        }
    }

    @Override
    public boolean merging() {
        return writer.hasPendingMerges() || !writer.getMergingSegments().isEmpty(); // the first counts only merges not yet started
    }

    @Override
    public long documents() {
        try {
            IndexSearcher s = searchers.acquire();
            try {
                return s.getIndexReader().numDocs();
            } finally {
                searchers.release(s);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public SearchPage search(SearchQuery q) {
        Cursor after = Cursor.parse(q.cursor());
        try {
            IndexSearcher view = after == null ? null : views.acquire(after.view());
            boolean pinned = view != null;
            if (!pinned) {
                view = searchers.acquire();
            }
            try {
                // built against the view: how common each word is there decides whether its typos are looked for
                RankedQuery.Built built = RankedQuery.of(q, analyzer, shape, view);
                return search(view, forAudience(view, built.query(), q.privateRecords()), built.ranked(), after, q.limit());
            } finally {
                if (pinned) {
                    views.release(view);
                } else {
                    searchers.release(view);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("search failed: " + e.getMessage(), e);
        }
    }

    /**
     * Only the documents for this asker (see {@link SearchDocument#AUDIENCE}): the other audience's copy of a DE is left out.
     * A view that holds no such copy (no private data) gets the query as it is: the exclusion would cost a lone word the
     * block skipping it is built for.
     */
    private static Query forAudience(IndexSearcher view, Query query, boolean privateRecords) throws IOException {
        String notFor = privateRecords ? SearchDocument.PUBLIC_ONLY : SearchDocument.PRIVATE_RIGHT;
        if (view.getIndexReader().docFreq(new Term(SearchDocument.AUDIENCE, notFor)) == 0) {
            return query;
        }
        return new BooleanQuery.Builder().add(query, BooleanClause.Occur.MUST)
                .add(new org.apache.lucene.search.TermQuery(new Term(SearchDocument.AUDIENCE, notFor)), BooleanClause.Occur.MUST_NOT).build();
    }

    private SearchPage search(IndexSearcher view, Query query, boolean ranked, Cursor after, int limit) throws IOException {
        boolean idText = shape < 2;
        Sort order = ranked ? BY_SCORE : idText ? BY_ID_TEXT : BY_ID;
        FieldDoc afterDoc = after == null ? null : new FieldDoc(Integer.MAX_VALUE, after.score(), ranked ? new Object[] {after.score(), new BytesRef(after.id())}
                : idText ? new Object[] {new BytesRef(after.id())} : new Object[] {after.high(), new BytesRef(after.id())});
        Query rewritten = view.rewrite(query); // typos and prefixes expanded once, for the counting and the page
        // total and facets depend only on the view and the query: the next pages of a cursor, and the
        // same query again, reuse them
        String key = ((DirectoryReader) view.getIndexReader()).getVersion() + "|" + query;
        FacetCounts.Result counts = counted.get(key);
        if (counts == null) {
            counts = estimate(view, rewritten);
            if (counts == null) { // every match counted, unscored: the optional clauses that only rank are not even evaluated
                counts = view.search(rewritten, new FacetCounts(facets));
            }
            counted.put(key, counts);
        }
        // one more than the page, to know whether a next page exists; counted apart, so the page may skip
        // documents that cannot enter it
        TopFieldDocs hits = view.search(rewritten, new TopFieldCollectorManager(order, limit + 1, afterDoc, limit + 1));
        StoredFields stored = view.storedFields();
        List<DigitalEntity> entities = new ArrayList<>();
        ScoreDoc[] docs = hits.scoreDocs;
        for (int i = 0; i < Math.min(limit, docs.length); i++) {
            entities.add(codec.entity(stored.document(docs[i].doc, JSON_ONLY).getBinaryValue(SearchDocument.JSON).utf8ToString()));
        }
        String next = null;
        if (docs.length > limit) {
            FieldDoc last = (FieldDoc) docs[limit - 1];
            float score = ranked ? (Float) last.fields[0] : 0f;
            String id = ((BytesRef) last.fields[last.fields.length - 1]).utf8ToString(); // the id breaks every tie, last
            next = new Cursor(views.record(view), score, id).toString();
        }
        return new SearchPage(entities, counts.total(), counts.estimated(), counts.facets(), next);
    }

    /**
     * The total and the facets of a query estimated from a random sample of about {@link #SAMPLE} of its
     * matches, scaled up, when it has more than {@link #EXACT_UP_TO} (counting half a million matches one
     * by one takes tens of milliseconds; a sample's counts are within a few percent for the values that
     * lead a facet); null when every match should be counted. How many to expect comes from each
     * segment's cost estimate, which is high for disjunctions (the sum of their clauses) and may be for
     * conjunctions: when the sample finds fewer than {@link #MIN_SAMPLE} matches, or scales up to no more
     * than {@link #EXACT_UP_TO}, every match is counted after all.
     */
    private FacetCounts.Result estimate(IndexSearcher view, Query rewritten) throws IOException {
        Weight weight = view.createWeight(rewritten, ScoreMode.COMPLETE_NO_SCORES, 1f);
        long known = 0;
        long expected = 0;
        for (LeafReaderContext leaf : view.getIndexReader().leaves()) {
            int n = weight.count(leaf); // -1 unless the segment can tell without visiting the matches
            if (n >= 0) {
                expected += n;
                known = known < 0 ? known : known + n;
            } else {
                known = -1;
                ScorerSupplier matches = weight.scorerSupplier(leaf);
                expected += matches == null ? 0 : matches.cost();
            }
        }
        if (expected <= EXACT_UP_TO) {
            return null;
        }
        double rate = (double) SAMPLE / expected;
        Query sampled = new BooleanQuery.Builder().add(rewritten, BooleanClause.Occur.FILTER).add(new SampledDocs(rate), BooleanClause.Occur.FILTER).build();
        FacetCounts.Result estimate = view.search(sampled, new FacetCounts(facets));
        return estimate.total() >= MIN_SAMPLE && estimate.total() / rate > EXACT_UP_TO ? estimate.scaledFrom(rate, known) : null;
    }

    @Override
    public void close() {
        try {
            views.close();
            searchers.close();
            commit();
            writer.close();
            directory.close();
        } catch (IOException e) {
            throw new UncheckedIOException("closing the search index failed: " + e.getMessage(), e);
        }
    }

    /** Where the previous page ended: the view that answered it, the last hit's score and id. */
    private record Cursor(long view, float score, String id) {
        static Cursor parse(String s) {
            if (s == null) {
                return null;
            }
            String[] parts = s.split("\\.", 3); // SearchQuery checked the shape
            try {
                return new Cursor(Long.parseUnsignedLong(parts[0], 16), Float.intBitsToFloat(Integer.parseUnsignedInt(parts[1], 16)), parts[2]);
            } catch (NumberFormatException e) {
                throw new InvalidValueException("cursor is not one this service gave out: " + s);
            }
        }

        /** The id's numeric sort key. */
        long high() {
            try {
                return SearchDocument.high(UUID.fromString(id));
            } catch (IllegalArgumentException e) {
                throw new InvalidValueException("cursor is not one this service gave out: " + this);
            }
        }

        @Override
        public String toString() {
            return Long.toHexString(view) + "." + Integer.toHexString(Float.floatToIntBits(score)) + "." + id;
        }
    }
}
