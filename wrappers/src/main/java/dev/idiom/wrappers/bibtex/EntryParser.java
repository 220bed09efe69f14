package dev.idiom.wrappers.bibtex;

import dev.idiom.events.Fingerprint;
import dev.idiom.wrappers.Skipped;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.regex.Pattern;
import org.jbibtex.BibTeXDatabase;
import org.jbibtex.BibTeXEntry;
import org.jbibtex.BibTeXObject;
import org.jbibtex.BibTeXParser;
import org.jbibtex.BibTeXString;
import org.jbibtex.CrossReferenceValue;
import org.jbibtex.Key;
import org.jbibtex.ParseException;
import org.jbibtex.Value;

/**
 * One jbibtex parser for a whole file, given one stretch at a time (a parser per entry allocated its
 * buffers anew for each: tens of KB per entry); it keeps the {@code @string} macros read so far. A
 * stretch that does not parse costs only itself: it is skipped with why and kept in the file as it is.
 */
final class EntryParser extends BibTeXParser {
    /** The longest entry parsed, in characters: a longer one is skipped with why and kept in the file as it is (a 50 MB field ran the heap out). */
    static final int MAX_ENTRY_CHARS = 4 << 20;
    /** The remote ids given to keyless entries: no key is written until Idiom must write the entry. */
    static final String KEYLESS_PREFIX = "keyless-";
    /** An entry without a key ({@code @article{, title = …}}), as Citavi and other exports write them. */
    private static final Pattern KEYLESS = Pattern.compile("[ \\t]*@\\s*\\w+\\s*[{(]\\s*,");
    /** An {@code @comment} whose text is not in braces or parentheses (JabRef's and Biber's readers skip it to the next entry). */
    private static final Pattern UNBRACED_COMMENT = Pattern.compile("\\s*@[Cc][Oo][Mm][Mm][Ee][Nn][Tt](?![A-Za-z0-9_-])(?!\\s*[{(])");

    /** The @string macros the stretch being read uses and no stretch before it defined. */
    private final List<String> unresolved = new ArrayList<>();
    private int line;

    private EntryParser() throws ParseException {
    }

    static EntryParser create() {
        try {
            return new EntryParser();
        } catch (ParseException e) {
            throw new IllegalStateException("jbibtex could not start a parser", e);
        }
    }

    /** A parser that knows the macros {@code other} has read so far (a parent read out of order, as BibTeX would have read it). */
    static EntryParser after(EntryParser other) {
        EntryParser p = create();
        other.getMacros().values().forEach(p::addMacro);
        return p;
    }

    /**
     * One stretch of the file: its objects, or null when it is malformed (said in {@code skipped}).
     * Each entry goes to {@code entry} under its remote id unless {@code ids} holds that id already
     * (the first entry with a key keeps it); the macros it defines serve the stretches after it,
     * as BibTeX reads on.
     */
    List<BibTeXObject> read(EntryChunks.Chunk c, Set<String> ids, List<Skipped> skipped, BiConsumer<String, BibTeXEntry> entry) {
        String chunk = c.text();
        if (chunk.length() > MAX_ENTRY_CHARS) { // not parsed: jbibtex's tokens of a 50 MB field ran the heap out; the text stays as it is
            skipped.add(new Skipped(null, "line " + c.line() + ": the entry is longer than " + MAX_ENTRY_CHARS
                    + " characters; it is kept as it is, unread"));
            return null;
        }
        if (UNBRACED_COMMENT.matcher(chunk).lookingAt()) {
            return List.of(); // BibTeX ignores an @comment not followed by a brace, as the text between entries: kept as it is, no record
        }
        chunk = EntryBounds.bracedForParsing(chunk); // the text itself is kept as it is
        try {
            line = c.line();
            unresolved.clear();
            BibTeXDatabase db;
            try {
                db = parse(new StringReader(chunk));
            } catch (ParseException | RuntimeException strayText) {
                // text after the entry that is no BibTeX (JabRef reads the entry and ignores it): the entry alone,
                // the text kept as it is (written back after the entry, see EntryBounds.afterEntry)
                int end = EntryBounds.entryEnd(chunk);
                if (end < 0 || end == chunk.length()) {
                    throw strayText;
                }
                db = parse(new StringReader(chunk.substring(0, end)));
            }
            unlinkCrossReferences(db);
            db.getStrings().values().forEach(this::addMacro); // later entries may use them, as BibTeX reads on
            boolean keyless = KEYLESS.matcher(chunk).lookingAt();
            for (BibTeXEntry e : db.getEntries().values()) {
                String id = keyless ? keylessId(e, ids) : e.getKey().getValue();
                String tooLong = tooLong(e);
                if (tooLong != null) { // never expanded: the entry stays in the file as it is, unread
                    skipped.add(new Skipped(id, "line " + c.line() + ": field '" + tooLong + "' would expand to more than "
                            + ExpandedLength.MAX_FIELD_CHARS + " characters (a chain of @string macros?); the entry is kept as it is, unread"));
                } else if (ids.add(id)) {
                    entry.accept(id, e);
                    for (String macro : unresolved) { // the entry is read all the same: a notice, and its listing stays whole
                        skipped.add(Skipped.notice(id, "line " + c.line() + ": undefined @string macro '" + macro
                                + "', read as its name (as Zotero's BibTeX import reads it)"));
                    }
                } else {
                    skipped.add(new Skipped(id, "line " + c.line() + ": the key is used twice; the first entry is used"));
                }
            }
            return new ArrayList<>(db.getObjects());
        } catch (ParseException | RuntimeException e) {
            skipped.add(new Skipped(null, "line " + c.line() + ": malformed BibTeX (" + firstLine(e.getMessage()) + "); the entry is kept as it is"));
            return null;
        }
    }

    /**
     * A keyless entry's remote id: a fingerprint of its type, title and year (and a count for an
     * entry that repeats another), so it stays the same from read to read while the entry is not edited.
     */
    private static String keylessId(BibTeXEntry e, Set<String> taken) {
        String title = BibTeXFields.text(e, "title");
        String base = KEYLESS_PREFIX + Fingerprint.of(e.getType().getValue().toLowerCase(Locale.ROOT) + "\n" + (title == null ? "" : title) + "\n"
                + BibTeXFields.text(e, "year")).substring(0, 12);
        String id = base;
        for (int n = 2; taken.contains(id); n++) {
            id = base + "-" + n;
        }
        return id;
    }

    /**
     * jbibtex links a {@code crossref} to an entry of the same stretch, and then looks up a field
     * the entry lacks in its parent, and the parent's parent: a cycle ({@code a} names {@code b},
     * {@code b} names {@code a}) recursed until the stack ran out. The link is cut, the key kept:
     * inheritance is {@link BibTeXFields#inheriting}'s, one level, as BibTeX has it.
     */
    private static void unlinkCrossReferences(BibTeXDatabase db) {
        for (BibTeXEntry e : db.getEntries().values()) {
            for (Map.Entry<Key, Value> f : new ArrayList<>(e.getFields().entrySet())) {
                if (f.getValue() instanceof CrossReferenceValue x) {
                    e.addField(f.getKey(), new CrossReferenceValue(x.getValue(), null)); // as jbibtex leaves one it cannot resolve
                }
            }
        }
    }

    /** The first field of {@code e} that expands past {@link ExpandedLength#MAX_FIELD_CHARS}, or null. */
    private static String tooLong(BibTeXEntry e) {
        for (Map.Entry<Key, Value> f : e.getFields().entrySet()) {
            if (ExpandedLength.exceeds(f.getValue(), ExpandedLength.MAX_FIELD_CHARS)) {
                return f.getKey().getValue();
            }
        }
        return null;
    }

    private static String firstLine(String s) {
        if (s == null) {
            return "unreadable entry";
        }
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }

    @Override
    public void checkStringResolution(Key key, BibTeXString string) {
        if (string == null) {
            unresolved.add(key.getValue());
        }
    }

    @Override
    public void checkCrossReferenceResolution(Key key, BibTeXEntry entry) {
        // a crossref to an entry elsewhere is kept as it is
    }
}
