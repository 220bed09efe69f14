package dev.idiom.cache.lucene;

import dev.idiom.cache.SearchIndex;
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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.FieldDoc;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.MultiCollectorManager;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.SearcherLifetimeManager;
import org.apache.lucene.search.SearcherManager;
import org.apache.lucene.search.Sort;
import org.apache.lucene.search.SortField;
import org.apache.lucene.search.TopFieldCollectorManager;
import org.apache.lucene.search.TopFieldDocs;
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
    /** Views kept for cursors: the newest 64, none older than five minutes (then a cursor reads the current view). */
    private static final int KEPT_VIEWS = 64;
    private static final double VIEW_SECONDS = 300;
    private static final Sort BY_ID = new Sort(new SortField(SearchDocument.ID, SortField.Type.STRING));
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
    private volatile long position;

    private LuceneSearchIndex(Directory directory, EventCodec codec) throws IOException {
        this.directory = directory;
        this.codec = codec;
        IndexWriterConfig config = new IndexWriterConfig(analyzer).setOpenMode(IndexWriterConfig.OpenMode.CREATE_OR_APPEND)
                .setRAMBufferSizeMB(64);
        this.writer = new IndexWriter(directory, config);
        Iterable<Map.Entry<String, String>> committed = writer.getLiveCommitData();
        if (committed != null) {
            committed.forEach(e -> {
                if (e.getKey().equals(POSITION)) {
                    position = Long.parseLong(e.getValue());
                }
            });
        }
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
                if (replacing) {
                    writer.updateDocument(new Term(SearchDocument.ID, de.id().toString()), SearchDocument.of(de, codec.entity(de)));
                } else {
                    writer.addDocument(SearchDocument.of(de, codec.entity(de)));
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
            writer.setLiveCommitData(Map.of(POSITION, Long.toString(position)).entrySet());
            writer.commit();
        } catch (IOException e) {
            throw new UncheckedIOException("committing the search index failed: " + e.getMessage(), e);
        }
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
        RankedQuery.Built built = RankedQuery.of(q, analyzer); // the text analysed once
        boolean ranked = built.ranked();
        Query query = built.query();
        try {
            IndexSearcher view = after == null ? null : views.acquire(after.view());
            boolean pinned = view != null;
            if (!pinned) {
                view = searchers.acquire();
            }
            try {
                return search(view, query, ranked, after, q.limit());
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

    private SearchPage search(IndexSearcher view, Query query, boolean ranked, Cursor after, int limit) throws IOException {
        FieldDoc afterDoc = after == null ? null : new FieldDoc(Integer.MAX_VALUE, after.score(),
                ranked ? new Object[] {after.score(), new BytesRef(after.id())} : new Object[] {new BytesRef(after.id())});
        // total and facets depend only on the view and the query: the next pages of a cursor, and the
        // same query again, reuse them, and their top hits may then skip non-competitive documents
        String key = ((DirectoryReader) view.getIndexReader()).getVersion() + "|" + query;
        FacetCounts.Result facets = counted.get(key);
        TopFieldDocs hits;
        if (facets != null) {
            hits = view.search(query, new TopFieldCollectorManager(ranked ? BY_SCORE : BY_ID, limit + 1, afterDoc, limit + 1));
        } else {
            // one more than the page, to know whether a next page exists
            TopFieldCollectorManager top = new TopFieldCollectorManager(ranked ? BY_SCORE : BY_ID, limit + 1, afterDoc, Integer.MAX_VALUE);
            Object[] results = view.search(query, new MultiCollectorManager(top, new FacetCounts(this.facets)));
            hits = (TopFieldDocs) results[0];
            facets = (FacetCounts.Result) results[1];
            counted.put(key, facets);
        }
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
            String id = ((BytesRef) last.fields[ranked ? 1 : 0]).utf8ToString();
            next = new Cursor(views.record(view), score, id).toString();
        }
        return new SearchPage(entities, facets.total(), facets.facets(), next);
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

        @Override
        public String toString() {
            return Long.toHexString(view) + "." + Integer.toHexString(Float.floatToIntBits(score)) + "." + id;
        }
    }
}
