package dev.idiom.wrappers.bibtex;

import dev.idiom.events.Field;
import dev.idiom.events.Metadata;
import dev.idiom.wrappers.BibTeXMapping;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import org.jbibtex.BibTeXDatabase;
import org.jbibtex.BibTeXEntry;
import org.jbibtex.BibTeXFormatter;
import org.jbibtex.Key;

/** What an entry written from a record holds, read back, and a record as the text of a new entry. */
final class WrittenEntry {
    /** The fields an entry holds (worked out once: every owed-write check asks). */
    private static final Set<Field> HELD = BibTeXMapping.entryFields();

    private WrittenEntry() {
    }

    /**
     * What an entry written from {@code wanted} holds, read back, in a file of BibTeX's own dialect
     * when {@code dialect}, for a copy last synced as {@code known} (null: a new one).
     * An arXiv id with classes is the id and an {@code eprintclass}; a copy that has it whole in its
     * {@code eprint} (as Idiom wrote it before) keeps it so while the id is the same. A PubMed address
     * gives a new entry its PubMed id, where the record has none (a copy made before, only where it has that one).
     * A value is as the entry reads back: its runs of white space one space, a {@code @phdthesis} a PhD thesis, a
     * Zotero date typed as a range or a season the BibLaTeX {@code date} it is written as.
     */
    static Metadata of(Metadata wanted, Metadata known, boolean dialect) {
        Metadata m = BibTeXMapping.holdable(wanted, dialect);
        // the entry type a copy's BibTeX extras name is the one it has: an entry is not retyped while the record's type stays
        String written = BibTeXMapping.entryType(wanted, dialect);
        String entryType = known != null && Objects.equals(known.type(), wanted.type())
                ? known.extras(Field.BIBTEX_EXTRAS).get(BibTeXMapping.ENTRY_TYPE_EXTRA)
                : written.equalsIgnoreCase(BibTeXMapping.defaultEntryType(wanted, dialect)) ? null : written;
        m = BibTeXFields.filled(m, dialect, known, entryType != null ? entryType : written);
        Map<String, String> extras = new TreeMap<>(BibTeXFields.extrasFor(m, dialect, known));
        extras.remove(BibTeXMapping.ENTRY_TYPE_EXTRA);
        if (entryType != null) {
            extras.put(BibTeXMapping.ENTRY_TYPE_EXTRA, entryType);
        }
        String[] arxiv = BibTeXMapping.arxivParts(m.arxiv(), dialect);
        if (arxiv != null && (known == null || !Objects.equals(known.arxiv(), m.arxiv()))) {
            m = m.with(Field.ARXIV, arxiv[0]);
            String other = dialect ? "eprintclass" : "primaryclass";
            // a copy written while its file read as the other dialect keeps that one's name for the classes
            extras.putIfAbsent(known != null && known.extras(Field.BIBTEX_EXTRAS).containsKey(other) ? other : arxiv[1], BibTeXFields.latex(arxiv[2]));
        }
        String pubmed = BibTeXMapping.pubmedIdOf(m.url());
        if (m.pmid() == null && m.arxiv() == null && pubmed != null && (known == null || pubmed.equals(known.pmid()))) {
            m = m.with(Field.PMID, pubmed); // a PubMed address's id, as Better BibTeX gives it (eprint, eprinttype = {pubmed}); read back as the entry's own
        }
        String whole = dialect ? null : BibTeXMapping.wholeDate(m); // a Zotero date typed as a range or a season, written whole
        if (whole != null && !extras.containsKey("date") && (known == null || known.extras(Field.BIBTEX_EXTRAS).containsKey("date"))) {
            extras.put("date", whole);
        }
        String implied = BibTeXMapping.impliedGenre(entryType != null ? entryType : written);
        if (m.get(Field.GENRE) == null && implied != null) {
            m = m.with(Field.GENRE, implied); // a @phdthesis is a PhD thesis, read back so
        }
        m = m.with(Field.BIBTEX_EXTRAS, Field.extras(extras));
        for (Field f : HELD) { // BibTeX reads a run of white space in a value (a line break too) as one space
            if (m.get(f) instanceof String text && !text.equals(text.replaceAll("\\s+", " ").strip())) {
                m = m.with(f, text.replaceAll("\\s+", " ").strip());
            }
        }
        return known == null ? m : m.with(Field.CITATION_KEY, known.citationKey());
    }

    /** A new entry of type and key for {@code m}, its fields written as a file of that dialect and address form writes them. */
    static BibTeXEntry created(Metadata m, String key, boolean bibtexDialect, boolean urlsAsNotes) {
        return BibTeXFields.withChanges(new BibTeXEntry(new Key(BibTeXMapping.entryType(m, bibtexDialect)), new Key(key)), Metadata.EMPTY, m,
                bibtexDialect, urlsAsNotes);
    }

    /** {@code m} as the text of a new entry (of no file: its key the record's citation key, else JabRef's style), LaTeX's specials escaped. */
    static String text(Metadata m, boolean bibtexDialect, boolean urlsAsNotes) {
        BibTeXDatabase db = new BibTeXDatabase();
        // typed by the record itself, filled with what an entry written from it holds
        db.addObject(BibTeXFields.withChanges(new BibTeXEntry(new Key(BibTeXMapping.entryType(m, bibtexDialect)), new Key(CitationKeys.newKey(m, key -> false))),
                Metadata.EMPTY, of(m, null, bibtexDialect), bibtexDialect, urlsAsNotes));
        StringWriter out = new StringWriter();
        BibTeXFormatter formatter = new BibTeXFormatter();
        formatter.setIndent("  ");
        try {
            formatter.format(db, out);
        } catch (IOException e) {
            throw new UncheckedIOException(e); // a StringWriter does not fail
        }
        return out.toString().strip() + "\n";
    }
}
