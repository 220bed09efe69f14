package dev.idiom.cache.search.lucene;

import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.LowerCaseFilter;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.miscellaneous.ASCIIFoldingFilter;
import org.apache.lucene.analysis.shingle.ShingleFilter;
import org.apache.lucene.analysis.standard.StandardTokenizer;

/**
 * Words as readers type them: Unicode word boundaries, then lower case and accents folded to ASCII,
 * so "Müller" and "muller", "Réplication" and "replication" are the same term. No stemming: titles
 * are short and exact forms rank better; typos are the fuzzy query's job. The title's word pairs
 * ({@link SearchDocument#TITLE_PAIRS}) are the same words, two at a time.
 */
final class FoldingAnalyzer extends Analyzer {
    FoldingAnalyzer() {
        super(PER_FIELD_REUSE_STRATEGY); // one field's components differ: reused across fields, pairs would leak into every field
    }

    @Override
    protected TokenStreamComponents createComponents(String fieldName) {
        StandardTokenizer words = new StandardTokenizer();
        TokenStream folded = new ASCIIFoldingFilter(new LowerCaseFilter(words));
        if (fieldName.equals(SearchDocument.TITLE_PAIRS)) {
            ShingleFilter pairs = new ShingleFilter(folded, 2, 2);
            pairs.setOutputUnigrams(false);
            return new TokenStreamComponents(words, pairs);
        }
        return new TokenStreamComponents(words, folded);
    }
}
