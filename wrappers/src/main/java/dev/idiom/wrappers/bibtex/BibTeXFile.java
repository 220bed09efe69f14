package dev.idiom.wrappers.bibtex;

import dev.idiom.events.Field;
import dev.idiom.events.Fingerprint;
import dev.idiom.events.Metadata;
import dev.idiom.events.Normalized;
import dev.idiom.wrappers.AnnotationTool;
import dev.idiom.wrappers.BibTeXMapping;
import dev.idiom.wrappers.Braces;
import dev.idiom.wrappers.ChangePage;
import dev.idiom.wrappers.RemoteChangedException;
import dev.idiom.wrappers.RemoteRecord;
import dev.idiom.wrappers.Skipped;
import dev.idiom.wrappers.ToolException;
import dev.idiom.wrappers.ToolLimits;
import java.io.IOException;
import java.io.StringReader;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jbibtex.BibTeXDatabase;
import org.jbibtex.BibTeXEntry;
import org.jbibtex.BibTeXFormatter;
import org.jbibtex.BibTeXObject;
import org.jbibtex.BibTeXParser;
import org.jbibtex.BibTeXString;
import org.jbibtex.Key;
import org.jbibtex.ParseException;
import org.jbibtex.Value;

/**
 * A BibTeX file as an annotation tool: entries keyed by citation key, versioned by a fingerprint
 * of their fields. Writes keep every field, {@code @string} and {@code @comment} Idiom does not
 * model, and replace the file atomically. A malformed entry is skipped with its reason.
 */
public final class BibTeXFile implements AnnotationTool {
    private final Path file;

    public BibTeXFile(Path file) {
        this(file, PAGE);
    }

    /** With pages of {@code pageSize} entries (tests list small files over several pages). */
    BibTeXFile(Path file, int pageSize) {
        this.file = file.toAbsolutePath();
        this.pageSize = pageSize;
    }

    /** True: an entry's version is the fingerprint of its type and every field. */
    @Override
    public boolean versionNamesContent() {
        return true;
    }

    @Override
    public String kind() {
        return "bibtex";
    }

    @Override
    public String account() {
        return file.getFileName().toString();
    }

    @Override
    public ToolLimits limits() {
        return ToolLimits.LOCAL_FILE;
    }

    /**
     * A stretch of the file: parsed objects with the text they were read from, or text kept
     * verbatim (what precedes the first entry, or an entry jbibtex cannot parse). A stretch Idiom
     * did not change is written back as it was read, byte for byte; only a changed one is
     * formatted again (and then only its entry: the comments and blank lines after it stay).
     */
    private static final class Segment {
        final String raw;
        final List<BibTeXObject> objects;
        boolean changed;
        /** The stretch's new text when a change was written into its own text ({@link EntrySplice}); null: format the objects. */
        String rewritten;

        Segment(String raw, List<BibTeXObject> objects) {
            this.raw = raw;
            this.objects = objects;
            this.changed = raw == null;
        }

        String raw() {
            return raw;
        }

        List<BibTeXObject> objects() {
            return objects;
        }
    }

    /**
     * How the file is stored: its charset (UTF-8, or what JabRef's {@code % Encoding:} header names)
     * and whether it starts with a byte-order mark; a rewrite keeps both.
     */
    private record Encoding(java.nio.charset.Charset charset, boolean bom) {
        private static final Pattern HEADER = Pattern.compile("\\A(?:\uFEFF)?%\\s*Encoding:\\s*([A-Za-z0-9_.:-]+)");

        static Encoding of(byte[] bytes) {
            boolean bom = bytes.length >= 3 && (bytes[0] & 0xff) == 0xEF && (bytes[1] & 0xff) == 0xBB && (bytes[2] & 0xff) == 0xBF;
            // the header is ASCII in every charset JabRef writes, so reading the start as Latin-1 finds it
            String head = new String(bytes, bom ? 3 : 0, Math.min(bytes.length - (bom ? 3 : 0), 200), StandardCharsets.ISO_8859_1);
            Matcher m = HEADER.matcher(head);
            java.nio.charset.Charset cs = StandardCharsets.UTF_8;
            if (m.find()) {
                try {
                    cs = java.nio.charset.Charset.forName(m.group(1));
                } catch (IllegalArgumentException unknown) {
                    throw new ToolException("BibTeX file names an encoding Java does not know: " + m.group(1));
                }
            }
            return new Encoding(cs, bom);
        }

        String decode(byte[] bytes) {
            return new String(bytes, bom ? 3 : 0, bytes.length - (bom ? 3 : 0), charset);
        }

        byte[] encode(String text) {
            byte[] body = LatexAccents.encodable(text, charset).getBytes(charset);
            if (!bom) {
                return body;
            }
            byte[] out = new byte[body.length + 3];
            out[0] = (byte) 0xEF;
            out[1] = (byte) 0xBB;
            out[2] = (byte) 0xBF;
            System.arraycopy(body, 0, out, 3, body.length);
            return out;
        }
    }

    /** A parsed file, read whole to be written (a listing reads it as a stream: {@link Listing}); what it skips is the listing's to say. */
    private record Parsed(List<Segment> segments, Map<String, BibTeXEntry> entries, Encoding encoding) {
        BibTeXEntry entry(String key) {
            return entries.get(key);
        }
    }

    /** A key BibTeX can read back as written: no spaces, braces, commas, quotes, #, % or ~. */
    private static final Pattern CITATION_KEY = Pattern.compile("[^\\s{}(),\"#%~\\\\]+");
    /**
     * The longest citation key a new entry takes from its record (a key is a copy's remote id, which
     * the outbox holds in 700 characters), and the longest name a generated key starts with.
     */
    private static final int MAX_KEY = 200;
    private static final int MAX_KEY_NAME = 40;
    /** An entry without a key ({@code @article{, title = …}}), as Citavi and other exports write them. */
    private static final Pattern KEYLESS = Pattern.compile("[ \\t]*@\\s*\\w+\\s*[{(]\\s*,");
    /** The remote ids given to keyless entries: no key is written until Idiom must write the entry. */
    static final String KEYLESS_PREFIX = "keyless-";

    /**
     * A keyless entry's remote id: a fingerprint of its type, title and year (and a count for an
     * entry that repeats another), so it stays the same from read to read while the entry is not edited.
     */
    private static String keylessId(BibTeXEntry e, java.util.Set<String> taken) {
        String title = BibTeXFields.text(e, "title");
        String base = KEYLESS_PREFIX + Fingerprint.of(e.getType().getValue().toLowerCase(Locale.ROOT) + "\n" + (title == null ? "" : title) + "\n"
                + BibTeXFields.text(e, "year")).substring(0, 12);
        String id = base;
        for (int n = 2; taken.contains(id); n++) {
            id = base + "-" + n;
        }
        return id;
    }

    private synchronized Parsed read() {
        String text;
        Encoding encoding;
        try {
            byte[] bytes = Files.exists(file) ? Files.readAllBytes(file) : new byte[0];
            encoding = Encoding.of(bytes);
            text = encoding.decode(bytes);
        } catch (IOException e) {
            throw new ToolException("cannot read BibTeX file " + file + ": " + e.getMessage(), e);
        }
        // one parse per entry, so a broken entry costs only itself (jbibtex gives up at the first)
        List<Segment> segments = new ArrayList<>();
        Map<String, BibTeXEntry> entries = new LinkedHashMap<>();
        List<Skipped> unused = new ArrayList<>();
        ChunkParser parser = ChunkParser.create();
        java.util.Set<String> ids = new java.util.HashSet<>();
        EntryChunks chunks = new EntryChunks(new StringReader(text));
        Dialect dialect = new Dialect();
        for (EntryChunks.Chunk c = nextOf(chunks); c != null; c = nextOf(chunks)) {
            if (c.entry()) {
                dialect.see(c.text());
            }
            segments.add(new Segment(c.text(), c.entry() ? parser.read(c, ids, unused, entries::put) : null));
        }
        bibtexDialect = dialect.bibtex();
        urlsAsNotes = dialect.urlsAsNotes();
        return new Parsed(segments, entries, encoding);
    }

    /** The file's dialect as last read: BibTeX's own (no {@code @online}, no {@code date}), else BibLaTeX's (an empty file too). */
    private volatile boolean bibtexDialect;
    /** Whether the file, as last read, gives addresses as classic BibTeX's styles print them (<code>note = {&#92;url{…}}</code>) and never in {@code url}. */
    private volatile boolean urlsAsNotes;

    /**
     * The dialect of a file, from its entries' text as it is read: the entry types, and whether a
     * field only BibLaTeX reads ({@link BibTeXMapping#BIBLATEX_FIELDS}) appears
     * ({@link BibTeXMapping#bibtexDialect}). A listing and a whole read see the same text, so they agree.
     */
    private static final class Dialect {
        private static final Pattern TYPE = Pattern.compile("^\\s*@\\s*([A-Za-z]+)");
        private static final Pattern BIBLATEX_FIELD = Pattern.compile("(?i)[,\\s](" + String.join("|", BibTeXMapping.BIBLATEX_FIELDS) + ")\\s*=");
        private static final Pattern URL_FIELD = Pattern.compile("(?i)[,\\s]url\\s*=");
        private static final Pattern URL_NOTE = Pattern.compile("(?i)[,\\s](?:note|howpublished)\\s*=\\s*[{\"]\\s*\\\\url\\s*\\{");
        private final java.util.Set<String> types = new java.util.HashSet<>();
        private final java.util.Set<String> fields = new java.util.HashSet<>();
        private boolean urlFields;
        private boolean urlNotes;

        void see(String entryText) {
            Matcher t = TYPE.matcher(entryText);
            if (t.find() && !java.util.Set.of("string", "comment", "preamble").contains(t.group(1).toLowerCase(Locale.ROOT))) {
                types.add(t.group(1));
                Matcher f = BIBLATEX_FIELD.matcher(entryText);
                if (f.find()) {
                    fields.add(f.group(1));
                }
                urlFields |= URL_FIELD.matcher(entryText).find();
                urlNotes |= URL_NOTE.matcher(entryText).find();
            }
        }

        boolean bibtex() {
            return BibTeXMapping.bibtexDialect(types, fields);
        }

        /** An address in a note (<code>&#92;url{…}</code>) somewhere, and no {@code url} field anywhere: a new entry's goes there too. */
        boolean urlsAsNotes() {
            return urlNotes && !urlFields;
        }
    }

    private EntryChunks.Chunk nextOf(EntryChunks chunks) {
        try {
            return chunks.next();
        } catch (IOException e) {
            throw new ToolException("cannot read BibTeX file " + file + ": " + e.getMessage(), e);
        }
    }

    /**
     * One jbibtex parser for the whole file, given one entry at a time (a parser per entry allocated
     * its buffers anew for each: tens of KB per entry); it keeps the {@code @string} macros read so far.
     */
    /** An {@code @comment} whose text is not in braces or parentheses (JabRef's and Biber's readers skip it to the next entry). */
    private static final java.util.regex.Pattern UNBRACED_COMMENT = java.util.regex.Pattern.compile("\\s*@[Cc][Oo][Mm][Mm][Ee][Nn][Tt](?![A-Za-z0-9_-])(?!\\s*[{(])");

    private static final class ChunkParser extends BibTeXParser {
        final List<Skipped> unresolved = new ArrayList<>();
        private int line;

        private ChunkParser() throws ParseException {
        }

        static ChunkParser create() {
            try {
                return new ChunkParser();
            } catch (ParseException e) {
                throw new IllegalStateException("jbibtex could not start a parser", e);
            }
        }

        void startChunk(int lineOfChunk) {
            line = lineOfChunk;
            unresolved.clear();
        }

        /**
         * One stretch of the file: its objects, or null when it is malformed (said in {@code skipped}).
         * Each entry goes to {@code entry} under its remote id unless {@code ids} holds that id already
         * (the first entry with a key keeps it); the macros it defines serve the stretches after it,
         * as BibTeX reads on.
         */
        List<BibTeXObject> read(EntryChunks.Chunk c, java.util.Set<String> ids, List<Skipped> skipped, java.util.function.BiConsumer<String, BibTeXEntry> entry) {
            String chunk = c.text();
            if (chunk.length() > MAX_ENTRY_CHARS) { // not parsed: jbibtex's tokens of a 50 MB field ran the heap out; the text stays as it is
                skipped.add(new Skipped(null, "line " + c.line() + ": the entry is longer than " + MAX_ENTRY_CHARS
                        + " characters; it is kept as it is, unread"));
                return null;
            }
            if (UNBRACED_COMMENT.matcher(chunk).lookingAt()) {
                return List.of(); // BibTeX ignores an @comment not followed by a brace, as the text between entries: kept as it is, no record
            }
            chunk = bracedForParsing(chunk); // the text itself is kept as it is
            try {
                startChunk(c.line());
                BibTeXDatabase db;
                try {
                    db = parse(new StringReader(chunk));
                } catch (ParseException | RuntimeException strayText) {
                    // text after the entry that is no BibTeX (JabRef reads the entry and ignores it): the entry alone,
                    // the text kept as it is (written back after the entry, see afterEntry)
                    int end = entryEnd(chunk);
                    if (end < 0 || end == chunk.length()) {
                        throw strayText;
                    }
                    db = parse(new StringReader(chunk.substring(0, end)));
                }
                skipped.addAll(unresolved);
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
         * jbibtex links a {@code crossref} to an entry of the same stretch, and then looks up a field
         * the entry lacks in its parent, and the parent's parent: a cycle ({@code a} names {@code b},
         * {@code b} names {@code a}) recursed until the stack ran out. The link is cut, the key kept:
         * inheritance is {@link BibTeXFields#inheriting}'s, one level, as BibTeX has it.
         */
        private static void unlinkCrossReferences(BibTeXDatabase db) {
            for (BibTeXEntry e : db.getEntries().values()) {
                for (Map.Entry<Key, Value> f : new ArrayList<>(e.getFields().entrySet())) {
                    if (f.getValue() instanceof org.jbibtex.CrossReferenceValue x) {
                        e.addField(f.getKey(), new org.jbibtex.CrossReferenceValue(x.getValue(), null)); // as jbibtex leaves one it cannot resolve
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

        @Override
        public void checkStringResolution(Key key, BibTeXString string) {
            if (string == null) {
                unresolved.add(new Skipped(key.getValue(), "line " + line + ": undefined @string macro '" + key.getValue() + "'"));
            }
        }

        @Override
        public void checkCrossReferenceResolution(Key key, BibTeXEntry entry) {
            // a crossref to an entry elsewhere is kept as it is
        }
    }

    private static String firstLine(String s) {
        if (s == null) {
            return "unreadable entry";
        }
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }

    /**
     * The whole file, a page of {@link #PAGE} entries at a time, read as a stream (a 200,000-entry
     * import held the parsed file and every record at once: a live set of 0.4–0.6 GiB). The last
     * page's cursor is the file's fingerprint; one before it names the listing under way, which
     * only this object can continue: any other cursor starts a whole listing again.
     */
    @Override
    public synchronized ChangePage changedSince(String cursor) {
        if (listing == null || cursor == null || !cursor.equals(listing.cursor)) {
            closeListing();
            listing = new Listing(); // reads the file through once: its fingerprint and the crossref parents
            if (listing.hash.equals(cursor)) {
                closeListing();
                return new ChangePage(List.of(), List.of(), List.of(), cursor, false);
            }
        }
        try {
            ChangePage page = listing.page(pageSize);
            if (!page.more()) {
                closeListing();
            }
            return page;
        } catch (RuntimeException e) {
            closeListing();
            throw e;
        }
    }

    /** Entries per page of a listing. */
    static final int PAGE = 5_000;
    /** The longest entry parsed, in characters: a longer one is skipped with why and kept in the file as it is (a 50 MB field ran the heap out). */
    static final int MAX_ENTRY_CHARS = 4 << 20;
    private final int pageSize;
    /** The listing under way, if one is. */
    private Listing listing;

    private void closeListing() {
        if (listing != null) {
            listing.close();
            listing = null;
        }
    }

    /**
     * A listing of the file as it was when the listing began (the file stays open: a write replaces
     * it, so this one goes on reading what it fingerprinted). A first pass takes the fingerprint and
     * finds the entries some {@code crossref} names; the second parses an entry at a time, keeping
     * only those parents, so memory follows the largest entry and the number of parents, not the
     * file's size.
     */
    private final class Listing {
        private static final Pattern HEADER_KEY = Pattern.compile("\\A[ \\t]*@\\s*\\w+\\s*[{(]\\s*([^\\s,]+)");
        private static final Pattern NAMES_CROSSREF = Pattern.compile("(?i)crossref");
        private static final Pattern STRING = Pattern.compile("(?i)\\A[ \\t]*@\\s*string\\b");

        private final java.nio.channels.FileChannel channel;
        private final Encoding encoding;
        final String hash;
        /** Keys some entry's crossref names. */
        private final java.util.Set<String> parentKeys = new java.util.HashSet<>();
        /** Parents found after an entry that names them (BibTeX's own order), kept as text until needed. */
        private final Map<String, EntryChunks.Chunk> laterParents = new java.util.HashMap<>();
        private final Map<String, BibTeXEntry> parents = new java.util.HashMap<>();
        private final ChunkParser parser = ChunkParser.create();
        private final java.util.Set<String> ids = new java.util.HashSet<>();
        private final EntryChunks chunks;
        private int listed;
        private boolean dialect;
        String cursor;

        Listing() {
            try {
                channel = Files.exists(file) ? java.nio.channels.FileChannel.open(file) : null;
                byte[] head = new byte[203]; // a byte-order mark and the 200 bytes Encoding looks at
                int n = channel == null ? 0 : Math.max(0, channel.read(java.nio.ByteBuffer.wrap(head)));
                encoding = Encoding.of(java.util.Arrays.copyOf(head, n));
                Fingerprint.Running digest = new Fingerprint.Running();
                ChunkParser scan = ChunkParser.create();
                EntryChunks first = chunks();
                Dialect seen = new Dialect();
                for (EntryChunks.Chunk c = nextOf(first); c != null; c = nextOf(first)) {
                    digest.add(c.text());
                    if (!c.entry()) {
                        continue;
                    }
                    seen.see(c.text());
                    Matcher key = HEADER_KEY.matcher(c.text());
                    if (key.lookingAt() && parentKeys.contains(key.group(1))) {
                        laterParents.putIfAbsent(key.group(1), c);
                    }
                    if (NAMES_CROSSREF.matcher(c.text()).find() || STRING.matcher(c.text()).lookingAt()) {
                        scan.read(c, new java.util.HashSet<>(), new ArrayList<>(), (id, e) -> {
                            String parent = BibTeXFields.crossref(e);
                            if (parent != null) {
                                parentKeys.add(parent);
                            }
                        });
                    }
                }
                hash = digest.finish();
                dialect = seen.bibtex();
                bibtexDialect = dialect;
                urlsAsNotes = seen.urlsAsNotes();
                chunks = chunks();
            } catch (IOException e) {
                close();
                throw new ToolException("cannot read BibTeX file " + file + ": " + e.getMessage(), e);
            }
        }

        /** The file's text from its start (after a byte-order mark), in its charset. */
        private EntryChunks chunks() throws IOException {
            if (channel == null) {
                return new EntryChunks(new StringReader(""));
            }
            channel.position(encoding.bom() ? 3 : 0);
            return new EntryChunks(new java.io.InputStreamReader(java.nio.channels.Channels.newInputStream(channel), encoding.charset()));
        }

        /** The next {@code size} entries (fewer at the end), read into records as {@link #changedSince} gives them. */
        ChangePage page(int size) {
            List<RemoteRecord> records = new ArrayList<>();
            List<Skipped> skipped = new ArrayList<>();
            List<Skipped> unread = new ArrayList<>();
            int read = 0; // stretches, a malformed one included: a page of nothing but broken entries is a page too
            EntryChunks.Chunk c = null;
            while (read < size && (c = nextOf(chunks)) != null) {
                if (c.entry()) {
                    read++;
                    parser.read(c, ids, skipped, (id, e) -> {
                        if (parentKeys.contains(id)) {
                            parents.put(id, e);
                        }
                        listedRecord(id, e, this::parent, records, unread, dialect);
                    });
                }
            }
            listed += read;
            boolean more = c != null;
            cursor = more ? hash + "+" + listed : hash;
            skipped.addAll(unread);
            return new ChangePage(records, List.of(), skipped, cursor, more, skipped.isEmpty()); // the whole file, over the pages
        }

        /** A parent as BibTeX finds it: read before, or read now from the text the first pass kept. */
        private BibTeXEntry parent(String key) {
            BibTeXEntry e = parents.get(key);
            EntryChunks.Chunk later = laterParents.remove(key);
            if (e == null && later != null) {
                ChunkParser side = ChunkParser.create();
                parser.getMacros().values().forEach(side::addMacro); // the macros defined so far
                side.read(later, new java.util.HashSet<>(), new ArrayList<>(), (id, found) -> {
                    if (id.equals(key)) {
                        parents.put(key, found);
                    }
                });
                e = parents.get(key);
            }
            return e;
        }

        void close() {
            try {
                if (channel != null) {
                    channel.close();
                }
            } catch (IOException ignored) {
                // read-only: nothing was left unwritten
            }
        }
    }

    /** One listed entry as a record (an untitled one too), or skipped with why (no field Idiom reads, a value Idiom cannot read). */
    private static void listedRecord(String id, BibTeXEntry e, java.util.function.Function<String, BibTeXEntry> parents, List<RemoteRecord> records,
                                     List<Skipped> skipped, boolean bibtexDialect) {
        try {
            RemoteRecord r = record(parents, id, e, bibtexDialect);
            if (!dev.idiom.events.Changes.describes(r.metadata().with(Field.CITATION_KEY, null))) {
                skipped.add(new Skipped(r.remoteId(), "entry has no field Idiom reads"));
            } else {
                records.add(r);
            }
        } catch (RuntimeException bad) {
            skipped.add(new Skipped(id, bad.getMessage()));
        }
    }

    private RemoteRecord record(Parsed p, String remoteId, BibTeXEntry e) {
        return record(p.entries()::get, remoteId, e, bibtexDialect);
    }

    /** The entry as a record; what it does not say itself it takes from the entry its {@code crossref} names, as BibTeX does. */
    private static RemoteRecord record(java.util.function.Function<String, BibTeXEntry> entries, String remoteId, BibTeXEntry e, boolean bibtexDialect) {
        Metadata m = BibTeXFields.metadata(BibTeXFields.inheriting(e, entries), bibtexDialect);
        return new RemoteRecord(remoteId, version(e), remoteId.startsWith(KEYLESS_PREFIX) ? m : m.with(Field.CITATION_KEY, remoteId));
    }

    /** Fingerprint of the entry's type and fields in key order. */
    private static String version(BibTeXEntry e) {
        Map<String, String> fields = new TreeMap<>();
        for (Map.Entry<Key, Value> f : e.getFields().entrySet()) {
            fields.put(f.getKey().getValue().toLowerCase(Locale.ROOT), f.getValue().toUserString());
        }
        return Fingerprint.of(e.getType().getValue().toLowerCase(Locale.ROOT) + fields);
    }

    /**
     * An entry holds what its type has a place for ({@link BibTeXMapping#holdable}); an entry that is
     * in the file keeps its key, which may differ from the record's citation key: a key renamed by
     * a sync would break every {@code \cite} of it. A new entry takes the citation key as its key.
     */
    @Override
    public Metadata writable(Metadata wanted, Metadata known) {
        return asWritten(wanted, known, bibtexDialect);
    }

    /**
     * What an entry written from {@code wanted} holds, read back, in a file of BibTeX's own dialect
     * when {@code dialect}: as {@link #writable}, for a copy last synced as {@code known} (null: a new one).
     * An arXiv id with classes is the id and an {@code eprintclass}; a copy that has it whole in its
     * {@code eprint} (as Idiom wrote it before) keeps it so while the id is the same. A PubMed address
     * gives a new entry its PubMed id, where the record has none (a copy made before, only where it has that one).
     * A value is as the entry reads back: its runs of white space one space, a {@code @phdthesis} a PhD thesis, a
     * Zotero date typed as a range or a season the BibLaTeX {@code date} it is written as.
     */
    static Metadata asWritten(Metadata wanted, Metadata known, boolean dialect) {
        Metadata m = BibTeXMapping.holdable(wanted, dialect);
        // the entry type a copy's BibTeX extras name is the one it has: an entry is not retyped while the record's type stays
        String written = BibTeXMapping.entryType(wanted, dialect);
        String entryType = known != null && java.util.Objects.equals(known.type(), wanted.type())
                ? known.extras(Field.BIBTEX_EXTRAS).get(BibTeXMapping.ENTRY_TYPE_EXTRA)
                : written.equalsIgnoreCase(BibTeXMapping.defaultEntryType(wanted, dialect)) ? null : written;
        m = BibTeXFields.filled(m, dialect, known, entryType != null ? entryType : written);
        Map<String, String> extras = new TreeMap<>(BibTeXFields.extrasFor(m, dialect, known));
        extras.remove(BibTeXMapping.ENTRY_TYPE_EXTRA);
        if (entryType != null) {
            extras.put(BibTeXMapping.ENTRY_TYPE_EXTRA, entryType);
        }
        String[] arxiv = BibTeXMapping.arxivParts(m.arxiv(), dialect);
        if (arxiv != null && (known == null || !java.util.Objects.equals(known.arxiv(), m.arxiv()))) {
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

    /** The fields an entry holds (worked out once: every owed-write check asks). */
    private static final java.util.Set<Field> HELD = BibTeXMapping.entryFields();

    /** A file holds every field an entry has a place for (one entry type's too: a case's court), and its own kind's extras (not a Zotero item's). */
    @Override
    public java.util.Set<Field> fieldsKept() {
        java.util.Set<Field> out = BibTeXMapping.entryFields();
        out.addAll(BibTeXMapping.ONE_TYPE);
        out.add(Field.BIBTEX_EXTRAS);
        return out;
    }

    @Override
    public synchronized Optional<RemoteRecord> fetch(String remoteId) {
        Parsed p = read();
        return Optional.ofNullable(p.entry(remoteId)).map(e -> record(p, remoteId, e));
    }

    @Override
    public synchronized RemoteRecord create(Metadata metadata, boolean keepPrivate) {
        Made made = createAll(List.of(new NewCopy(metadata, keepPrivate, null))).getFirst();
        if (made.failure() != null) {
            throw made.failure();
        }
        return made.record();
    }

    /** Every new entry in one read and one write of the file (a first mirror of thousands is not thousands of rewrites). */
    @Override
    public synchronized List<Made> createAll(List<NewCopy> copies) {
        Parsed p = read();
        java.util.Set<String> taken = new java.util.HashSet<>();
        List<String> keys = new ArrayList<>();
        List<BibTeXEntry> added = new ArrayList<>();
        for (NewCopy c : copies) {
            String key = newKey(p, c.metadata(), taken);
            taken.add(key);
            keys.add(key);
            added.add(BibTeXFields.withChanges(new BibTeXEntry(new Key(BibTeXMapping.entryType(c.metadata(), bibtexDialect)), new Key(key)),
                    Metadata.EMPTY, c.metadata(), bibtexDialect, urlsAsNotes));
        }
        for (BibTeXEntry entry : added) {
            // a crossref a Zotero item names (tex.crossref) is written where it names no entry of this file: the fields of one it
            // named would be read as this entry's, which the record does not hold
            String crossref = BibTeXFields.crossref(entry);
            if (crossref != null && (p.entry(crossref) != null || keys.contains(crossref))) {
                entry.removeField(new Key("crossref"));
            }
            p.segments().add(new Segment(null, new ArrayList<>(List.of(entry))));
        }
        write(p);
        Parsed again = read(); // each entry as the file now holds it, read back: its version is the one the next read will see
        List<Made> out = new ArrayList<>();
        for (String key : keys) {
            BibTeXEntry e = again.entry(key);
            out.add(e == null ? new Made(null, new ToolException("entry " + key + " is not in " + file.getFileName() + " after writing it"))
                    : new Made(record(again, key, e), null));
        }
        return out;
    }

    @Override
    public synchronized RemoteRecord update(RemoteRecord known, Metadata wanted) {
        String remoteId = known.remoteId();
        String knownVersion = known.version();
        Parsed p = read();
        BibTeXEntry entry = p.entry(remoteId);
        if (entry == null) {
            throw new RemoteChangedException("entry " + remoteId + " is no longer in " + file.getFileName());
        }
        if (knownVersion != null && !version(entry).equals(knownVersion)) {
            throw new RemoteChangedException("entry " + remoteId + " in " + file.getFileName() + " was edited since version " + knownVersion);
        }
        dev.idiom.wrappers.UnreadValues.refuseToReplace(known.metadata(), record(p, remoteId, entry).metadata(), writable(wanted, known.metadata()),
                fieldsKept(), "entry " + remoteId + " in " + file.getFileName());
        String before = version(entry);
        Map<Key, Value> fieldsBefore = new java.util.LinkedHashMap<>(entry.getFields()); // withChanges writes into the entry itself
        BibTeXEntry changed = BibTeXFields.withChanges(entry, known.metadata(), wanted, bibtexDialect, urlsAsNotes);
        if (changed == entry && version(changed).equals(before)) {
            return record(p, remoteId, changed); // nothing to write: the file is left as it is, not even touched
        }
        if (remoteId.startsWith(KEYLESS_PREFIX)) {
            // written now, so it needs a key: the engine re-keys the copy under it
            changed = BibTeXFields.rekeyed(changed, newKey(p, wanted));
        }
        BibTeXEntry replacement = changed;
        String newKey = changed.getKey().equals(entry.getKey()) ? null : changed.getKey().getValue();
        p.segments().forEach(seg -> {
            if (seg.objects() != null && seg.objects().indexOf(entry) >= 0) {
                seg.objects().set(seg.objects().indexOf(entry), replacement);
                seg.changed = true;
                seg.rewritten = spliced(seg, fieldsBefore, entry.getType(), replacement, newKey);
            }
        });
        write(p);
        return written(changed.getKey().getValue());
    }

    /** The entry as the file now holds it, read back: its version is the one the next read will see. */
    private RemoteRecord written(String key) {
        Parsed again = read();
        BibTeXEntry e = again.entry(key);
        if (e == null) {
            throw new ToolException("entry " + key + " is not in " + file.getFileName() + " after writing it");
        }
        return record(again, key, e);
    }

    /**
     * The stretch with only the changed fields rewritten in the entry's own text, or null when the
     * change cannot be written in place (a value jbibtex holds in a form not
     * written back as such, an entry the splice cannot read): then the entry is formatted anew.
     */
    private static String spliced(Segment seg, Map<Key, Value> before, Key typeBefore, BibTeXEntry after, String newKey) {
        if (seg.raw() == null || seg.objects().size() != 1) {
            return null;
        }
        Map<String, String> changes = new java.util.LinkedHashMap<>();
        for (Map.Entry<Key, Value> f : after.getFields().entrySet()) {
            if (before.get(f.getKey()) != f.getValue()) {
                String written = BibTeXFields.written(f.getValue());
                if (written == null) {
                    return null;
                }
                changes.put(f.getKey().getValue(), written);
            }
        }
        before.keySet().stream().filter(k -> after.getField(k) == null).forEach(k -> changes.put(k.getValue(), null));
        EntrySplice splice = EntrySplice.of(seg.raw());
        // a new type is written where the old one stood, the rest of the entry as it was (its layout, its unknown fields)
        String newType = typeBefore.equals(after.getType()) ? null : after.getType().getValue();
        return splice == null ? null : splice.with(changes, newKey, newType);
    }

    @Override
    public synchronized void delete(String remoteId, String knownVersion) {
        Parsed p = read();
        BibTeXEntry entry = p.entry(remoteId);
        if (entry == null) {
            return;
        }
        if (knownVersion != null && !version(entry).equals(knownVersion)) {
            throw new RemoteChangedException("entry " + remoteId + " in " + file.getFileName() + " was edited since version " + knownVersion);
        }
        p.segments().forEach(seg -> {
            if (seg.objects() != null && seg.objects().remove(entry)) {
                seg.changed = true;
            }
        });
        write(p);
    }

    private static final com.fasterxml.jackson.databind.ObjectMapper KEPT = new com.fasterxml.jackson.databind.ObjectMapper();

    /**
     * Deletes the entry and keeps its stretch's text as it stood and the key of the entry before it:
     * {@link #restore(String, String)} puts those bytes back at that place.
     */
    @Override
    public synchronized String deleteKeeping(String remoteId, String knownVersion) {
        Parsed p = read();
        BibTeXEntry entry = p.entry(remoteId);
        if (entry == null) {
            return null;
        }
        String previous = null;
        String text = null;
        for (Segment seg : p.segments()) {
            if (seg.objects() != null && seg.objects().contains(entry)) {
                text = seg.objects().size() == 1 ? seg.raw() : null; // a stretch of several objects is not kept: restored anew
                break;
            }
            if (seg.objects() != null && !seg.objects().isEmpty() && seg.objects().getLast() instanceof BibTeXEntry e) {
                previous = e.getKey().getValue();
            }
        }
        delete(remoteId, knownVersion);
        if (text == null) {
            return null;
        }
        com.fasterxml.jackson.databind.node.ObjectNode kept = KEPT.createObjectNode().put("text", text).put("previous", previous);
        return kept.toString();
    }

    /**
     * The entry's own text back where it stood (after the entry that preceded it, the blank lines and
     * comments that followed it back after it), so a delete and a restore leave the file byte for
     * byte; at the end when that place is gone. Empty if nothing was kept or the text no longer reads.
     */
    @Override
    public synchronized Optional<RemoteRecord> restore(String remoteId, String kept) {
        if (kept == null) {
            return Optional.empty();
        }
        String text;
        String previous;
        try {
            com.fasterxml.jackson.databind.JsonNode k = KEPT.readTree(kept);
            text = k.path("text").asText(null);
            previous = k.path("previous").isTextual() ? k.get("previous").asText() : null;
        } catch (IOException e) {
            return Optional.empty();
        }
        Parsed p = read();
        if (p.entry(remoteId) != null) {
            return fetch(remoteId); // it is there (put back by hand): as it now is
        }
        if (text == null) {
            return Optional.empty();
        }
        String tail = afterEntry(text); // what followed the entry and stayed in the file when it went
        int at = -1; // the stretch the entry went out after
        if (previous != null) {
            for (int i = 0; i < p.segments().size(); i++) {
                Segment seg = p.segments().get(i);
                if (seg.objects() != null && seg.objects().stream().anyMatch(o -> o instanceof BibTeXEntry e && e.getKey().getValue().equals(previous))) {
                    at = i;
                }
            }
        } else if (!p.segments().isEmpty() && p.segments().getFirst().objects() == null && p.segments().getFirst().raw() != null
                && !p.segments().getFirst().raw().stripLeading().startsWith("@")) {
            at = 0; // the text before the first entry
        }
        if (previous != null && at < 0) {
            at = p.segments().size() - 1; // its place is gone: at the end
        }
        Segment before = at >= 0 ? p.segments().get(at) : null;
        if (before != null && before.raw() != null && !tail.isEmpty() && before.raw().endsWith(tail) && !before.changed) {
            p.segments().set(at, new Segment(before.raw().substring(0, before.raw().length() - tail.length()), before.objects()));
        } else if (before != null && before.raw() != null && !before.raw().isEmpty() && !before.raw().endsWith("\n")) {
            text = "\n" + text;
        }
        p.segments().add(at + 1, new Segment(text, null));
        write(p);
        return fetch(remoteId);
    }

    /**
     * What follows the entry in a stretch of the file (from after its closing brace or parenthesis
     * to the end of the stretch, less the newline that ends the entry's line): comments and blank
     * lines before the next entry. Braces inside the entry are counted; quoted values may hold
     * braces only in pairs, as BibTeX requires.
     */
    static String afterEntry(String raw) {
        int end = entryEnd(raw);
        if (end < 0) {
            return "";
        }
        String rest = raw.substring(end);
        return rest.startsWith("\r\n") ? rest.substring(2) : rest.startsWith("\n") ? rest.substring(1) : rest;
    }

    /** Where the entry that starts a stretch ends (after its closing brace or parenthesis), or -1. */
    /** {@code @type(} at the start of a stretch: an entry in parentheses, as BibTeX allows (and old files and Emacs write). */
    private static final Pattern PARENTHESIZED = Pattern.compile("\\s*@\\s*[A-Za-z]+\\s*\\(");

    /**
     * The stretch with an entry's parentheses read as braces, one character for one (jbibtex reads
     * {@code @article(key, …)} as a name): the closing one is the first {@code )} outside braces
     * and quotes. Anything else is returned as it is.
     */
    static String bracedForParsing(String chunk) {
        Matcher m = PARENTHESIZED.matcher(chunk);
        if (!m.lookingAt()) {
            return chunk;
        }
        int open = m.end() - 1;
        int close = Braces.closingParenthesis(chunk, open);
        return close < 0 ? chunk : chunk.substring(0, open) + "{" + chunk.substring(open + 1, close) + "}" + chunk.substring(close + 1);
    }

    private static int entryEnd(String raw) {
        int open = -1;
        for (int i = 0; i < raw.length(); i++) {
            char c = raw.charAt(i);
            if (c == '{' || c == '(') {
                open = i;
                break;
            }
        }
        if (open < 0) {
            return -1;
        }
        int close = raw.charAt(open) == '{' ? Braces.closing(raw, open) : Braces.closingParenthesis(raw, open);
        return close < 0 ? -1 : close + 1;
    }

    /**
     * The key of an entry Idiom writes: the record's citation key when the file does not use it yet
     * (a key Better BibTeX or another file gave it), else JabRef's style — first author's family name
     * and year, then a, b, c… if taken.
     */
    private static String newKey(Parsed p, Metadata m) {
        return newKey(p, m, java.util.Set.of());
    }

    /** A key for a new entry that neither the file nor {@code taken} (entries added beside it) has. */
    private static String newKey(Parsed p, Metadata m, java.util.Set<String> taken) {
        if (m.citationKey() != null && m.citationKey().length() <= MAX_KEY && CITATION_KEY.matcher(m.citationKey()).matches()
                && p.entry(m.citationKey()) == null && !taken.contains(m.citationKey())) {
            return m.citationKey();
        }
        // ASCII, as Better BibTeX's keys: a key with other letters breaks BibTeX 0.99 and many styles
        String family = m.authors().isEmpty() ? "" : BibTeXMapping.keyPart(m.authors().getFirst().family());
        String name = family.isEmpty() ? BibTeXMapping.keyPart(Normalized.fold(m.title()).split(" ")[0]) : family;
        name = name.substring(0, Math.min(name.length(), MAX_KEY_NAME)); // a title's first word may be any length
        String base = (name.isEmpty() ? "idiom" : name) + (m.year() == null ? "" : m.year()); // a key starts with a letter
        String key = base;
        for (int n = 1; p.entry(key) != null || taken.contains(key); n++) {
            key = base + suffix(n);
        }
        return key;
    }

    /**
     * The {@code n}th suffix that tells apart keys of one author and year, as JabRef and Better
     * BibTeX write them: a … z, then aa … az, ba …, so any number of them stay letters a key may hold.
     */
    static String suffix(int n) {
        StringBuilder s = new StringBuilder();
        for (int left = n; left > 0; left = (left - 1) / 26) {
            s.append((char) ('a' + (left - 1) % 26));
        }
        return s.reverse().toString();
    }

    /**
     * One record as a BibTeX entry, formatted as this adapter writes a new entry to a file (the
     * entry type and fields of {@link BibTeXMapping}, LaTeX's special characters escaped): what a
     * citation export answers. Its key is the record's citation key, else JabRef's style.
     */
    public static String entry(Metadata m) {
        return entry(m, false);
    }

    /** As above, as a new entry of a file in BibTeX's own dialect when {@code bibtexDialect} (no {@code @online}, no {@code date}). */
    public static String entry(Metadata m, boolean bibtexDialect) {
        return entry(m, bibtexDialect, false);
    }

    /** As above, in a file that gives addresses as <code>note = {&#92;url{…}}</code> when {@code urlsAsNotes}. */
    public static String entry(Metadata m, boolean bibtexDialect, boolean urlsAsNotes) {
        Parsed none = new Parsed(new ArrayList<>(), Map.of(), null);
        BibTeXEntry e = BibTeXFields.withChanges(new BibTeXEntry(new Key(BibTeXMapping.entryType(m, bibtexDialect)), new Key(newKey(none, m))),
                Metadata.EMPTY, asWritten(m, null, bibtexDialect), bibtexDialect, urlsAsNotes);
        BibTeXDatabase db = new BibTeXDatabase();
        db.addObject(e);
        StringWriter out = new StringWriter();
        BibTeXFormatter formatter = new BibTeXFormatter();
        formatter.setIndent("  ");
        try {
            formatter.format(db, out);
        } catch (IOException e2) {
            throw new java.io.UncheckedIOException(e2); // a StringWriter does not fail
        }
        return out.toString().strip() + "\n";
    }

    /**
     * Writes every stretch Idiom did not change as it was read, byte for byte, and formats only the
     * changed ones with jbibtex (keeping what followed the entry in its stretch: comments, blank
     * lines); in the file's own charset, with its byte-order mark if it had one.
     */
    private void write(Parsed p) {
        try {
            StringWriter out = new StringWriter();
            BibTeXFormatter formatter = new BibTeXFormatter();
            formatter.setIndent("  ");
            for (Segment seg : p.segments()) {
                if (seg.objects() == null || !seg.changed) {
                    out.write(seg.raw());
                } else if (seg.rewritten != null) {
                    out.write(seg.rewritten);
                } else {
                    if (!seg.objects().isEmpty()) {
                        BibTeXDatabase db = new BibTeXDatabase();
                        seg.objects().forEach(db::addObject);
                        formatter.format(db, out);
                        out.write("\n");
                    }
                    if (seg.raw() != null) {
                        out.write(afterEntry(seg.raw()));
                    }
                }
            }
            Path tmp = file.resolveSibling("." + file.getFileName() + ".idiom-tmp");
            Files.write(tmp, p.encoding().encode(out.toString()));
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new ToolException("cannot write BibTeX file " + file + ": " + e.getMessage(), e);
        }
    }
}
