package dev.idiom.wrappers.bookmarks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idiom.events.Field;
import dev.idiom.events.Metadata;
import dev.idiom.wrappers.ChangePage;
import dev.idiom.wrappers.RemoteRecord;
import dev.idiom.wrappers.ToolException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FloccusHtmlTest {
    /** As floccus' createHTML writes a whole browser: numeric references, TAGS="", an ID on every link and folder, the highestId comment. */
    static final String FLOCCUS = """
            <!DOCTYPE NETSCAPE-Bookmark-file-1>
            <META HTTP-EQUIV="Content-Type" CONTENT="text/html; charset=UTF-8">
            <TITLE>Bookmarks</TITLE><!--- highestId :9: for Floccus bookmark sync browser extension -->
            <DL><p>
            <DT><H3 ID="1">Bookmarks Bar</H3>
            <DL><p>
              <DT><A HREF="https://example.org/bar" TAGS="" ID="3">On the bar &#38; more</A>
              <DT><A HREF="https://separator.floccus.org/vertical.html?id=12" TAGS="" ID="4"></A>
              <DT><H3 ID="5">Reading</H3>
              <DL><p>
                <DT><A HREF="https://example.org/read?a=1&#38;b=2" TAGS="" ID="6">To read</A>
              </DL><p>
            </DL><p>
            <DT><H3 ID="2">Other Bookmarks</H3>
            <DL><p>
              <DT><A HREF="https://example.org/other" TAGS="" ID="7">Filed nowhere</A>
            </DL><p>
            </DL><p>
            </html>""";

    @TempDir
    Path dir;

    private FloccusHtml html(Clock clock) throws IOException {
        Path file = dir.resolve("bookmarks.html");
        if (!Files.exists(file)) {
            Files.writeString(file, FLOCCUS);
        }
        return new FloccusHtml(file, "browsers", clock);
    }

    @Test
    void floccusHtmlIsReadWithFoldersAsTagsAndWrittenInPlace() throws IOException {
        FloccusHtml html = html(Clock.systemUTC());
        ChangePage page = html.changedSince(null);
        Map<String, RemoteRecord> byUrl = page.records().stream().collect(Collectors.toMap(RemoteRecord::remoteId, r -> r));
        assertEquals(Set.of("https://example.org/bar", "https://example.org/read?a=1&b=2", "https://example.org/other"), byUrl.keySet(),
                "a separator is no record");
        assertTrue(byUrl.get("https://example.org/bar").metadata().tags().isEmpty(), "a browser's own folder is no tag");
        assertEquals(new TreeSet<>(Set.of("Reading")), byUrl.get("https://example.org/read?a=1&b=2").metadata().tags());
        assertEquals("On the bar & more", byUrl.get("https://example.org/bar").metadata().title());
        assertEquals("3", byUrl.get("https://example.org/bar").shadow(), "floccus' id travels with the copy");
        assertTrue(page.complete());
        assertTrue(html.changedSince(page.cursor()).records().isEmpty(), "an idle read lists nothing");

        RemoteRecord other = byUrl.get("https://example.org/other");
        html.update(other, other.metadata().with(Field.TITLE, "Filed, renamed").with(Field.NOTES, "not written: floccus drops a <DD>")
                .withTag("not written either"));
        String afterUpdate = Files.readString(dir.resolve("bookmarks.html"));
        assertTrue(afterUpdate.contains("<DT><A HREF=\"https://example.org/other\" TAGS=\"\" ID=\"7\">Filed, renamed</A>\n"), afterUpdate);
        assertEquals(FLOCCUS.length() - "Filed nowhere".length() + "Filed, renamed".length(), afterUpdate.length(), "nothing else written");

        RemoteRecord made = html.create(Metadata.EMPTY.with(Field.TYPE, "webpage").with(Field.URL, "https://example.org/new?x=1&y=2")
                .with(Field.TITLE, "New 'one'").with(Field.TAGS, new TreeSet<>(Set.of("idiom"))).with(Field.NOTES, "dropped"));
        String afterCreate = Files.readString(dir.resolve("bookmarks.html"));
        assertTrue(afterCreate.contains("  <DT><A HREF=\"https://example.org/other\" TAGS=\"\" ID=\"7\">Filed, renamed</A>\n"
                + "  <DT><A HREF=\"https://example.org/new?x=1&#38;y=2\" TAGS=\"\" ID=\"10\">New &#39;one&#39;</A>\n</DL><p>\n</DL><p>"),
                "in Other Bookmarks, as floccus writes a link, with the next id:\n" + afterCreate);
        assertTrue(afterCreate.contains("<!--- highestId :10: for Floccus"));
        assertEquals("10", made.shadow());
        assertTrue(made.metadata().tags().isEmpty());
    }

    @Test
    void whileABrowserHoldsTheLockIdiomsWritesWait() throws IOException {
        Instant now = Instant.parse("2026-11-27T10:00:00Z");
        FloccusHtml html = html(Clock.fixed(now, ZoneOffset.UTC));
        Path lock = Files.writeString(dir.resolve("bookmarks.html.lock"), "<html><body>I am a lock file</body></html>");
        new BrowserLock(lock).touch(now.minusSeconds(30));
        RemoteRecord bar = html.fetch("https://example.org/bar").orElseThrow();
        assertThrows(ToolException.class, () -> html.update(bar, bar.metadata().with(Field.TITLE, "meanwhile")));
        assertThrows(ToolException.class, () -> html.create(Metadata.EMPTY.with(Field.URL, "https://example.org/later").with(Field.TITLE, "Later")));
        assertEquals(FLOCCUS, Files.readString(dir.resolve("bookmarks.html")));
    }
}
