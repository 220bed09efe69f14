package dev.idiom.wrappers.bibtex;

import java.io.IOException;
import java.io.Reader;

/**
 * The stretches of a BibTeX text, read as a stream: what precedes the first entry (when there is
 * any), then each entry with what follows it up to the next line whose first non-blank character
 * is {@code @}. A stretch starts where {@code (?m)^[ \t]*@} matches, line terminators as Java's
 * {@code (?m)^} counts them; only the stretch being read and a few kilobytes of look-ahead are
 * held, so a file of any size is read in the memory of its largest entry.
 */
final class EntryChunks {
    /**
     * One stretch.
     *
     * @param text the stretch as it stands in the file
     * @param line the line it starts on, from 1
     * @param entry false for the text before the first entry
     */
    record Chunk(String text, int line, boolean entry) {}

    private final Reader in;
    private final char[] read = new char[8192];
    private final StringBuilder buf = new StringBuilder();
    private boolean eof;
    private boolean first = true;
    /** Where the search for the next stretch's start resumes in {@code buf}: the chars before it are known to start none. */
    private int scanned;
    private int line = 1;

    EntryChunks(Reader in) {
        this.in = in;
    }

    /** The next stretch of {@code file}'s text, or null at its end; a failed read is the tool's failure, naming the file. */
    Chunk nextIn(java.nio.file.Path file) {
        try {
            return next();
        } catch (IOException e) {
            throw new dev.idiom.wrappers.ToolException("cannot read BibTeX file " + file + ": " + e.getMessage(), e);
        }
    }

    /** The next stretch, or null at the end of the text. */
    Chunk next() throws IOException {
        while (true) {
            int from = first ? 0 : 1; // past the start the buffer begins with
            int start = nextStart(Math.max(from, scanned));
            if (start >= 0 && (start > 0 || !first)) {
                return take(start);
            }
            if (start == 0) { // the text begins with an entry: no prefix
                first = false;
                scanned = 1;
                continue;
            }
            if (eof) {
                return buf.isEmpty() ? null : take(buf.length());
            }
            fill();
        }
    }

    private Chunk take(int end) {
        String text = buf.substring(0, end);
        buf.delete(0, end);
        boolean entry = !first;
        first = false;
        scanned = 1;
        Chunk c = new Chunk(text, line, entry);
        for (int i = 0; i < text.length(); i++) {
            if (text.charAt(i) == '\n') {
                line++;
            }
        }
        return c;
    }

    /**
     * The first start at or after {@code from}, or -1 when there is none in what was read so far
     * ({@code scanned} then says where to look again once more is read).
     */
    private int nextStart(int from) {
        for (int i = from; i < buf.length(); i++) {
            if (i == 0 ? !first : !lineTerminator(buf.charAt(i - 1))) {
                continue;
            }
            int j = i;
            while (j < buf.length() && (buf.charAt(j) == ' ' || buf.charAt(j) == '\t')) {
                j++;
            }
            if (j == buf.length() && !eof) {
                scanned = i; // undecided until more is read
                return -1;
            }
            if (j < buf.length() && buf.charAt(j) == '@') {
                return i;
            }
        }
        scanned = Math.max(from, buf.length());
        return -1;
    }

    /** The chars after which {@code (?m)^} matches (without UNIX_LINES). */
    private static boolean lineTerminator(char c) {
        return c == '\n' || c == '\r' || c == '\u0085' || c == '\u2028' || c == '\u2029';
    }

    private void fill() throws IOException {
        int n = in.read(read);
        if (n < 0) {
            eof = true;
        } else {
            buf.append(read, 0, n);
        }
    }
}
