package dev.idiom.wrappers.bibtex;

import dev.idiom.events.Fingerprint;
import dev.idiom.wrappers.ChangePage;
import dev.idiom.wrappers.RemoteRecord;
import dev.idiom.wrappers.Skipped;
import dev.idiom.wrappers.ToolException;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.StringReader;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jbibtex.BibTeXEntry;

/**
 * A listing of a file as it was when the listing began (the file stays open: a write replaces
 * it, so this one goes on reading what it fingerprinted). A first pass takes the fingerprint and
 * finds the entries some {@code crossref} names; the second parses an entry at a time, keeping
 * only those parents, so memory follows the largest entry and the number of parents, not the
 * file's size (a 200,000-entry import held the parsed file and every record at once: a live set of 0.4–0.6 GiB).
 */
final class FileListing implements AutoCloseable {
    private static final Pattern HEADER_KEY = Pattern.compile("\\A[ \\t]*@\\s*\\w+\\s*[{(]\\s*([^\\s,]+)");
    private static final Pattern NAMES_CROSSREF = Pattern.compile("(?i)crossref");
    private static final Pattern STRING = Pattern.compile("(?i)\\A[ \\t]*@\\s*string\\b");

    private final Path file;
    private final FileChannel channel;
    private final FileEncoding encoding;
    /** The file's fingerprint: the cursor of its last page. */
    final String hash;
    /** Keys some entry's crossref names. */
    private final Set<String> parentKeys = new HashSet<>();
    /** Parents found after an entry that names them (BibTeX's own order), kept as text until needed. */
    private final Map<String, EntryChunks.Chunk> laterParents = new HashMap<>();
    private final Map<String, BibTeXEntry> parents = new HashMap<>();
    private final EntryParser parser = EntryParser.create();
    private final Set<String> ids = new HashSet<>();
    private final EntryChunks chunks;
    private final boolean bibtexDialect;
    private final boolean urlsAsNotes;
    private int listed;
    /** The cursor of the last page given: the fingerprint and how many stretches were read, or the fingerprint alone at the end. */
    String cursor;

    FileListing(Path file) {
        this.file = file;
        FileChannel open = null;
        try {
            open = Files.exists(file) ? FileChannel.open(file) : null;
            channel = open;
            byte[] head = new byte[FileEncoding.HEAD_BYTES];
            int n = channel == null ? 0 : Math.max(0, channel.read(ByteBuffer.wrap(head)));
            encoding = FileEncoding.of(Arrays.copyOf(head, n));
            Fingerprint.Running digest = new Fingerprint.Running();
            EntryParser scan = EntryParser.create();
            EntryChunks first = chunks();
            FileDialect seen = new FileDialect();
            for (EntryChunks.Chunk c = first.nextIn(file); c != null; c = first.nextIn(file)) {
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
                    scan.read(c, new HashSet<>(), new ArrayList<>(), (id, e) -> {
                        String parent = BibTeXFields.crossref(e);
                        if (parent != null) {
                            parentKeys.add(parent);
                        }
                    });
                }
            }
            hash = digest.finish();
            bibtexDialect = seen.bibtex();
            urlsAsNotes = seen.urlsAsNotes();
            chunks = chunks();
        } catch (IOException | RuntimeException e) {
            closeQuietly(open);
            throw e instanceof IOException io ? new ToolException("cannot read BibTeX file " + file + ": " + io.getMessage(), io) : (RuntimeException) e;
        }
    }

    /** The file's dialect, as {@link FileDialect#bibtex} reads it. */
    boolean bibtexDialect() {
        return bibtexDialect;
    }

    /** Whether the file gives addresses in notes and never in {@code url} ({@link FileDialect#urlsAsNotes}). */
    boolean urlsAsNotes() {
        return urlsAsNotes;
    }

    /** The file's text from its start (after a byte-order mark), in its charset. */
    private EntryChunks chunks() throws IOException {
        if (channel == null) {
            return new EntryChunks(new StringReader(""));
        }
        channel.position(encoding.bom() ? 3 : 0);
        return new EntryChunks(new InputStreamReader(Channels.newInputStream(channel), encoding.charset()));
    }

    /** The next {@code size} entries (fewer at the end), read into records. */
    ChangePage page(int size) {
        List<RemoteRecord> records = new ArrayList<>();
        List<Skipped> skipped = new ArrayList<>();
        List<Skipped> unread = new ArrayList<>();
        int read = 0; // stretches, a malformed one included: a page of nothing but broken entries is a page too
        EntryChunks.Chunk c = null;
        while (read < size && (c = chunks.nextIn(file)) != null) {
            if (c.entry()) {
                read++;
                parser.read(c, ids, skipped, (id, e) -> {
                    if (parentKeys.contains(id)) {
                        parents.put(id, e);
                    }
                    EntryRecords.listed(id, e, this::parent, records, unread, bibtexDialect);
                });
            }
        }
        listed += read;
        boolean more = c != null;
        cursor = more ? hash + "+" + listed : hash;
        skipped.addAll(unread);
        return new ChangePage(records, List.of(), skipped, cursor, more, skipped.stream().allMatch(Skipped::imported)); // the whole file, over the pages
    }

    /** A parent as BibTeX finds it: read before, or read now from the text the first pass kept. */
    private BibTeXEntry parent(String key) {
        BibTeXEntry e = parents.get(key);
        EntryChunks.Chunk later = laterParents.remove(key);
        if (e == null && later != null) {
            EntryParser.after(parser).read(later, new HashSet<>(), new ArrayList<>(), (id, found) -> { // with the macros defined so far
                if (id.equals(key)) {
                    parents.put(key, found);
                }
            });
            e = parents.get(key);
        }
        return e;
    }

    @Override
    public void close() {
        closeQuietly(channel);
    }

    private static void closeQuietly(FileChannel c) {
        try {
            if (c != null) {
                c.close();
            }
        } catch (IOException ignored) {
            // read-only: nothing was left unwritten
        }
    }
}
