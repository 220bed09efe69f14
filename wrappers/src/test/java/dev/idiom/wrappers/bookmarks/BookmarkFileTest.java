package dev.idiom.wrappers.bookmarks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idiom.events.Field;
import dev.idiom.events.Metadata;
import dev.idiom.wrappers.AnnotationTool;
import dev.idiom.wrappers.AnnotationToolContract;
import dev.idiom.wrappers.ChangePage;
import dev.idiom.wrappers.RemoteRecord;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BookmarkFileTest extends AnnotationToolContract {
    @TempDir
    Path dir;

    @Override
    protected AnnotationTool tool() {
        return new BookmarkFile(dir.resolve("bookmarks-" + System.nanoTime() + ".html"), Clock.systemUTC());
    }

    @Override
    protected Set<Field> fieldsKept() {
        return EnumSet.of(Field.TYPE, Field.TITLE, Field.URL, Field.TAGS, Field.NOTES);
    }

    @Override
    protected boolean preciseChanges() {
        return false;
    }

    @Override
    protected Metadata sample(int i) {
        return super.sample(i).with(Field.TYPE, "webpage");
    }

    private Path export() throws IOException {
        Path file = dir.resolve("export.html");
        try (InputStream in = getClass().getResourceAsStream("/bookmarks.html")) {
            Files.copy(in, file);
        }
        return file;
    }

    @Test
    void aBrowserExportIsReadWithFoldersAsTagsDescriptionsAsNotesAndOddLinksSkipped() throws IOException {
        ChangePage page = new BookmarkFile(export(), Clock.systemUTC()).changedSince(null);
        Map<String, Metadata> byUrl = page.records().stream().collect(Collectors.toMap(RemoteRecord::remoteId, RemoteRecord::metadata));
        assertEquals(Set.of("https://example.org/saito", "https://example.org/epidemic", "https://example.org/top"), byUrl.keySet());
        Metadata saito = byUrl.get("https://example.org/saito");
        assertEquals("Optimistic Replication & more", saito.title());
        assertEquals(new TreeSet<>(Set.of("Replication", "survey", "to-read")), saito.tags(), "the toolbar, a root folder, is no tag");
        assertEquals("The survey everyone cites.", saito.notes());
        assertEquals(new TreeSet<>(Set.of("Replication")), byUrl.get("https://example.org/epidemic").tags());
        assertTrue(byUrl.get("https://example.org/top").tags().isEmpty());
        assertTrue(page.skipped().stream().anyMatch(s -> s.reason().contains("not a web address")));
        assertTrue(page.skipped().stream().anyMatch(s -> s.reason().contains("appears again")));
    }

    @Test
    void writingBackKeepsFoldersDatesAndEveryOtherBookmark() throws IOException {
        Path file = export();
        BookmarkFile bookmarks = new BookmarkFile(file, Clock.systemUTC());
        RemoteRecord saito = bookmarks.fetch("https://example.org/saito").orElseThrow();
        Metadata edited = saito.metadata().with(Field.NOTES, "Re-read in 2026");
        bookmarks.update(saito, edited);

        BookmarkFile again = new BookmarkFile(file, Clock.systemUTC());
        assertEquals(edited, again.fetch("https://example.org/saito").orElseThrow().metadata());
        assertEquals(3, again.changedSince(null).records().size());
        String html = Files.readString(file);
        assertTrue(html.contains("ADD_DATE=\"1700000200\""), "the add date is kept");
        assertTrue(html.contains("<DT><H3 ADD_DATE=\"1700000000\">Replication</H3>"), "the folder is kept as it was");
    }

    @Test
    void aBookmarksTagsKeepTheOrderTheFileWritesThemInWhenItsTitleOrItsTagsChange() throws IOException {
        // given a Delicious export whose TAGS are in the curator's order, not in name order
        Path file = Files.writeString(dir.resolve("delicious.html"), "<!DOCTYPE NETSCAPE-Bookmark-file-1>\n<DL><p>\n"
                + "<DT><A HREF=\"https://example.org/rest\" ADD_DATE=\"1700000000\" PRIVATE=\"0\" TAGS=\"api,restful,design\">REST</A>\n</DL><p>\n");
        BookmarkFile bookmarks = new BookmarkFile(file, Clock.systemUTC());
        RemoteRecord rest = bookmarks.fetch("https://example.org/rest").orElseThrow();
        // when its title is edited, then the tags stay as written
        RemoteRecord renamed = bookmarks.update(rest, rest.metadata().with(Field.TITLE, "REST design"));
        assertTrue(Files.readString(file).contains("TAGS=\"api,restful,design\""), Files.readString(file));
        // when a tag is removed and one added, then the kept ones keep their order and the new one comes after
        java.util.SortedSet<String> tags = new TreeSet<>(Set.of("api", "restful", "http"));
        bookmarks.update(renamed, renamed.metadata().with(Field.TAGS, tags));
        assertTrue(Files.readString(file).contains("TAGS=\"api,restful,http\""), Files.readString(file));
        assertEquals(tags, new BookmarkFile(file, Clock.systemUTC()).fetch("https://example.org/rest").orElseThrow().metadata().tags());
    }

    @Test
    void aFirefoxExportKeepsEveryElementItDoesNotModelAndOnlyTheEditedBookmarkChanges() throws IOException {
        String export = """
                <!DOCTYPE NETSCAPE-Bookmark-file-1>
                <!-- This is an automatically generated file. -->
                <META HTTP-EQUIV="Content-Type" CONTENT="text/html; charset=UTF-8">
                <TITLE>Bookmarks</TITLE>
                <H1>Bookmarks Menu</H1>
                <DL><p>
                    <DT><H3 ADD_DATE="1700000000" LAST_MODIFIED="1700000100" PERSONAL_TOOLBAR_FOLDER="true">Bookmarks Toolbar</H3>
                    <DD>Things I use every day
                    <DL><p>
                        <DT><A HREF="https://example.org/paper" ADD_DATE="1700000200" LAST_MODIFIED="1700000300" ICON_URI="https://example.org/favicon.ico" ICON="data:image/png;base64,iVBORw0KGgo=" SHORTCUTURL="paper" TAGS="replication">A paper</A>
                        <DT><A HREF="javascript:alert(document.title)" ADD_DATE="1700000200">Bookmarklet</A>
                        <HR>
                        <DT><A HREF="place:sort=8&amp;maxResults=10" ADD_DATE="1700000200">Most Visited</A>
                    </DL><p>
                    <DT><H3 ADD_DATE="1700000000" LAST_MODIFIED="1700000100">Empty folder</H3>
                    <DL><p>
                    </DL><p>
                    <DT><A HREF="https://example.org/other" ADD_DATE="1700000400" LAST_MODIFIED="1700000500">Another page</A>
                    <DD>Left as it was
                </DL>
                """;
        Path file = Files.writeString(dir.resolve("firefox-full.html"), export);
        BookmarkFile bookmarks = new BookmarkFile(file, Clock.systemUTC());
        RemoteRecord paper = bookmarks.fetch("https://example.org/paper").orElseThrow();
        assertEquals(new TreeSet<>(Set.of("replication")), paper.metadata().tags(), "the toolbar is no tag");

        bookmarks.update(paper, paper.metadata());
        assertEquals(export, Files.readString(file), "a write that changes nothing leaves the file as it was");

        bookmarks.update(paper, paper.metadata().with(Field.TITLE, "A paper, revised").with(Field.NOTES, "Read twice"));
        String after = Files.readString(file);
        String[] before = export.split("\n", -1);
        String[] now = after.split("\n", -1);
        assertEquals(before.length + 1, now.length, "one line more, the description: " + after);
        for (int i = 0, j = 0; i < before.length; i++, j++) {
            if (before[i].contains("https://example.org/paper")) {
                assertTrue(now[j].contains("ICON_URI=\"https://example.org/favicon.ico\" ICON=\"data:image/png;base64,iVBORw0KGgo=\" SHORTCUTURL=\"paper\"")
                        && now[j].contains(">A paper, revised</A>"), now[j]);
                assertEquals("        <DD>Read twice", now[++j], "indented as its bookmark");
                continue;
            }
            assertEquals(before[i], now[j], "line " + (i + 1) + " is kept byte for byte");
        }
        assertEquals("A paper, revised", new BookmarkFile(file, Clock.systemUTC()).fetch("https://example.org/paper").orElseThrow().metadata().title());
    }

    @Test
    void aBookmarkMarkedPrivateInAFirefoxExportIsAPrivateCopyAndStaysPrivateWhenWrittenBack() throws IOException {
        Path file = dir.resolve("firefox.html");
        Files.writeString(file, """
                <!DOCTYPE NETSCAPE-Bookmark-file-1>
                <META HTTP-EQUIV="Content-Type" CONTENT="text/html; charset=UTF-8">
                <TITLE>Bookmarks</TITLE>
                <H1>Bookmarks Menu</H1>
                <DL><p>
                    <DT><H3 ADD_DATE="1700000000" LAST_MODIFIED="1700000100" PERSONAL_TOOLBAR_FOLDER="true">Bookmarks Toolbar</H3>
                    <DL><p>
                        <DT><A HREF="https://example.org/diary" ADD_DATE="1700000200" LAST_MODIFIED="1700000300" PRIVATE="1" TAGS="diary">My diary</A>
                        <DT><A HREF="https://example.org/open" ADD_DATE="1700000200" LAST_MODIFIED="1700000300" TAGS="web">Open page</A>
                    </DL><p>
                </DL><p>
                """);
        BookmarkFile bookmarks = new BookmarkFile(file, Clock.systemUTC());
        RemoteRecord diary = bookmarks.fetch("https://example.org/diary").orElseThrow();
        assertTrue(diary.privateCopy(), "PRIVATE=\"1\" makes a private copy");
        assertTrue(!bookmarks.fetch("https://example.org/open").orElseThrow().privateCopy());
        bookmarks.update(diary, diary.metadata().with(Field.NOTES, "Kept to myself"));
        BookmarkFile again = new BookmarkFile(file, Clock.systemUTC());
        assertTrue(again.fetch("https://example.org/diary").orElseThrow().privateCopy(), "still private after the rewrite");
        assertTrue(!again.fetch("https://example.org/open").orElseThrow().privateCopy());
        assertEquals(1, Files.readString(file).split("PRIVATE=\"1\"", -1).length - 1, "only the private one is marked");
        RemoteRecord created = again.create(Metadata.EMPTY.with(Field.TYPE, "webpage").with(Field.URL, "https://example.org/new")
                .with(Field.TITLE, "New"), true);
        assertTrue(created.privateCopy(), "a copy of a DE private elsewhere is created PRIVATE");
    }

    @Test
    void anIdleSyncOfEveryBookmarkInABrowserExportLeavesTheFileByteIdentical() throws IOException {
        Path file = export();
        byte[] before = Files.readAllBytes(file);
        BookmarkFile bookmarks = new BookmarkFile(file, Clock.systemUTC());
        for (RemoteRecord r : bookmarks.changedSince(null).records()) {
            bookmarks.update(r, r.metadata());
        }
        assertTrue(java.util.Arrays.equals(before, Files.readAllBytes(file)));
    }

    @Test
    void aDeletedBookmarkIsRestoredByteForByteInItsFolderEvenWhenTheBookmarkBeforeItChanged() throws IOException {
        // the shape Firefox's own exporter writes (BookmarkHTMLUtils): a CSP meta, folders with dates, icons, no <p> after the last </DL>
        String export = """
                <!DOCTYPE NETSCAPE-Bookmark-file-1>
                <!-- This is an automatically generated file.
                     It will be read and overwritten.
                     DO NOT EDIT! -->
                <META HTTP-EQUIV="Content-Type" CONTENT="text/html; charset=UTF-8">
                <meta http-equiv="Content-Security-Policy"
                      content="default-src 'self'; script-src 'none'; img-src data: *; object-src 'none'"></meta>
                <TITLE>Bookmarks</TITLE>
                <H1>Bookmarks Menu</H1>

                <DL><p>
                    <DT><H3 ADD_DATE="1700000000" LAST_MODIFIED="1700000000">Browser</H3>
                    <DL><p>
                        <DT><A HREF="https://example.org/help" ADD_DATE="1700000000" LAST_MODIFIED="1700000000" ICON_URI="fake-favicon-uri:https://example.org/help" ICON="data:image/png;base64,iVBORw0KGgo=">Get Help</A>
                    </DL><p>
                    <DT><H3 ADD_DATE="1700000100" LAST_MODIFIED="1700000100">Toolbar</H3>
                    <DL><p>
                        <DT><A HREF="https://doi.org/10.1145/1057977.1057980" ADD_DATE="1700000200" LAST_MODIFIED="1700000300" TAGS="replication,survey">Optimistic replication</A>
                        <DD>A survey
                        <DT><A HREF="https://example.org/a?x=1&amp;y=2" ADD_DATE="1700000200" LAST_MODIFIED="1700000200" SHORTCUTURL="ex">Query &amp; ampersand</A>
                    </DL><p>
                    <DT><A HREF="https://example.org/api" ADD_DATE="1700000400" LAST_MODIFIED="1700000400">API docs</A>
                </DL>
                """;
        Path file = Files.writeString(dir.resolve("firefox-restore.html"), export);
        BookmarkFile bookmarks = new BookmarkFile(file, Clock.systemUTC());
        String doi = "https://doi.org/10.1145/1057977.1057980";
        String kept = bookmarks.deleteKeeping(doi, bookmarks.fetch(doi).orElseThrow().version());
        assertTrue(bookmarks.fetch(doi).isEmpty());
        assertFalse(Files.readString(file).contains("A survey"), "its description went with it");
        RemoteRecord back = bookmarks.restore(doi, kept).orElseThrow();
        assertEquals(export, Files.readString(file), "back byte for byte: its folder, dates, description and place");
        assertEquals(new TreeSet<>(Set.of("Toolbar", "replication", "survey")), back.metadata().tags());

        // deleted; the bookmark before it (its two lines of context) edited meanwhile: still back after that bookmark, in its folder
        String query = "https://example.org/a?x=1&y=2";
        kept = bookmarks.deleteKeeping(query, null);
        RemoteRecord before = bookmarks.fetch(doi).orElseThrow();
        bookmarks.update(before, before.metadata().with(Field.NOTES, "A survey, read twice"));
        bookmarks.restore(query, kept).orElseThrow();
        String now = Files.readString(file);
        assertEquals(export.replace("<DD>A survey", "<DD>A survey, read twice").replaceAll("LAST_MODIFIED=\"\\d+\" TAGS", "LAST_MODIFIED=\"x\" TAGS"),
                now.replaceAll("LAST_MODIFIED=\"\\d+\" TAGS", "LAST_MODIFIED=\"x\" TAGS"), "the other edit kept, the restored bookmark at its place");
        assertEquals(new TreeSet<>(Set.of("Toolbar")), bookmarks.fetch(query).orElseThrow().metadata().tags(), "in its folder");
    }
}
