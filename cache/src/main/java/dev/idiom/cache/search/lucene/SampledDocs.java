package dev.idiom.cache.search.lucene;

import java.io.IOException;
import java.util.SplittableRandom;
import org.apache.lucene.search.ConstantScoreScorer;
import org.apache.lucene.search.ConstantScoreWeight;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.QueryVisitor;
import org.apache.lucene.search.ScoreMode;
import org.apache.lucene.search.ScorerSupplier;
import org.apache.lucene.search.Weight;
import org.apache.lucene.index.LeafReaderContext;

/**
 * A random sample of each segment's documents, each kept with probability {@code rate}. As a filter
 * beside a query whose matches are too many to count one by one, it leads the conjunction (its cost
 * is the sample's size), so only sampled documents are checked against the query. The gaps are
 * random, not a fixed stride, so no regular pattern in the order documents were added can skew the
 * sample; they are seeded by the segment, so the same view answers the same query with the same
 * estimate.
 */
final class SampledDocs extends Query {
    private final double rate;

    SampledDocs(double rate) {
        if (!(rate > 0 && rate <= 1)) {
            throw new IllegalArgumentException("a sampling rate is in (0, 1]: " + rate);
        }
        this.rate = rate;
    }

    @Override
    public Weight createWeight(IndexSearcher searcher, ScoreMode scoreMode, float boost) {
        return new ConstantScoreWeight(this, boost) {
            @Override
            public ScorerSupplier scorerSupplier(LeafReaderContext leaf) {
                int maxDoc = leaf.reader().maxDoc();
                long seed = ((long) leaf.docBase << 32) ^ maxDoc;
                return new DefaultScorerSupplier(new ConstantScoreScorer(score(), scoreMode, new Gaps(maxDoc, rate, seed)));
            }

            @Override
            public boolean isCacheable(LeafReaderContext leaf) {
                return false; // one sample per counting, never worth keeping
            }
        };
    }

    /** Documents at geometric gaps: each document is in the sample with probability {@code rate}, independently. */
    private static final class Gaps extends DocIdSetIterator {
        private final int maxDoc;
        private final double logKeep;
        private final long cost;
        private final SplittableRandom random;
        private int doc = -1;

        Gaps(int maxDoc, double rate, long seed) {
            this.maxDoc = maxDoc;
            this.logKeep = rate >= 1 ? 0 : Math.log1p(-rate);
            this.cost = Math.max(1, (long) (maxDoc * rate));
            this.random = new SplittableRandom(seed);
        }

        @Override
        public int docID() {
            return doc;
        }

        @Override
        public int nextDoc() {
            long skip = logKeep == 0 ? 0 : (long) (Math.log(1 - random.nextDouble()) / logKeep); // documents passed over
            long next = (long) doc + 1 + skip;
            doc = next >= maxDoc ? NO_MORE_DOCS : (int) next;
            return doc;
        }

        @Override
        public int advance(int target) {
            while (doc < target) {
                nextDoc();
            }
            return doc;
        }

        @Override
        public long cost() {
            return cost;
        }
    }

    @Override
    public String toString(String field) {
        return "sampled(" + rate + ")";
    }

    @Override
    public void visit(QueryVisitor visitor) {
        visitor.visitLeaf(this);
    }

    @Override
    public boolean equals(Object other) {
        return sameClassAs(other) && ((SampledDocs) other).rate == rate;
    }

    @Override
    public int hashCode() {
        return classHash() ^ Double.hashCode(rate);
    }
}
