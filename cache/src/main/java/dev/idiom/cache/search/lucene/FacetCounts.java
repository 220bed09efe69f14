package dev.idiom.cache.search.lucene;

import dev.idiom.events.SearchPage;
import dev.idiom.events.SearchPage.FacetCount;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.lucene.index.DocValues;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.SortedDocValues;
import org.apache.lucene.index.SortedSetDocValues;
import org.apache.lucene.index.TermsEnum;
import org.apache.lucene.search.Collector;
import org.apache.lucene.search.CollectorManager;
import org.apache.lucene.search.LeafCollector;
import org.apache.lucene.search.Scorable;
import org.apache.lucene.search.ScoreMode;
import org.apache.lucene.util.BytesRef;

/**
 * Counts every match (the total) and, per facet, how many matches have each value. Each facet's
 * values get stable global numbers (an append-only dictionary), and each segment, which never
 * changes, maps its own ordinals to them once in its life; a search then counts into one int array
 * per facet, with no strings and no per-reader ordinal map (an NRT refresh every few ms would
 * rebuild one each time). Only the top values are turned back into strings.
 */
final class FacetCounts implements CollectorManager<FacetCounts.Counter, FacetCounts.Result> {
    /** The values shown per facet: the most frequent first, ties by value. */
    static final int TOP = 10;

    /** The total and the facets; estimated ones were counted over a sample and scaled up. */
    record Result(long total, boolean estimated, Map<String, List<FacetCount>> facets) {
        /**
         * These counts, taken over a sample of each match with probability {@code rate}, as estimates
         * for all the matches; the total is {@code knownTotal} where the index could count it without
         * visiting the matches (-1 if not).
         */
        Result scaledFrom(double rate, long knownTotal) {
            Map<String, List<FacetCount>> scaled = new LinkedHashMap<>();
            facets.forEach((name, values) -> scaled.put(name, values.stream()
                    .map(v -> new FacetCount(v.value(), Math.max(1, Math.round(v.count() / rate)))).toList()));
            return new Result(knownTotal >= 0 ? knownTotal : Math.round(total / rate), true, scaled);
        }
    }

    private final Facets facets;

    FacetCounts(Facets facets) {
        this.facets = facets;
    }

    @Override
    public Counter newCollector() {
        return new Counter(facets);
    }

    @Override
    public Result reduce(Collection<Counter> counters) {
        long total = 0;
        int[][] sum = new int[SearchPage.FACETS.size()][];
        for (Counter c : counters) {
            total += c.total;
            for (int f = 0; f < sum.length; f++) {
                int[] counts = c.counts[f];
                if (sum[f] == null) {
                    sum[f] = counts.clone();
                } else {
                    int[] grown = sum[f].length >= counts.length ? sum[f] : Arrays.copyOf(sum[f], counts.length);
                    for (int i = 0; i < counts.length; i++) {
                        grown[i] += counts[i];
                    }
                    sum[f] = grown;
                }
            }
        }
        Map<String, List<FacetCount>> out = new LinkedHashMap<>();
        for (int f = 0; f < sum.length; f++) {
            out.put(SearchPage.FACETS.get(f), top(facets.dictionary(f), sum[f] == null ? new int[0] : sum[f]));
        }
        return new Result(total, false, out);
    }

    private static List<FacetCount> top(Dictionary dict, int[] counts) {
        PriorityQueue<FacetCount> best = new PriorityQueue<>(TOP + 1, ORDER.reversed());
        for (int id = 0; id < counts.length; id++) {
            if (counts[id] > 0 && (best.size() < TOP || counts[id] >= best.peek().count())) {
                best.add(new FacetCount(dict.value(id), counts[id]));
                if (best.size() > TOP) {
                    best.poll();
                }
            }
        }
        List<FacetCount> list = new ArrayList<>(best);
        list.sort(ORDER);
        return list;
    }

    private static final Comparator<FacetCount> ORDER =
            Comparator.comparingLong(FacetCount::count).reversed().thenComparing(FacetCount::value);

    /** Facet value dictionaries and each live segment's ordinal map into them; one per index. */
    static final class Facets {
        private final Dictionary[] dictionaries = new Dictionary[SearchPage.FACETS.size()];
        private final Map<IndexReader.CacheKey, int[][]> segments = new ConcurrentHashMap<>();

        Facets() {
            for (int i = 0; i < dictionaries.length; i++) {
                dictionaries[i] = new Dictionary();
            }
        }

        Dictionary dictionary(int facet) {
            return dictionaries[facet];
        }

        /** For each facet, this segment's ordinal → global value number. */
        int[][] of(LeafReaderContext leaf) throws IOException {
            IndexReader.CacheHelper helper = leaf.reader().getCoreCacheHelper();
            if (helper == null) {
                return map(leaf);
            }
            int[][] known = segments.get(helper.getKey());
            if (known == null) {
                known = map(leaf);
                if (segments.putIfAbsent(helper.getKey(), known) == null) {
                    helper.addClosedListener(segments::remove); // merged away: forget it
                }
            }
            return known;
        }

        private int[][] map(LeafReaderContext leaf) throws IOException {
            int[][] out = new int[dictionaries.length][];
            for (int f = 0; f < out.length; f++) {
                SortedSetDocValues values = DocValues.getSortedSet(leaf.reader(), SearchDocument.FACET_PREFIX + SearchPage.FACETS.get(f));
                int[] global = new int[Math.toIntExact(values.getValueCount())];
                TermsEnum terms = values.termsEnum();
                int ord = 0;
                for (BytesRef term = terms.next(); term != null; term = terms.next()) {
                    global[ord++] = dictionaries[f].id(term.utf8ToString());
                }
                out[f] = global;
            }
            return out;
        }
    }

    /** A facet's values, numbered in the order first seen; append-only. */
    static final class Dictionary {
        private final Map<String, Integer> ids = new ConcurrentHashMap<>();
        private volatile String[] values = new String[64];
        private int size;

        int id(String value) {
            Integer known = ids.get(value);
            return known != null ? known : add(value);
        }

        private synchronized int add(String value) {
            Integer known = ids.get(value);
            if (known != null) {
                return known;
            }
            if (size == values.length) {
                values = Arrays.copyOf(values, size * 2);
            }
            values[size] = value;
            ids.put(value, size);
            return size++;
        }

        String value(int id) {
            return values[id];
        }

        synchronized int size() {
            return size;
        }
    }

    static final class Counter implements Collector {
        private final Facets facets;
        private long total;
        private final int[][] counts;

        Counter(Facets facets) {
            this.facets = facets;
            this.counts = new int[SearchPage.FACETS.size()][];
            for (int f = 0; f < counts.length; f++) {
                counts[f] = new int[facets.dictionary(f).size()];
            }
        }

        @Override
        public LeafCollector getLeafCollector(LeafReaderContext context) throws IOException {
            int[][] global = facets.of(context);
            SortedSetDocValues[] values = new SortedSetDocValues[counts.length];
            for (int f = 0; f < values.length; f++) {
                values[f] = DocValues.getSortedSet(context.reader(), SearchDocument.FACET_PREFIX + SearchPage.FACETS.get(f));
                if (counts[f].length < facets.dictionary(f).size()) { // values first seen by this segment
                    counts[f] = Arrays.copyOf(counts[f], facets.dictionary(f).size());
                }
            }
            // the segment's matches are gathered first, then counted one facet at a time: each doc-values
            // column is read front to back on its own, not four of them interleaved match by match
            return new LeafCollector() {
                private int[] docs = new int[64];
                private int size;

                @Override
                public void setScorer(Scorable scorer) {}

                @Override
                public void collect(int doc) {
                    if (size == docs.length) {
                        docs = Arrays.copyOf(docs, size * 2);
                    }
                    docs[size++] = doc;
                }

                @Override
                public void finish() throws IOException {
                    total += size;
                    for (int f = 0; f < values.length; f++) {
                        int[] map = global[f];
                        int[] c = counts[f];
                        SortedSetDocValues multi = values[f];
                        SortedDocValues single = DocValues.unwrapSingleton(multi);
                        for (int i = 0; i < size; i++) {
                            if (single != null) {
                                if (single.advanceExact(docs[i])) {
                                    c[map[single.ordValue()]]++;
                                }
                            } else if (multi.advanceExact(docs[i])) {
                                for (int k = multi.docValueCount(); k > 0; k--) {
                                    c[map[(int) multi.nextOrd()]]++;
                                }
                            }
                        }
                    }
                }
            };
        }

        @Override
        public ScoreMode scoreMode() {
            return ScoreMode.COMPLETE_NO_SCORES;
        }
    }
}
