package dev.idiom.wrappers.bibtex;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** LaTeX's accent and letter commands, read as BibTeX files write them and written where a charset cannot hold a letter. */
class LatexAccentsTest {
    @Test
    void theCommandsJbibtexDropsAreReadAsTheirLetters() {
        assertEquals("Łukasiewicz", BibTeXFields.plain("{\\L}ukasiewicz"));
        assertEquals("Çetin Kaya Koç", BibTeXFields.plain("{\\c{C}}etin Kaya Ko{\\c c}"));
        assertEquals("Erdős", BibTeXFields.plain("Erd{\\H{o}}s"));
        assertEquals("Ørsted", BibTeXFields.plain("\\O rsted"));
        assertEquals("Gödel, naïve", BibTeXFields.plain("G{\\\"o}del, na\\\"{\\i}ve"));
        assertEquals("Šimůnek ąę", BibTeXFields.plain("\\v{S}im\\r{u}nek \\k{a}\\k e"));
        assertEquals("42--81", BibTeXFields.plain("42--81"), "plain text stays as written");
    }

    @Test
    void whatACharsetCannotHoldIsWrittenAsLatexThatReadsBackAsTheSameText() {
        String names = "Łukasiewicz, Dvořák, Erdős, Çelik, Šimůnek, Øresund, Straße, Müller, ąę, naïve";
        String latin1 = LatexAccents.encodable(names, StandardCharsets.ISO_8859_1);
        assertEquals(true, StandardCharsets.ISO_8859_1.newEncoder().canEncode(latin1), latin1);
        assertEquals(names, BibTeXFields.plain(latin1));
        assertEquals(names, LatexAccents.encodable(names, StandardCharsets.UTF_8), "UTF-8 holds every letter: nothing is escaped");
    }
}
