package dev.idiom.wrappers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idiom.events.Author;
import dev.idiom.events.Field;
import dev.idiom.events.Metadata;
import dev.idiom.wrappers.bibsonomy.BibSonomyStub;
import dev.idiom.wrappers.bibsonomy.BibSonomyTool;
import dev.idiom.wrappers.bibtex.BibTeXFile;
import dev.idiom.wrappers.bookmarks.BookmarkFile;
import dev.idiom.wrappers.http.ToolHttp;
import dev.idiom.wrappers.pinboard.PinboardStub;
import dev.idiom.wrappers.pinboard.PinboardTool;
import dev.idiom.wrappers.zotero.ZoteroStub;
import dev.idiom.wrappers.zotero.ZoteroTool;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What crosses from one tool to another keeps what both can hold: the canonical record follows
 * CSL, every adapter maps through it, so a chapter stays a chapter with its book, editors and
 * publisher, and a record sent from A to B and back to A is A's record again.
 */
class CrossToolFidelityTest {
    private final FakeTime time = new FakeTime();
    private final ZoteroStub zoteroStub = new ZoteroStub();
    private final BibSonomyStub bibsonomyStub = new BibSonomyStub();
    private final PinboardStub pinboardStub = new PinboardStub(time);
    @TempDir
    Path dir;

    @AfterEach
    void stop() {
        zoteroStub.close();
        bibsonomyStub.close();
        pinboardStub.close();
    }

    private ZoteroTool zotero() {
        return new ZoteroTool(zoteroStub.uri(), ZoteroStub.LIBRARY, ZoteroStub.KEY, new ToolHttp("Zotero", ZoteroTool.LIMITS, time, time, 2));
    }

    private BibSonomyTool bibsonomy() {
        return new BibSonomyTool(bibsonomyStub.uri(), BibSonomyStub.USER, BibSonomyStub.KEY, new ToolHttp("BibSonomy", BibSonomyTool.LIMITS, time, time, 2));
    }

    private PinboardTool pinboard() {
        return new PinboardTool(pinboardStub.uri().resolve("/v1/"), PinboardStub.TOKEN, new ToolHttp("Pinboard", PinboardTool.LIMITS, time, time, 2),
                time, time);
    }

    private BibTeXFile bibFile(String name) throws IOException {
        Path file = dir.resolve(name + ".bib");
        if (!Files.exists(file)) {
            Files.writeString(file, "% kept by hand\n");
        }
        return new BibTeXFile(file);
    }

    private BookmarkFile bookmarks(String name) throws IOException {
        Path file = dir.resolve(name + ".html");
        if (!Files.exists(file)) {
            Files.writeString(file, "<!DOCTYPE NETSCAPE-Bookmark-file-1>\n<TITLE>Bookmarks</TITLE>\n<H1>Bookmarks</H1>\n<DL><p>\n</DL><p>\n");
        }
        return new BookmarkFile(file, time);
    }

    private static final String BOOK_SECTION = """
            {"itemType": "bookSection", "title": "Replication techniques for availability", "bookTitle": "Replication: Theory and Practice",
             "creators": [{"creatorType": "author", "firstName": "Robbert", "lastName": "van Renesse"},
                          {"creatorType": "author", "firstName": "Rachid", "lastName": "Guerraoui"},
                          {"creatorType": "editor", "firstName": "Bernadette", "lastName": "Charron-Bost"},
                          {"creatorType": "editor", "firstName": "Fernando", "lastName": "Pedone"}],
             "series": "Lecture Notes in Computer Science", "seriesNumber": "5959", "publisher": "Springer", "place": "Berlin, Heidelberg",
             "ISBN": "978-3-642-11293-5", "date": "2010-02-17", "pages": "19--40", "DOI": "10.1007/978-3-642-11294-2_2",
             "tags": [], "collections": [], "relations": {}}
            """;

    @Test
    void aZoteroBookSectionReachesABibTeXFileAsACompleteIncollection() throws IOException {
        ZoteroTool z = zotero();
        RemoteRecord section = z.fetch(zoteroStub.addRemotely(BOOK_SECTION)).orElseThrow();
        assertEquals("chapter", section.metadata().type());

        BibTeXFile file = bibFile("thesis");
        RemoteRecord entry = file.create(section.metadata());
        String bib = Files.readString(dir.resolve("thesis.bib"));
        assertTrue(bib.startsWith("% kept by hand\n"), bib);
        assertTrue(bib.contains("@incollection{"), bib);
        for (String field : List.of("booktitle = {Replication: Theory and Practice}", "editor = {Charron-Bost, Bernadette and Pedone, Fernando}",
                "publisher = {Springer}", "address = {Berlin, Heidelberg}", "isbn = {978-3-642-11293-5}",
                "series = {Lecture Notes in Computer Science}", "number = {5959}", "year = {2010}", "month = feb", "day = {17}",
                "pages = {19--40}", "doi = {10.1007/978-3-642-11294-2_2}", "author = {van Renesse, Robbert and Guerraoui, Rachid}")) {
            assertTrue(bib.toLowerCase().contains(field.toLowerCase()), field + " in\n" + bib);
        }
        Metadata readBack = file.fetch(entry.remoteId()).orElseThrow().metadata();
        assertEquals(section.metadata().with(Field.CITATION_KEY, readBack.citationKey()), readBack, "nothing lost on the way");
    }

    private static final String INPROCEEDINGS = """
            @InProceedings{demers87,
              author    = {Demers, Alan and Greene, Dan and Hauser, Carl},
              title     = {Epidemic Algorithms for Replicated Database Maintenance},
              booktitle = {Proceedings of the Sixth Annual ACM Symposium on Principles of Distributed Computing},
              eventtitle = {PODC '87},
              year      = {1987},
              month     = aug,
              pages     = {1--12},
              publisher = {ACM},
              address   = {New York, NY, USA},
              doi       = {10.1145/41840.41841},
              isbn      = {0-89791-239-X},
              keywords  = {gossip, {anti-entropy}},
            }
            """;

    @Test
    void aBibTeXInproceedingsReachesZoteroAsAValidConferencePaper() throws IOException {
        Files.writeString(dir.resolve("podc.bib"), INPROCEEDINGS);
        RemoteRecord paper = bibFile("podc").fetch("demers87").orElseThrow();
        assertEquals("paper-conference", paper.metadata().type());

        RemoteRecord created = zotero().create(paper.metadata()); // the stub refuses any field conferencePaper does not have
        var data = zoteroStub.data(created.remoteId());
        assertEquals("conferencePaper", data.path("itemType").asText());
        assertEquals("Proceedings of the Sixth Annual ACM Symposium on Principles of Distributed Computing", data.path("proceedingsTitle").asText());
        assertEquals("PODC '87", data.path("conferenceName").asText());
        assertEquals("ACM", data.path("publisher").asText());
        assertEquals("New York, NY, USA", data.path("place").asText());
        assertEquals("0-89791-239-X", data.path("ISBN").asText());
        assertEquals("1987-08", data.path("date").asText());
        assertEquals("demers87", data.path("citationKey").asText());
        assertEquals(3, data.path("creators").size());
        assertEquals(paper.metadata().with(Field.NOTES, null), zotero().fetch(created.remoteId()).orElseThrow().metadata());
    }

    /** A tool under test and the fields it holds. */
    private record Tool(String name, Supplier<AnnotationTool> open, Set<Field> kept) {}

    private List<Tool> tools() {
        Set<Field> bookmarkFields = EnumSet.of(Field.TITLE, Field.URL, Field.TAGS, Field.NOTES);
        return List.of(new Tool("zotero", this::zotero, EnumSet.complementOf(EnumSet.of(Field.NOTES, Field.BIBTEX_EXTRAS))),
                new Tool("bibsonomy", this::bibsonomy, BibTeXMapping.entryFields()),
                new Tool("bibtex", () -> unchecked(() -> bibFile("library")), withBibTeXExtras()),
                new Tool("pinboard", this::pinboard, bookmarkFields),
                new Tool("bookmarks", () -> unchecked(() -> bookmarks("export")), bookmarkFields));
    }

    private static Set<Field> withBibTeXExtras() {
        Set<Field> kept = BibTeXMapping.entryFields();
        kept.add(Field.BIBTEX_EXTRAS);
        return kept;
    }

    private interface IoSupplier<T> {
        T get() throws IOException;
    }

    private static <T> T unchecked(IoSupplier<T> s) {
        try {
            return s.get();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** Records of several CSL types, each with the variables its type has. */
    private static List<Metadata> records() {
        Metadata article = Metadata.EMPTY.with(Field.TYPE, "article-journal").with(Field.TITLE, "Optimistic replication")
                .with(Field.AUTHORS, List.of(new Author("Saito", "Yasushi"), new Author("Shapiro", "Marc"))).with(Field.YEAR, 2005)
                .with(Field.MONTH, 3).with(Field.VENUE, "ACM Computing Surveys").with(Field.VOLUME, "37").with(Field.ISSUE, "1")
                .with(Field.PAGES, "42--81").with(Field.DOI, "10.1145/1057977.1057980").with(Field.URL, "https://example.org/saito2005")
                .with(Field.ISSN, "0360-0300").with(Field.PMID, "15930111").with(Field.LANGUAGE, "en")
                .with(Field.ABSTRACT, "Data replication is a key technology in distributed systems.").with(Field.NOTES, "read twice")
                .with(Field.TAGS, new TreeSet<>(Set.of("replication", "to_read", "C++", "Neoplasms, Experimental", "Ökonomie", ".private-ish"))
                ).with(Field.CITATION_KEY, "saito2005");
        Metadata chapter = Metadata.EMPTY.with(Field.TYPE, "chapter").with(Field.TITLE, "Replication techniques for availability")
                .with(Field.AUTHORS, List.of(new Author("van Renesse", "Robbert"))).with(Field.EDITORS, List.of(new Author("Pedone", "Fernando")))
                .with(Field.VENUE, "Replication: Theory and Practice").with(Field.PUBLISHER, "Springer").with(Field.PUBLISHER_PLACE, "Berlin")
                .with(Field.COLLECTION_TITLE, "LNCS").with(Field.COLLECTION_NUMBER, "5959").with(Field.ISBN, "978-3-642-11293-5")
                .with(Field.YEAR, 2010).with(Field.MONTH, 2).with(Field.DAY, 17).with(Field.PAGES, "19--40").with(Field.EDITION, "1")
                .with(Field.URL, "https://example.org/renesse2010").with(Field.CITATION_KEY, "renesse2010");
        Metadata preprint = Metadata.EMPTY.with(Field.TYPE, "preprint").with(Field.TITLE, "Conflict-free replicated data types")
                .with(Field.AUTHORS, List.of(new Author("Shapiro", "Marc"), new Author("Preguiça", "Nuno"))).with(Field.YEAR, 2011)
                .with(Field.ARXIV, "1805.06358").with(Field.GENRE, "Technical report").with(Field.URL, "https://arxiv.org/abs/1805.06358")
                .with(Field.TRANSLATORS, List.of(new Author("Baquero", "Carlos"))).with(Field.ACCESSED, "2024-03-01")
                .with(Field.CITATION_KEY, "shapiro2011");
        Metadata report = Metadata.EMPTY.with(Field.TYPE, "report").with(Field.TITLE, "Managing update conflicts in Bayou")
                .with(Field.AUTHORS, List.of(new Author("Terry", "Douglas B."))).with(Field.YEAR, 1995).with(Field.PUBLISHER, "Xerox PARC")
                .with(Field.NUMBER, "CSL-95-1").with(Field.URL, "https://example.org/bayou").with(Field.CITATION_KEY, "terry1995");
        return List.of(article, chapter, preprint, report);
    }

    @Test
    void aRecordSentFromOneToolToAnotherAndBackIsTheSameRecordForEveryPairOfTools() {
        List<String> lost = new ArrayList<>();
        for (Tool a : tools()) {
            for (Tool b : tools()) {
                if (a.name().equals(b.name())) {
                    continue;
                }
                for (Metadata sample : records()) {
                    // one title per trip: a tool refuses a second copy of the same work (BibSonomy's hash, Pinboard's URL)
                    String trip = " (" + a.name() + " via " + b.name() + ")";
                    Metadata record = sample.with(Field.TITLE, sample.title() + trip).with(Field.URL, sample.url() + "?" + a.name() + "-" + b.name());
                    AnnotationTool toolA = a.open().get();
                    AnnotationTool toolB = b.open().get();
                    RemoteRecord copyA = toolA.fetch(toolA.create(toolA.writable(record, null)).remoteId()).orElseThrow();
                    Metadata inA = copyA.metadata();
                    Metadata sentToB = toolB.writable(inA, null);
                    if (b.name().equals("bibsonomy") && (inA.year() == null || inA.authors().isEmpty())) {
                        continue; // BibSonomy requires a year and an author of a publication (the stub refuses, as the service does)
                    }
                    Metadata inB = toolB.tagsAsRead(toolB.fetch(toolB.create(sentToB).remoteId()).orElseThrow().metadata(), sentToB);
                    for (Field f : b.kept()) {
                        if (f != Field.CITATION_KEY && !java.util.Objects.equals(sentToB.get(f), inB.get(f))) {
                            lost.add(a.name() + " → " + b.name() + ", " + record.type() + ": " + f.jsonName() + " was sent as "
                                    + sentToB.get(f) + ", " + b.name() + " holds " + inB.get(f));
                        }
                    }
                    Metadata fromB = inA; // what B holds comes back over A's copy, as a sync brings it
                    for (Field f : b.kept()) {
                        fromB = fromB.with(f, inB.get(f));
                    }
                    TreeSet<String> tags = new TreeSet<>(fromB.tags()); // tags B cannot hold were left out of its copy, not removed
                    inA.tags().stream().filter(t -> !sentToB.tags().contains(t)).forEach(tags::add);
                    fromB = fromB.with(Field.TAGS, tags);
                    RemoteRecord updated = toolA.update(copyA, toolA.writable(fromB, inA));
                    Metadata backInA = toolA.tagsAsRead(toolA.fetch(updated.remoteId()).orElseThrow().metadata(), inA);
                    for (Field f : a.kept()) {
                        boolean crossed = b.kept().contains(f);
                        if (crossed && f != Field.CITATION_KEY && !java.util.Objects.equals(inA.get(f), backInA.get(f))) {
                            lost.add(a.name() + " → " + b.name() + " → " + a.name() + ", " + record.type() + ": " + f.jsonName() + " was "
                                    + inA.get(f) + ", came back " + backInA.get(f));
                        }
                    }
                }
            }
        }
        assertEquals(List.of(), lost);
    }

    @Test
    void everyFieldOfEveryRecordSurvivesEachToolThatHoldsItWhole() {
        Map<String, List<String>> lost = new java.util.TreeMap<>();
        for (Tool t : tools()) {
            for (Metadata record : records()) {
                AnnotationTool tool = t.open().get();
                Metadata writable = tool.writable(record, null);
                Metadata back = tool.tagsAsRead(tool.fetch(tool.create(writable).remoteId()).orElseThrow().metadata(), writable);
                for (Field f : t.kept()) {
                    if (f != Field.CITATION_KEY && !java.util.Objects.equals(writable.get(f), back.get(f))) {
                        lost.computeIfAbsent(t.name(), k -> new ArrayList<>()).add(record.type() + "." + f.jsonName() + ": " + writable.get(f)
                                + " → " + back.get(f));
                    }
                }
            }
        }
        assertEquals(Map.of(), lost);
    }
}
