package dev.idiom.wrappers.zotero;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class ZoteroNoteTest {
    @Test
    void aNotesCharacterReferencesAreDecodedOnceNumericOnesToo() {
        // a note saved from a web page: numeric references as well as named ones
        assertEquals("p < 0.001 – see Smith & Jones", ZoteroNote.text("<p>p&#xa0;&lt; 0.001 &#8211; see Smith &amp;&#160;Jones</p>"));
        assertEquals("&lt; stays a reference written as text", ZoteroNote.text("<p>&amp;lt; stays a reference written as text</p>"));
        assertEquals("\"quoted\" 'single' 😀", ZoteroNote.text("<p>&quot;quoted&quot; &#39;single&#39; &#x1F600;</p>"));
        assertEquals("&bogus; &#xD800; kept", ZoteroNote.text("<p>&bogus; &#xD800; kept</p>"), "a reference naming no character is left as written");
    }

    @Test
    void aNoteWrittenByIdiomReadsBackAsItsText() {
        String text = "First & <second> \"line\"\nnext line\n\nA paragraph";
        assertEquals(text, ZoteroNote.text(ZoteroNote.html(text)));
    }
}
