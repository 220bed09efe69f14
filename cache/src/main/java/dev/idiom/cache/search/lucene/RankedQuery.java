package dev.idiom.cache.search.lucene;

import dev.idiom.events.SearchQuery;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.apache.lucene.document.IntField;
import org.apache.lucene.document.IntPoint;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause.Occur;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.BoostQuery;
import org.apache.lucene.search.DisjunctionMaxQuery;
import org.apache.lucene.search.FuzzyQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.MatchAllDocsQuery;
import org.apache.lucene.search.PhraseQuery;
import org.apache.lucene.search.PrefixQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.TermQuery;

/**
 * A {@link SearchQuery} as Lucene runs it. Every word (or "quoted phrase") must match in some field;
 * a field's weight says how much a match there counts (BM25 scores each). A word also matches its
 * typos (one edit, from 4 letters) and the last word, from 3 letters, the longer words it begins
 * (typed as you search); both count less than the word itself and expand against one field that
 * holds title, authors, tags and venue, whose vocabulary is small enough to expand quickly; a word
 * the index holds in a thousand DEs or more is taken as typed. With several words, whether a DE matches is
 * decided over three postings lists a word (title, authors, tags and venue in one; abstract; notes), how well
 * over the six weighted fields, for the matches only; a lone word is matched and scored by its six fields at once. The whole query as the exact title, or
 * its words in that order in the title, adds on top, so the work whose title was typed comes first.
 * Filters do not score.
 */
final class RankedQuery {
    /** Field weights: a title or author match says most about what the reader wants. */
    static final Map<String, Float> WEIGHTS = Map.of(SearchDocument.TITLE, 3f, SearchDocument.AUTHORS, 2f, SearchDocument.TAGS, 1.5f,
            SearchDocument.VENUE, 1f, SearchDocument.ABSTRACT, 1f, SearchDocument.NOTES, 0.5f);
    private static final Pattern PHRASE_OR_WORD = Pattern.compile("\"([^\"]*)\"?|([^\\s\"]+)");
    private static final float BEST_FIELD_ONLY = 0f;
    static final int TAKEN_AS_TYPED = 1_000;
    private static final float TYPO_WEIGHT = 0.3f;
    private static final float PREFIX_WEIGHT = 0.5f;
    private static final float TITLE_PHRASE_BOOST = 4f;
    private static final float EXACT_TITLE_BOOST = 20f;
    /** More words than any title: the rest are ignored rather than building a huge query. */
    static final int MAX_WORDS = 32;

    private RankedQuery() {}

    /**
     * The Lucene query, and whether it ranks by text (else the order is by id and nothing is
     * scored): a text of no words, only punctuation, does not rank.
     */
    record Built(Query query, boolean ranked) {}

    /**
     * {@code shape}: what the index's documents hold (see {@link LuceneSearchIndex}): from shape 2 the year as a doc
     * value too, from shape 3 the title's word pairs; an older index is asked the older way until it is rebuilt.
     */
    static Built of(SearchQuery q, Analyzer analyzer, int shape, IndexSearcher view) throws IOException {
        BooleanQuery.Builder b = new BooleanQuery.Builder();
        boolean yearDocValues = shape >= 2;
        boolean ranked = q.text() != null && text(b, q.text(), analyzer, view, shape >= 3);
        boolean any = ranked;
        any |= filter(b, SearchDocument.TAG_KEY, q.tag());
        any |= filter(b, SearchDocument.AUTHOR_KEY, q.author());
        any |= filter(b, SearchDocument.TYPE_KEY, q.type());
        any |= filter(b, SearchDocument.VENUE_KEY, q.venue());
        any |= filter(b, SearchDocument.TOOL_KEY, q.tool());
        if (q.yearFrom() != null || q.yearTo() != null) {
            int from = q.yearFrom() == null ? Integer.MIN_VALUE : q.yearFrom();
            int to = q.yearTo() == null ? Integer.MAX_VALUE : q.yearTo();
            // beside a rarer clause (or a sample), the years of its matches are checked one by one, not all collected first
            b.add(yearDocValues ? IntField.newRangeQuery(SearchDocument.YEAR, from, to) : IntPoint.newRangeQuery(SearchDocument.YEAR, from, to), Occur.FILTER);
            any = true;
        }
        return new Built(any ? b.build() : new MatchAllDocsQuery(), ranked);
    }

    private static boolean filter(BooleanQuery.Builder b, String field, String value) {
        if (value == null) {
            return false;
        }
        b.add(new TermQuery(new Term(field, SearchDocument.key(value))), Occur.FILTER);
        return true;
    }

    private static boolean text(BooleanQuery.Builder b, String text, Analyzer analyzer, IndexSearcher view, boolean titlePairs) throws IOException {
        List<List<String>> phrases = new ArrayList<>();
        List<String> all = new ArrayList<>();
        Matcher m = PHRASE_OR_WORD.matcher(text);
        while (m.find() && all.size() < MAX_WORDS) {
            List<String> words = words(analyzer, m.group(1) != null ? m.group(1) : m.group(2));
            // every word counts against the cap, a quoted phrase's too: one phrase of hundreds of words would
            // otherwise build a phrase query over six fields that costs seconds
            words = words.subList(0, Math.min(words.size(), MAX_WORDS - all.size()));
            if (m.group(1) != null && words.size() > 1) {
                phrases.add(words);
            } else {
                words.forEach(w -> phrases.add(List.of(w)));
            }
            all.addAll(words);
        }
        if (all.isEmpty()) {
            return false;
        }
        for (int i = 0; i < phrases.size(); i++) {
            List<String> p = phrases.get(i);
            // only the last word may be unfinished (typed as you search); prefixes of every word cost too much at scale
            if (p.size() > 1) {
                b.add(phrase(p), Occur.MUST);
            } else {
                String w = p.getFirst();
                boolean expand = view.getIndexReader().docFreq(new Term(SearchDocument.SHORT, w)) < TAKEN_AS_TYPED;
                List<Query> expansions = expansions(w, expand, i == phrases.size() - 1, view);
                if (phrases.size() == 1) {
                    // a lone word: its best-field score alone decides, so Lucene skips the blocks that cannot reach the page
                    b.add(word(w, expansions), Occur.MUST);
                } else {
                    // which DEs match is decided apart from how well: the words' matches are intersected over
                    // one postings list per field group, the six-field scoring runs only for the candidates
                    b.add(matches(w, expansions), Occur.FILTER);
                    b.add(word(w, expansions), Occur.SHOULD);
                }
            }
        }
        // the words in this order in the title; not for one quoted phrase, which must match as a phrase anyway
        if (all.size() > 1 && !(phrases.size() == 1 && phrases.getFirst().size() > 1)) {
            b.add(new BoostQuery(titlePairs ? inTitleInOrder(all) : phraseIn(SearchDocument.TITLE, all), TITLE_PHRASE_BOOST), Occur.SHOULD);
        }
        String exact = SearchDocument.key(text.replace("\"", " "));
        b.add(new BoostQuery(new TermQuery(new Term(SearchDocument.TITLE_EXACT, exact)), EXACT_TITLE_BOOST), Occur.SHOULD);
        return true;
    }

    /**
     * How well a DE matches one word: the best field's score counts, the others not at all. (A tie-breaker
     * that adds a little of the others stops Lucene skipping the blocks of documents that cannot reach the
     * page: a word in 130,000 of a million DEs then took 10 ms instead of 1.5.) A word in at least
     * {@link #TAKEN_AS_TYPED} DEs' titles, authors, tags or venues is taken as typed (no {@code expansions}):
     * its typos and longer forms would rank below its own thousand matches anyway, yet matching them costs the most.
     */
    private static Query word(String w, List<Query> expansions) {
        List<Query> each = new ArrayList<>();
        WEIGHTS.forEach((field, weight) -> each.add(new BoostQuery(new TermQuery(new Term(field, w)), weight)));
        each.addAll(expansions);
        return new DisjunctionMaxQuery(each, BEST_FIELD_ONLY);
    }

    /** Whether a DE matches one word: in title, authors, tags or venue (one field holds them all), abstract or notes. */
    private static Query matches(String w, List<Query> expansions) {
        BooleanQuery.Builder any = new BooleanQuery.Builder();
        for (String field : List.of(SearchDocument.SHORT, SearchDocument.ABSTRACT, SearchDocument.NOTES)) {
            any.add(new TermQuery(new Term(field, w)), Occur.SHOULD);
        }
        expansions.forEach(q -> any.add(q, Occur.SHOULD)); // their weights do not matter where only matching does
        return any.build();
    }

    /**
     * The word's typos (one edit; a transposition counts as one: two cost several times more and match mostly noise), and,
     * if last, the longer words it begins, each weighted for scoring. Expanded against the view's term dictionary here,
     * once: the match filter and the score of a word of several share them.
     */
    private static List<Query> expansions(String w, boolean expand, boolean last, IndexSearcher view) throws IOException {
        List<Query> out = new ArrayList<>();
        if (expand && w.length() >= 4) {
            out.add(new BoostQuery(view.rewrite(new FuzzyQuery(new Term(SearchDocument.SHORT, w), 1, 1, 50, true)), TYPO_WEIGHT));
        }
        if (expand && last && w.length() >= 3) {
            out.add(new BoostQuery(view.rewrite(new PrefixQuery(new Term(SearchDocument.SHORT, w))), PREFIX_WEIGHT));
        }
        return out;
    }

    private static Query phrase(List<String> words) {
        List<Query> each = new ArrayList<>();
        WEIGHTS.forEach((field, weight) -> each.add(new BoostQuery(phraseIn(field, words), weight)));
        return new DisjunctionMaxQuery(each, BEST_FIELD_ONLY);
    }

    /** Every pair of neighbouring words among the title's pairs: the phrase, up to a repeated pair's placement. */
    private static Query inTitleInOrder(List<String> words) {
        BooleanQuery.Builder pairs = new BooleanQuery.Builder();
        for (int i = 0; i + 1 < words.size(); i++) {
            pairs.add(new TermQuery(new Term(SearchDocument.TITLE_PAIRS, words.get(i) + " " + words.get(i + 1))), Occur.MUST);
        }
        return pairs.build();
    }

    private static PhraseQuery phraseIn(String field, List<String> words) {
        return new PhraseQuery(field, words.toArray(String[]::new));
    }

    static List<String> words(Analyzer analyzer, String text) {
        List<String> out = new ArrayList<>();
        try (TokenStream ts = analyzer.tokenStream(SearchDocument.TITLE, text)) {
            CharTermAttribute term = ts.addAttribute(CharTermAttribute.class);
            ts.reset();
            while (ts.incrementToken()) {
                out.add(term.toString());
            }
            ts.end();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out;
    }
}
