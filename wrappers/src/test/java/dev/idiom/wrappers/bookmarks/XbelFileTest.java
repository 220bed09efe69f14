package dev.idiom.wrappers.bookmarks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idiom.events.Field;
import dev.idiom.events.Metadata;
import dev.idiom.wrappers.AnnotationTool;
import dev.idiom.wrappers.AnnotationToolContract;
import dev.idiom.wrappers.ChangePage;
import dev.idiom.wrappers.RemoteRecord;
import dev.idiom.wrappers.ToolException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class XbelFileTest extends AnnotationToolContract {
    /** As floccus writes it (createXBEL with fast-xml-parser's builder), with what floccus keeps of other writers' files. */
    static final String FLOCCUS = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE xbel PUBLIC "+//IDN python.org//DTD XML Bookmark Exchange Language 1.0//EN//XML" "http://pyxml.sourceforge.net/topics/dtds/xbel.dtd">
            <xbel version="1.0">
            <!--- highestId :7: for Floccus bookmark sync browser extension -->
            <folder id="1">
              <title>Replication</title>
              <bookmark href="https://example.org/saito" id="2">
                <title>Optimistic Replication &amp; more</title>
              </bookmark>
              <folder id="3">
                <title>Epidemics</title>
                <bookmark href="https://example.org/epidemic?a=1&amp;b=2" id="4">
                  <title>Epidemic algorithms for &apos;replicated&apos; databases</title>
                </bookmark>
              </folder>
            </folder>
            <bookmark href="https://example.org/top" id="5">
              <title>Top</title>
            </bookmark>
            <bookmark href="javascript:alert(1)" id="6">
              <title>A bookmarklet</title>
            </bookmark>
            <bookmark href="https://example.org/saito" id="7">
              <title>The same page again</title>
            </bookmark>
            </xbel>""";

    /**
     * The shapes met in public XBEL files written by floccus and by other browsers (Otter, Falkon):
     * tabs, {@code id} before {@code href}, dates, {@code <desc>} and {@code <info>}, an empty
     * {@code <title></title>}, floccus' names for a browser's own folders and its separators, a
     * blank line after the highestId comment, a doctype without an external id.
     */
    static final String MIXED = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE xbel>
            <xbel version="1.0">
            <!--- highestId :12: for Floccus bookmark sync browser extension -->

            <folder id="1">
            	<title>Bookmarks Bar</title>
            	<bookmark id="3" href="https://example.org/empty-title" added="2019-06-18T22:08:22Z">
            		<title></title>
            	</bookmark>
            	<bookmark href="https://separator.floccus.org/vertical.html?id=4711" id="4">
            		<title></title>
            	</bookmark>
            	<folder id="5" added="2013-02-16T23:00:03Z">
            		<title>Jobs &amp; careers</title>
            		<bookmark id="6" href="https://example.org/jobs?a=1&amp;b=2" added="2019-03-16T03:12:38Z" visited="2019-03-16T03:12:45Z">
            			<title>Jobs at &apos;Example&apos;</title>
            			<desc>What the browser said of it, kept but not read as notes.</desc>
            			<info>
            				<metadata owner="http://otter-browser.org/otter-xbel-bookmark">
            					<visits>4</visits>
            				</metadata>
            			</info>
            		</bookmark>
            	</folder>
            </folder>
            <folder id="2">
            	<title>Other Bookmarks</title>
            </folder>
            </xbel>""";

    @TempDir
    Path dir;

    @Override
    protected AnnotationTool tool() {
        return new XbelFile(dir.resolve("bookmarks-" + System.nanoTime() + ".xbel"), "browsers", Clock.systemUTC());
    }

    /** Tags are the folders a bookmark is in, which a browser changes, not Idiom: a round trip keeps the rest. */
    @Override
    protected Set<Field> fieldsKept() {
        return EnumSet.of(Field.TYPE, Field.TITLE, Field.URL);
    }

    @Override
    protected boolean preciseChanges() {
        return false;
    }

    @Override
    protected Metadata sample(int i) {
        return super.sample(i).with(Field.TYPE, "webpage");
    }

    private Path floccus() throws IOException {
        Path file = dir.resolve("bookmarks.xbel");
        Files.writeString(file, FLOCCUS);
        return file;
    }

    @Test
    void floccusFileIsReadWithFoldersAsTagsAndOddLinksSkipped() throws IOException {
        ChangePage page = new XbelFile(floccus(), "browsers", Clock.systemUTC()).changedSince(null);
        Map<String, RemoteRecord> byUrl = page.records().stream().collect(Collectors.toMap(RemoteRecord::remoteId, r -> r));
        assertEquals(Set.of("https://example.org/saito", "https://example.org/epidemic?a=1&b=2", "https://example.org/top"), byUrl.keySet());
        assertEquals("Optimistic Replication & more", byUrl.get("https://example.org/saito").metadata().title());
        assertEquals("Epidemic algorithms for 'replicated' databases", byUrl.get("https://example.org/epidemic?a=1&b=2").metadata().title());
        assertEquals(new TreeSet<>(Set.of("Replication", "Epidemics")), byUrl.get("https://example.org/epidemic?a=1&b=2").metadata().tags());
        assertTrue(byUrl.get("https://example.org/top").metadata().tags().isEmpty());
        assertEquals("2", byUrl.get("https://example.org/saito").shadow(), "floccus' id travels with the copy");
        assertTrue(page.complete(), "the file is listed whole: a bookmark not in it was deleted");
        assertTrue(page.skipped().stream().anyMatch(s -> s.reason().contains("not a web address")));
        assertTrue(page.skipped().stream().anyMatch(s -> s.reason().contains("appears again")));
    }

    @Test
    void aTitleChangeRewritesOnlyThatTitleAndANewBookmarkTakesFloccusNextId() throws IOException {
        Path file = floccus();
        XbelFile xbel = new XbelFile(file, "browsers", Clock.systemUTC());
        RemoteRecord top = xbel.fetch("https://example.org/top").orElseThrow();
        xbel.update(top, top.metadata().with(Field.TITLE, "Top, renamed"));
        assertEquals(FLOCCUS.replace("<title>Top</title>", "<title>Top, renamed</title>"), Files.readString(file),
                "every other byte as floccus wrote it: prolog, doctype, highestId, entities, the bookmarklet");

        RemoteRecord made = xbel.create(Metadata.EMPTY.with(Field.TYPE, "webpage").with(Field.URL, "https://example.org/new")
                .with(Field.TITLE, "New").with(Field.TAGS, new TreeSet<>(Set.of("Replication"))));
        String text = Files.readString(file);
        assertTrue(text.contains("<!--- highestId :8: for Floccus bookmark sync browser extension -->"), text);
        assertTrue(text.contains("""
                  </folder>
                  <bookmark href="https://example.org/new" id="8">
                    <title>New</title>
                  </bookmark>
                </folder>"""), "in the top folder named for one of its tags, indented as floccus does:\n" + text);
        assertEquals(new TreeSet<>(Set.of("Replication")), made.metadata().tags());
        assertEquals("8", made.shadow());
    }

    @Test
    void aBookmarkMovedToANewUrlInABrowserSucceedsTheOneIdiomKnew() throws IOException {
        Path file = floccus();
        XbelFile xbel = new XbelFile(file, "browsers", Clock.systemUTC());
        RemoteRecord before = xbel.fetch("https://example.org/top").orElseThrow();
        Files.writeString(file, FLOCCUS.replace("https://example.org/top", "https://example.org/top-moved"));
        RemoteRecord after = xbel.fetch("https://example.org/top-moved").orElseThrow();
        assertTrue(xbel.succeeds(after, before));
        assertTrue(!xbel.succeeds(xbel.fetch("https://example.org/saito").orElseThrow(), before));
    }

    @Test
    void whileABrowserHoldsAFreshLockIdiomsWritesWaitAndTheFileDoesNotMove() throws IOException {
        Path file = floccus();
        Instant now = Instant.parse("2026-11-27T10:00:00Z");
        Path lock = dir.resolve("bookmarks.xbel.lock");
        Files.writeString(lock, "<html><body>I am a lock file</body></html>");
        new BrowserLock(lock).touch(now.minus(Duration.ofMinutes(14)));
        XbelFile xbel = new XbelFile(file, "browsers", Clock.fixed(now, ZoneOffset.UTC));
        RemoteRecord top = xbel.fetch("https://example.org/top").orElseThrow();
        ToolException waits = assertThrows(ToolException.class, () -> xbel.update(top, top.metadata().with(Field.TITLE, "changed meanwhile")));
        assertTrue(waits.getMessage().contains("a browser is syncing"), waits.getMessage());
        assertTrue(waits.retryAfter().isPresent(), "tried again soon, not parked");
        assertEquals(FLOCCUS, Files.readString(file));

        new BrowserLock(lock).touch(now.minus(Duration.ofMinutes(16))); // abandoned, as floccus takes it
        xbel.update(top, top.metadata().with(Field.TITLE, "changed meanwhile"));
        assertTrue(Files.readString(file).contains("changed meanwhile"));
    }

    @Test
    void anEncryptedFileOrOneDeclaringEntitiesIsRefusedWithItsReason() throws IOException {
        Path file = dir.resolve("bookmarks.xbel");
        Files.writeString(file, "{\"ciphertext\":\"abc\",\"salt\":\"def\"}");
        ToolException encrypted = assertThrows(ToolException.class, () -> new XbelFile(file, "browsers", Clock.systemUTC()).changedSince(null));
        assertTrue(encrypted.getMessage().contains("passphrase"), encrypted.getMessage());
        Files.writeString(file, "<?xml version=\"1.0\"?><!DOCTYPE xbel [<!ENTITY a \"aaaaaaaa\">]><xbel>&a;&a;</xbel>");
        ToolException entities = assertThrows(ToolException.class, () -> new XbelFile(file, "browsers", Clock.systemUTC()).changedSince(null));
        assertTrue(entities.getMessage().contains("entities"), entities.getMessage());
        Files.writeString(file, "<?xml version=\"1.0\" encoding=\"UTF-8\"?><bookmarks/>", StandardCharsets.UTF_8);
        ToolException notXbel = assertThrows(ToolException.class, () -> new XbelFile(file, "browsers", Clock.systemUTC()).changedSince(null));
        assertTrue(notXbel.getMessage().contains("not XBEL"), notXbel.getMessage());
    }

    @Test
    void publicFilesShapesAreReadAndWrittenInPlace() throws IOException {
        Path file = dir.resolve("mixed.xbel");
        Files.writeString(file, MIXED);
        XbelFile xbel = new XbelFile(file, "browsers", Clock.systemUTC());
        ChangePage page = xbel.changedSince(null);
        Map<String, RemoteRecord> byUrl = page.records().stream().collect(Collectors.toMap(RemoteRecord::remoteId, r -> r));
        assertEquals(Set.of("https://example.org/empty-title", "https://example.org/jobs?a=1&b=2"), byUrl.keySet(), "a separator is no record");
        assertTrue(page.skipped().isEmpty(), page.skipped().toString());
        assertTrue(byUrl.get("https://example.org/empty-title").metadata().tags().isEmpty(), "a browser's own folder is no tag");
        assertEquals(new TreeSet<>(Set.of("Jobs & careers")), byUrl.get("https://example.org/jobs?a=1&b=2").metadata().tags());
        assertEquals("Jobs at 'Example'", byUrl.get("https://example.org/jobs?a=1&b=2").metadata().title());
        assertEquals(null, byUrl.get("https://example.org/jobs?a=1&b=2").metadata().notes());

        RemoteRecord jobs = byUrl.get("https://example.org/jobs?a=1&b=2");
        RemoteRecord renamed = xbel.update(jobs, jobs.metadata().with(Field.TITLE, "Jobs & more"));
        assertEquals(MIXED.replace("<title>Jobs at &apos;Example&apos;</title>", "<title>Jobs &amp; more</title>"), Files.readString(file),
                "attribute order, tabs, entities, desc and info as written");
        RemoteRecord empty = byUrl.get("https://example.org/empty-title");
        assertEquals("https://example.org/empty-title", empty.metadata().title(), "an empty title reads as its address");
        xbel.update(empty, empty.metadata().with(Field.URL, "https://example.org/moved"));
        assertTrue(Files.readString(file).contains("<bookmark id=\"3\" href=\"https://example.org/moved\" added=\"2019-06-18T22:08:22Z\">\n\t\t<title></title>"),
                "a new address in place, the empty title left empty:\n" + Files.readString(file));

        xbel.delete(renamed.remoteId(), renamed.version());
        String afterDelete = Files.readString(file);
        assertTrue(afterDelete.contains("\t\t<title>Jobs &amp; careers</title>\n\t</folder>"), "its lines gone, its folder kept:\n" + afterDelete);

        xbel.create(Metadata.EMPTY.with(Field.TYPE, "webpage").with(Field.URL, "https://example.org/new").with(Field.TITLE, "New"));
        String afterCreate = Files.readString(file);
        assertTrue(afterCreate.contains("\t<title>Other Bookmarks</title>\n\t<bookmark href=\"https://example.org/new\" id=\"13\">\n\t\t<title>New</title>"
                + "\n\t</bookmark>\n</folder>\n</xbel>"), "in the browser's Other Bookmarks (no bookmark stands beside a browser's own folders), "
                + "tab-indented as the file is, floccus' next id:\n" + afterCreate);
        assertTrue(afterCreate.contains("<!--- highestId :13: for Floccus"));
        assertEquals(2, xbel.changedSince(null).records().size());
    }
}
