package dev.idiom.wrappers.bookmarks;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
        assertEquals(new TreeSet<>(Set.of("Bookmarks bar", "Replication", "survey", "to-read")), saito.tags());
        assertEquals("The survey everyone cites.", saito.notes());
        assertEquals(new TreeSet<>(Set.of("Bookmarks bar", "Replication")), byUrl.get("https://example.org/epidemic").tags());
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
        assertTrue(html.contains("<H3>Replication</H3>"), "the folder is kept");
    }
}
