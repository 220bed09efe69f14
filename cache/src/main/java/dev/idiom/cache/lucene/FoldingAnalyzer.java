package dev.idiom.cache.lucene;

import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.LowerCaseFilter;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.miscellaneous.ASCIIFoldingFilter;
import org.apache.lucene.analysis.standard.StandardTokenizer;

/**
 * Words as readers type them: Unicode word boundaries, then lower case and accents folded to ASCII,
 * so "Müller" and "muller", "Réplication" and "replication" are the same term. No stemming: titles
 * are short and exact forms rank better; typos are the fuzzy query's job.
 */
final class FoldingAnalyzer extends Analyzer {
    @Override
    protected TokenStreamComponents createComponents(String fieldName) {
        StandardTokenizer words = new StandardTokenizer();
        TokenStream folded = new ASCIIFoldingFilter(new LowerCaseFilter(words));
        return new TokenStreamComponents(words, folded);
    }
}
