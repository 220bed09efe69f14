package dev.idiom.wrappers.bibtex;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.idiom.events.Author;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * LaTeX read as TeX reads it, held to tables written from the TeX, LaTeX, BibTeX and biblatex
 * manuals (the third column of each names its rule): {@code latex-reading.tsv} for text,
 * {@code bibtex-names.tsv} for names and their particles.
 */
class LatexReadingTest {
    @Test
    void everyTextCaseOfTheTableIsReadExactly() throws IOException {
        List<String[]> rows = table("/latex-reading.tsv", 3);
        assertEquals(true, rows.size() > 60, "the table is there: " + rows.size());
        assertAll(rows.stream().map(r -> (Executable) () -> assertEquals(unescaped(r[1]), BibTeXFields.plain(r[0]), r[0] + " (" + r[2] + ")")));
    }

    @Test
    void everyNameOfTheTableIsSplitAsBibTeXSplitsIt() throws IOException {
        List<String[]> rows = table("/bibtex-names.tsv", 4);
        assertAll(rows.stream().map(r -> (Executable) () -> {
            List<Author> authors = BibTeXFields.metadata(entry(r[0])).authors();
            assertEquals(List.of(new Author(r[1], r[2])), authors, r[0] + " (" + r[3] + ")");
        }));
    }

    private static org.jbibtex.BibTeXEntry entry(String author) {
        org.jbibtex.BibTeXEntry e = new org.jbibtex.BibTeXEntry(new org.jbibtex.Key("article"), new org.jbibtex.Key("k"));
        e.addField(new org.jbibtex.Key("title"), new org.jbibtex.StringValue("A title", org.jbibtex.StringValue.Style.BRACED));
        e.addField(new org.jbibtex.Key("author"), new org.jbibtex.StringValue(author, org.jbibtex.StringValue.Style.BRACED));
        return e;
    }

    private static final Pattern CODE_POINT = Pattern.compile("\\\\u([0-9A-Fa-f]{4})");

    private static String unescaped(String expected) {
        Matcher m = CODE_POINT.matcher(expected);
        return m.replaceAll(r -> Matcher.quoteReplacement(String.valueOf((char) Integer.parseInt(r.group(1), 16))));
    }

    private static List<String[]> table(String resource, int columns) throws IOException {
        try (InputStream in = LatexReadingTest.class.getResourceAsStream(resource)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines()
                    .filter(l -> !l.isBlank() && !l.startsWith("#"))
                    .map(l -> l.split("\t", -1))
                    .peek(r -> assertEquals(columns, r.length, String.join(" | ", r)))
                    .toList();
        }
    }
}
