package dev.idiom.cache.lucene;

import dev.idiom.events.SearchPage;
import dev.idiom.events.SearchPage.FacetCount;
import java.io.IOException;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.lucene.index.DocValues;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.SortedSetDocValues;
import org.apache.lucene.search.Collector;
import org.apache.lucene.search.CollectorManager;
import org.apache.lucene.search.LeafCollector;
import org.apache.lucene.search.Scorable;
import org.apache.lucene.search.ScoreMode;

/**
 * Counts every match (the total) and, per facet, how many matches have each value. Counting runs
 * on each segment's own ordinals (an int array, no strings), and only the values that occurred are
 * looked up and merged across segments, so no global ordinal map is built per refresh.
 */
final class FacetCounts implements CollectorManager<FacetCounts.Counter, FacetCounts.Result> {
    /** The values shown per facet: the most frequent first, ties by value. */
    static final int TOP = 10;

    record Result(long total, Map<String, List<FacetCount>> facets) {}

    @Override
    public Counter newCollector() {
        return new Counter();
    }

    @Override
    public Result reduce(Collection<Counter> counters) {
        long total = 0;
        Map<String, Map<String, Long>> merged = new LinkedHashMap<>();
        SearchPage.FACETS.forEach(f -> merged.put(f, new HashMap<>()));
        for (Counter c : counters) {
            total += c.total;
            c.counts.forEach((facet, values) -> values.forEach((v, n) -> merged.get(facet).merge(v, n, Long::sum)));
        }
        Map<String, List<FacetCount>> facets = new LinkedHashMap<>();
        merged.forEach((facet, values) -> facets.put(facet, values.entrySet().stream()
                .sorted(Map.Entry.<String, Long>comparingByValue().reversed().thenComparing(Map.Entry.comparingByKey()))
                .limit(TOP).map(e -> new FacetCount(e.getKey(), e.getValue())).toList()));
        return new Result(total, facets);
    }

    static final class Counter implements Collector {
        private long total;
        private final Map<String, Map<String, Long>> counts = new HashMap<>();

        @Override
        public LeafCollector getLeafCollector(LeafReaderContext context) throws IOException {
            List<String> names = SearchPage.FACETS;
            SortedSetDocValues[] values = new SortedSetDocValues[names.size()];
            int[][] perOrd = new int[names.size()][];
            for (int i = 0; i < values.length; i++) {
                values[i] = DocValues.getSortedSet(context.reader(), SearchDocument.FACET_PREFIX + names.get(i));
                perOrd[i] = new int[Math.toIntExact(values[i].getValueCount())];
            }
            return new LeafCollector() {
                @Override
                public void setScorer(Scorable scorer) {}

                @Override
                public void collect(int doc) throws IOException {
                    total++;
                    for (int i = 0; i < values.length; i++) {
                        if (values[i].advanceExact(doc)) {
                            for (int k = values[i].docValueCount(); k > 0; k--) {
                                perOrd[i][(int) values[i].nextOrd()]++;
                            }
                        }
                    }
                }

                @Override
                public void finish() throws IOException {
                    for (int i = 0; i < values.length; i++) {
                        Map<String, Long> into = counts.computeIfAbsent(names.get(i), n -> new HashMap<>());
                        int[] c = perOrd[i];
                        for (int ord = 0; ord < c.length; ord++) {
                            if (c[ord] > 0) {
                                into.merge(values[i].lookupOrd(ord).utf8ToString(), (long) c[ord], Long::sum);
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
