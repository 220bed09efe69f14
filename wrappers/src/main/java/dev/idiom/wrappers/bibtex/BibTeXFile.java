package dev.idiom.wrappers.bibtex;

import dev.idiom.events.Field;
import dev.idiom.events.Metadata;
import dev.idiom.wrappers.AnnotationTool;
import dev.idiom.wrappers.BibTeXMapping;
import dev.idiom.wrappers.ChangePage;
import dev.idiom.wrappers.RemoteChangedException;
import dev.idiom.wrappers.RemoteRecord;
import dev.idiom.wrappers.ToolException;
import dev.idiom.wrappers.ToolLimits;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jbibtex.BibTeXEntry;
import org.jbibtex.Key;
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
     * The whole file, a page of {@link #PAGE} entries at a time, read as a stream (a 200,000-entry
     * import held the parsed file and every record at once: a live set of 0.4–0.6 GiB). The last
     * page's cursor is the file's fingerprint; one before it names the listing under way, which
     * only this object can continue: any other cursor starts a whole listing again.
     */
    @Override
    public synchronized ChangePage changedSince(String cursor) {
        if (listing == null || cursor == null || !cursor.equals(listing.cursor)) {
            closeListing();
            listing = new FileListing(file); // reads the file through once: its fingerprint and the crossref parents
            bibtexDialect = listing.bibtexDialect();
            urlsAsNotes = listing.urlsAsNotes();
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
    private final int pageSize;
    /** The listing under way, if one is. */
    private FileListing listing;
    /** The file's dialect as last read: BibTeX's own (no {@code @online}, no {@code date}), else BibLaTeX's (an empty file too). */
    private volatile boolean bibtexDialect;
    /** Whether the file, as last read, gives addresses as classic BibTeX's styles print them (<code>note = {&#92;url{…}}</code>) and never in {@code url}. */
    private volatile boolean urlsAsNotes;

    /** The file read whole, to be written; its dialect is the one new entries and edits are written in. */
    private synchronized ParsedFile read() {
        ParsedFile p = ParsedFile.read(file);
        bibtexDialect = p.bibtexDialect();
        urlsAsNotes = p.urlsAsNotes();
        return p;
    }

    private RemoteRecord record(ParsedFile p, String remoteId, BibTeXEntry e) {
        return EntryRecords.record(p::entry, remoteId, e, bibtexDialect);
    }

    private void closeListing() {
        if (listing != null) {
            listing.close();
            listing = null;
        }
    }

    /**
     * An entry holds what its type has a place for ({@link BibTeXMapping#holdable}); an entry that is
     * in the file keeps its key, which may differ from the record's citation key: a key renamed by
     * a sync would break every {@code \cite} of it. A new entry takes the citation key as its key.
     */
    @Override
    public Metadata writable(Metadata wanted, Metadata known) {
        return WrittenEntry.of(wanted, known, bibtexDialect);
    }

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
        ParsedFile p = read();
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
        ParsedFile p = read();
        java.util.Set<String> taken = new java.util.HashSet<>();
        List<String> keys = new ArrayList<>();
        List<BibTeXEntry> added = new ArrayList<>();
        for (NewCopy c : copies) {
            String key = CitationKeys.newKey(c.metadata(), k -> p.entry(k) != null || taken.contains(k));
            taken.add(key);
            keys.add(key);
            added.add(WrittenEntry.created(c.metadata(), key, bibtexDialect, urlsAsNotes));
        }
        for (BibTeXEntry entry : added) {
            // a crossref a Zotero item names (tex.crossref) is written where it names no entry of this file: the fields of one it
            // named would be read as this entry's, which the record does not hold
            String crossref = BibTeXFields.crossref(entry);
            if (crossref != null && (p.entry(crossref) != null || keys.contains(crossref))) {
                entry.removeField(new Key("crossref"));
            }
            p.append(entry);
        }
        p.write(file);
        ParsedFile again = read(); // each entry as the file now holds it, read back: its version is the one the next read will see
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
        ParsedFile p = read();
        BibTeXEntry entry = p.entry(remoteId);
        if (entry == null) {
            throw new RemoteChangedException("entry " + remoteId + " is no longer in " + file.getFileName());
        }
        if (knownVersion != null && !EntryRecords.version(entry).equals(knownVersion)) {
            throw new RemoteChangedException("entry " + remoteId + " in " + file.getFileName() + " was edited since version " + knownVersion);
        }
        dev.idiom.wrappers.UnreadValues.refuseToReplace(known.metadata(), record(p, remoteId, entry).metadata(), writable(wanted, known.metadata()),
                fieldsKept(), "entry " + remoteId + " in " + file.getFileName());
        String before = EntryRecords.version(entry);
        Map<Key, Value> fieldsBefore = new java.util.LinkedHashMap<>(entry.getFields()); // withChanges writes into the entry itself
        BibTeXEntry changed = BibTeXFields.withChanges(entry, known.metadata(), wanted, bibtexDialect, urlsAsNotes);
        if (changed == entry && EntryRecords.version(changed).equals(before)) {
            return record(p, remoteId, changed); // nothing to write: the file is left as it is, not even touched
        }
        if (remoteId.startsWith(EntryParser.KEYLESS_PREFIX)) {
            // written now, so it needs a key: the engine re-keys the copy under it
            changed = BibTeXFields.rekeyed(changed, CitationKeys.newKey(wanted, k -> p.entry(k) != null));
        }
        BibTeXEntry replacement = changed;
        String newKey = changed.getKey().equals(entry.getKey()) ? null : changed.getKey().getValue();
        p.replace(entry, replacement, seg -> spliced(seg, fieldsBefore, entry.getType(), replacement, newKey));
        p.write(file);
        return written(changed.getKey().getValue());
    }

    /** The entry as the file now holds it, read back: its version is the one the next read will see. */
    private RemoteRecord written(String key) {
        ParsedFile again = read();
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
    private static String spliced(ParsedFile.Segment seg, Map<Key, Value> before, Key typeBefore, BibTeXEntry after, String newKey) {
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
        ParsedFile p = read();
        BibTeXEntry entry = p.entry(remoteId);
        if (entry == null) {
            return;
        }
        if (knownVersion != null && !EntryRecords.version(entry).equals(knownVersion)) {
            throw new RemoteChangedException("entry " + remoteId + " in " + file.getFileName() + " was edited since version " + knownVersion);
        }
        p.remove(entry);
        p.write(file);
    }

    private static final com.fasterxml.jackson.databind.ObjectMapper KEPT = new com.fasterxml.jackson.databind.ObjectMapper();

    /**
     * Deletes the entry and keeps its stretch's text as it stood and the key of the entry before it:
     * {@link #restore(String, String)} puts those bytes back at that place.
     */
    @Override
    public synchronized String deleteKeeping(String remoteId, String knownVersion) {
        ParsedFile p = read();
        BibTeXEntry entry = p.entry(remoteId);
        if (entry == null) {
            return null;
        }
        ParsedFile.Stretch stretch = p.stretchOf(entry);
        delete(remoteId, knownVersion);
        if (stretch == null) {
            return null;
        }
        com.fasterxml.jackson.databind.node.ObjectNode kept = KEPT.createObjectNode().put("text", stretch.text()).put("previous", stretch.previousKey());
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
        ParsedFile p = read();
        if (p.entry(remoteId) != null) {
            return fetch(remoteId); // it is there (put back by hand): as it now is
        }
        if (text == null) {
            return Optional.empty();
        }
        p.putBack(new ParsedFile.Stretch(text, previous));
        p.write(file);
        return fetch(remoteId);
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
        return WrittenEntry.text(m, bibtexDialect, urlsAsNotes);
    }
}
