package dev.idiom.wrappers.bibtex;

import dev.idiom.wrappers.Skipped;
import dev.idiom.wrappers.ToolException;
import java.io.IOException;
import java.io.StringReader;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jbibtex.BibTeXDatabase;
import org.jbibtex.BibTeXEntry;
import org.jbibtex.BibTeXFormatter;
import org.jbibtex.BibTeXObject;

/**
 * A file read whole to be written (a listing reads it as a stream: {@link FileListing}): its
 * stretches, its entries by remote id, how it is stored and its dialect. What it skips is the
 * listing's to say.
 */
final class ParsedFile {
    /**
     * A stretch of the file: parsed objects with the text they were read from, or text kept
     * verbatim (what precedes the first entry, or an entry jbibtex cannot parse). A stretch Idiom
     * did not change is written back as it was read, byte for byte; only a changed one is
     * formatted again (and then only its entry: the comments and blank lines after it stay).
     */
    static final class Segment {
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

    private final List<Segment> segments;
    private final Map<String, BibTeXEntry> entries;
    private final FileEncoding encoding;
    private final boolean bibtexDialect;
    private final boolean urlsAsNotes;

    private ParsedFile(List<Segment> segments, Map<String, BibTeXEntry> entries, FileEncoding encoding, boolean bibtexDialect, boolean urlsAsNotes) {
        this.segments = segments;
        this.entries = entries;
        this.encoding = encoding;
        this.bibtexDialect = bibtexDialect;
        this.urlsAsNotes = urlsAsNotes;
    }

    /** The file as it is now, one parse per entry, so a broken entry costs only itself (jbibtex gives up at the first). */
    static ParsedFile read(Path file) {
        String text;
        FileEncoding encoding;
        try {
            byte[] bytes = Files.exists(file) ? Files.readAllBytes(file) : new byte[0];
            encoding = FileEncoding.of(bytes);
            text = encoding.decode(bytes);
        } catch (IOException e) {
            throw new ToolException("cannot read BibTeX file " + file + ": " + e.getMessage(), e);
        }
        List<Segment> segments = new ArrayList<>();
        Map<String, BibTeXEntry> entries = new LinkedHashMap<>();
        List<Skipped> unused = new ArrayList<>();
        EntryParser parser = EntryParser.create();
        Set<String> ids = new HashSet<>();
        EntryChunks chunks = new EntryChunks(new StringReader(text));
        FileDialect dialect = new FileDialect();
        for (EntryChunks.Chunk c = chunks.nextIn(file); c != null; c = chunks.nextIn(file)) {
            if (c.entry()) {
                dialect.see(c.text());
            }
            segments.add(new Segment(c.text(), c.entry() ? parser.read(c, ids, unused, entries::put) : null));
        }
        return new ParsedFile(segments, entries, encoding, dialect.bibtex(), dialect.urlsAsNotes());
    }

    BibTeXEntry entry(String key) {
        return entries.get(key);
    }

    /** BibTeX's own dialect (no {@code @online}, no {@code date}), else BibLaTeX's (an empty file too). */
    boolean bibtexDialect() {
        return bibtexDialect;
    }

    /** Whether the file gives addresses as classic BibTeX's styles print them (<code>note = {&#92;url{…}}</code>) and never in {@code url}. */
    boolean urlsAsNotes() {
        return urlsAsNotes;
    }

    /** {@code replacement} where {@code entry} stood (by identity), its stretch changed and rewritten as {@code rewritten} says (null: formatted anew). */
    void replace(BibTeXEntry entry, BibTeXEntry replacement, java.util.function.Function<Segment, String> rewritten) {
        for (Segment seg : segments) {
            int at = seg.objects() == null ? -1 : seg.objects().indexOf(entry);
            if (at >= 0) {
                seg.objects().set(at, replacement);
                seg.changed = true;
                seg.rewritten = rewritten.apply(seg);
            }
        }
    }

    /** The text of an entry's stretch as it stood, and the key of the entry before it (null: none). */
    record Stretch(String text, String previousKey) {}

    /** The stretch {@code entry} stands in, to be put back later; null when it holds more than the entry (restored anew then). */
    Stretch stretchOf(BibTeXEntry entry) {
        String previous = null;
        for (Segment seg : segments) {
            if (seg.objects() != null && seg.objects().contains(entry)) {
                return seg.objects().size() == 1 && seg.raw() != null ? new Stretch(seg.raw(), previous) : null;
            }
            if (seg.objects() != null && !seg.objects().isEmpty() && seg.objects().getLast() instanceof BibTeXEntry e) {
                previous = e.getKey().getValue();
            }
        }
        return null;
    }

    /** Takes {@code entry} out of its stretch (the text around it stays). */
    void remove(BibTeXEntry entry) {
        for (Segment seg : segments) {
            if (seg.objects() != null && seg.objects().remove(entry)) {
                seg.changed = true;
            }
        }
    }

    /**
     * A stretch back where it stood: after the entry that preceded it, the blank lines and comments
     * that followed it back after it (so a delete and a restore leave the file byte for byte); at
     * the end when that place is gone.
     */
    void putBack(Stretch kept) {
        String text = kept.text();
        String previous = kept.previousKey();
        String tail = EntryBounds.afterEntry(text); // what followed the entry and stayed in the file when it went
        int at = -1; // the stretch the entry went out after
        if (previous != null) {
            for (int i = 0; i < segments.size(); i++) {
                Segment seg = segments.get(i);
                if (seg.objects() != null && seg.objects().stream().anyMatch(o -> o instanceof BibTeXEntry e && e.getKey().getValue().equals(previous))) {
                    at = i;
                }
            }
        } else if (!segments.isEmpty() && segments.getFirst().objects() == null && segments.getFirst().raw() != null
                && !segments.getFirst().raw().stripLeading().startsWith("@")) {
            at = 0; // the text before the first entry
        }
        if (previous != null && at < 0) {
            at = segments.size() - 1; // its place is gone: at the end
        }
        Segment before = at >= 0 ? segments.get(at) : null;
        if (before != null && before.raw() != null && !tail.isEmpty() && before.raw().endsWith(tail) && !before.changed) {
            segments.set(at, new Segment(before.raw().substring(0, before.raw().length() - tail.length()), before.objects()));
        } else if (before != null && before.raw() != null && !before.raw().isEmpty() && !before.raw().endsWith("\n")) {
            text = "\n" + text;
        }
        segments.add(at + 1, new Segment(text, null));
    }

    /** New entries, each a stretch of its own at the end of the file. */
    void append(BibTeXEntry entry) {
        segments.add(new Segment(null, new ArrayList<>(List.of(entry))));
    }

    /**
     * Writes every stretch Idiom did not change as it was read, byte for byte, and formats only the
     * changed ones with jbibtex (keeping what followed the entry in its stretch: comments, blank
     * lines); in the file's own charset, with its byte-order mark if it had one; replaced atomically.
     */
    void write(Path file) {
        try {
            StringWriter out = new StringWriter();
            BibTeXFormatter formatter = new BibTeXFormatter();
            formatter.setIndent("  ");
            for (Segment seg : segments) {
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
                        out.write(EntryBounds.afterEntry(seg.raw()));
                    }
                }
            }
            Path tmp = file.resolveSibling("." + file.getFileName() + ".idiom-tmp");
            Files.write(tmp, encoding.encode(out.toString()));
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new ToolException("cannot write BibTeX file " + file + ": " + e.getMessage(), e);
        }
    }
}
