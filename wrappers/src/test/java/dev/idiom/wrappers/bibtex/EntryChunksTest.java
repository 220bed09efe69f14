package dev.idiom.wrappers.bibtex;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.Reader;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class EntryChunksTest {
    /** The rule the whole-file read used: a stretch starts where this matches. */
    private static final Pattern ENTRY_START = Pattern.compile("(?m)^[ \\t]*@");

    @Test
    void aTextReadAsAStreamSplitsWhereTheWholeTextRuleSplitsWhateverSizeTheReadsAre() throws IOException {
        List<String> texts = List.of(
                "",
                "no entries at all\njust text\n",
                "@article{a, title={A}}\n@book{b, title={B}}\n",
                "% Encoding: UTF-8\n\n@article{a, title={A}}\n  \t@misc{b}\nnot @here\n@",
                "@article{a,\r\n title={x @ y}}\r\n@book{b}\r\r@c{}\u2028@d{}\u0085  @e{}\u2029\t@f{}",
                "text\n   \n    \n\t \t",
                "@a{}".repeat(3) + "\n" + " ".repeat(20_000) + "@late{}\n" + "x".repeat(30_000) + "\n@end{}");
        for (String text : texts) {
            List<EntryChunks.Chunk> expected = byRegex(text);
            for (int piece : new int[] {1, 2, 7, 8192}) {
                List<EntryChunks.Chunk> got = new ArrayList<>();
                EntryChunks chunks = new EntryChunks(inPieces(text, piece));
                for (EntryChunks.Chunk c = chunks.next(); c != null; c = chunks.next()) {
                    got.add(c);
                }
                assertEquals(expected, got, "read " + piece + " chars at a time: " + text.substring(0, Math.min(60, text.length())));
                assertEquals(text, String.join("", got.stream().map(EntryChunks.Chunk::text).toList()), "nothing lost or added");
            }
        }
    }

    private static List<EntryChunks.Chunk> byRegex(String text) {
        List<Integer> starts = new ArrayList<>();
        Matcher m = ENTRY_START.matcher(text);
        while (m.find()) {
            starts.add(m.start());
        }
        List<EntryChunks.Chunk> out = new ArrayList<>();
        if (!text.isEmpty() && (starts.isEmpty() || starts.getFirst() > 0)) {
            out.add(new EntryChunks.Chunk(text.substring(0, starts.isEmpty() ? text.length() : starts.getFirst()), 1, false));
        }
        for (int i = 0; i < starts.size(); i++) {
            int line = 1 + (int) text.substring(0, starts.get(i)).chars().filter(c -> c == '\n').count();
            out.add(new EntryChunks.Chunk(text.substring(starts.get(i), i + 1 < starts.size() ? starts.get(i + 1) : text.length()), line, true));
        }
        return out;
    }

    /** A reader that never gives more than {@code piece} chars at once, as a decoder at a buffer's edge may. */
    private static Reader inPieces(String text, int piece) {
        StringReader in = new StringReader(text);
        return new Reader() {
            @Override
            public int read(char[] buf, int off, int len) throws IOException {
                return in.read(buf, off, Math.min(len, piece));
            }

            @Override
            public void close() {
                in.close();
            }
        };
    }
}
