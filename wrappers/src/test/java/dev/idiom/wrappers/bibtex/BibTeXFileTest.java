package dev.idiom.wrappers.bibtex;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idiom.events.Author;
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
import java.nio.file.StandardOpenOption;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.io.TempDir;

class BibTeXFileTest extends AnnotationToolContract {
    @TempDir
    Path dir;

    @Override
    protected AnnotationTool tool() {
        return new BibTeXFile(dir.resolve("refs-" + System.nanoTime() + ".bib"));
    }

    @Override
    protected Set<Field> fieldsKept() {
        Set<Field> kept = dev.idiom.wrappers.BibTeXMapping.entryFields();
        kept.add(Field.BIBTEX_EXTRAS);
        return kept;
    }

    @Override
    protected boolean preciseChanges() {
        return false;
    }

    private Path jabref() throws IOException {
        Path file = dir.resolve("jabref.bib");
        try (InputStream in = getClass().getResourceAsStream("/jabref.bib")) {
            Files.copy(in, file);
        }
        return file;
    }

    @Test
    void newKeysOfOneAuthorAndYearStayUniqueLettersPastZOneAtATimeAndInABatch() throws IOException {
        assertEquals(List.of("a", "z", "aa", "az", "ba", "zz", "aaa"), java.util.stream.IntStream.of(1, 26, 27, 52, 53, 702, 703)
                .mapToObj(CitationKeys::suffix).toList());
        Path file = dir.resolve("many.bib");
        Files.writeString(file, "");
        BibTeXFile bib = new BibTeXFile(file);
        java.util.function.IntFunction<Metadata> report = i -> Metadata.EMPTY.with(Field.TYPE, "report").with(Field.TITLE, "Gossip, part " + i)
                .with(Field.AUTHORS, List.of(new Author("Demers", "Alan"))).with(Field.YEAR, 1999);
        Set<String> keys = new java.util.TreeSet<>();
        for (int i = 0; i < 20; i++) {
            keys.add(bib.create(report.apply(i)).remoteId());
        }
        List<AnnotationTool.NewCopy> batch = new java.util.ArrayList<>();
        for (int i = 20; i < 40; i++) {
            batch.add(new AnnotationTool.NewCopy(report.apply(i), false, null));
        }
        bib.createAll(batch).forEach(m -> keys.add(m.record().remoteId()));
        assertEquals(40, keys.size(), "40 records, 40 keys: " + keys);
        assertTrue(keys.contains("demers1999aa") && keys.contains("demers1999am"), "after z come aa, ab, …: " + keys);
        assertTrue(keys.stream().allMatch(k -> k.matches("demers1999[a-z]*")), "letters only: " + keys);
        List<RemoteRecord> read = bib.changedSince(null).records();
        assertEquals(40, read.size(), "every entry reads back");
        assertEquals(keys, new java.util.TreeSet<>(read.stream().map(RemoteRecord::remoteId).toList()));
    }

    @Test
    void aFileKeepsItsDialectABibTeXFileGetsNoOnlineEntryAndABibLaTeXFileDoes() throws IOException {
        Metadata page = Metadata.EMPTY.with(Field.TYPE, "webpage").with(Field.TITLE, "Replication notes").with(Field.URL, "https://example.org/r")
                .with(Field.YEAR, 2024).with(Field.MONTH, 3);
        Path classic = dir.resolve("classic.bib");
        Files.writeString(classic, "@article{saito2005, title = {Optimistic Replication}, journal = {CSUR}, year = {2005}}\n");
        BibTeXFile bibtex = new BibTeXFile(classic);
        RemoteRecord made = bibtex.create(page);
        String text = Files.readString(classic);
        assertTrue(text.contains("@misc{") && text.contains("entrysubtype = {webpage}") && !text.contains("@online") && !text.contains("date ="),
                "BibTeX's own types and year/month: " + text);
        Metadata back = bibtex.fetch(made.remoteId()).orElseThrow().metadata();
        assertEquals("webpage", back.type());
        assertEquals(null, back.bibtexExtras(), "a @misc for a web page is the dialect's, not an entry type of its own");
        assertEquals(back.bibtexExtras(), bibtex.writable(page, back).bibtexExtras(), "nothing owed again");
        assertEquals(back.bibtexExtras(), bibtex.changedSince(null).records().stream().filter(r -> r.remoteId().equals(made.remoteId()))
                .findFirst().orElseThrow().metadata().bibtexExtras(), "a listing reads it as a fetch does");

        Path modern = dir.resolve("modern.bib");
        Files.writeString(modern, "@online{notes, title = {Notes}, url = {https://example.org/n}, date = {2020}}\n");
        BibTeXFile biblatex = new BibTeXFile(modern);
        biblatex.changedSince(null);
        biblatex.create(page);
        assertTrue(Files.readString(modern).contains("@online{"), Files.readString(modern));
    }

    @Test
    void aZoteroItemsTexLinesBecomeTheFieldsBetterBibTeXWritesAndAreNotOwedAgain() throws IOException {
        Metadata item = Metadata.EMPTY.with(Field.TYPE, "article-journal").with(Field.TITLE, "Funded work").with(Field.YEAR, 2020)
                .with(Field.ZOTERO_EXTRAS, Field.extras(Map.of("extra", "Read twice.\ntex.affiliation: Dept. of R&D\ntex.shorthand= {GW}20\n"
                        + "tex.owner: ada\ntex.title: not this one\ntex.broken: {unbalanced\nLCCN: 2004012345\nOriginal Date: 1971\n"
                        + "bibtex.wonder: in BibTeX's dialect\nbiblatex.wonder: in BibLaTeX's\nOCLC: 724024071\nPublisher: read as data\n"
                        + "tex.xref= welker_andreas_1999\ntex.crossref= conf/icdm/2009w")));
        Path file = dir.resolve("tex.bib");
        Files.writeString(file, "");
        BibTeXFile bib = new BibTeXFile(file);
        RemoteRecord made = bib.create(item);
        String text = Files.readString(file);
        assertTrue(text.contains("{Dept. of R\\&D}") && text.contains("{{GW}20}"), "escaped after ':', as written after '=': " + text);
        assertTrue(text.contains("xref = {welker_andreas_1999}") && text.contains("crossref = {conf/icdm/2009w}") && text.contains("owner = {ada}"),
                "the cross-references and bookkeeping it names, in the entry made: the file's own from then on: " + text);
        assertTrue(!text.contains("not this one") && !text.contains("unbalanced"),
                "not over a field of the record's own, nothing that would break the file: " + text);
        Metadata back = bib.fetch(made.remoteId()).orElseThrow().metadata();
        assertEquals(Map.of("affiliation", "Dept. of R\\&D", "shorthand", "{GW}20", "lccn", "2004012345", "origdate", "1971",
                        "wonder", "in BibLaTeX's", "annotation", "Read twice.\\\\ OCLC: 724024071"), back.bibtexExtras(),
                "and the lines Zotero reads as data no canonical field holds, as Better BibTeX names them; its free text as the annotation");
        assertEquals(back.bibtexExtras(), bib.writable(item, back).bibtexExtras(), "what the copy holds is what it is owed");
        assertTrue(BibTeXFile.entry(item, true).contains("wonder = {in BibTeX's dialect}"), "a bibtex. line is for BibTeX's dialect alone");

        Metadata before = back.with(Field.BIBTEX_EXTRAS, Field.extras(Map.of("affiliation", "Dept. of R\\&D")));
        assertEquals(Map.of("affiliation", "Dept. of R\\&D"), bib.writable(item, before).bibtexExtras(),
                "a copy made before this adapter wrote the others is not owed them: an upgrade rewrites no entry");

        bib.update(bib.fetch(made.remoteId()).orElseThrow(), item.with(Field.TITLE, "Funded work, revised"));
        assertTrue(Files.readString(file).contains("owner = {ada}") && Files.readString(file).contains("crossref = {conf/icdm/2009w}"),
                "an edit leaves the bookkeeping the entry was made with alone: " + Files.readString(file));
        Metadata child = Metadata.EMPTY.with(Field.TYPE, "paper-conference").with(Field.TITLE, "A paper of it").with(Field.YEAR, 2021)
                .with(Field.ZOTERO_EXTRAS, Field.extras(Map.of("extra", "tex.crossref= " + made.remoteId())));
        String childKey = bib.create(child).remoteId();
        assertFalse(Files.readString(file).contains("crossref = {" + made.remoteId() + "}"),
                "no crossref to an entry of the file: its fields would be read as the new entry's: " + Files.readString(file));
        assertEquals(null, bib.fetch(childKey).orElseThrow().metadata().venue());
    }

    @Test
    void anEventDateLineIsTheEntrysEventdateAndACopyWrittenWithItInItsAnnotationKeepsIt() throws IOException {
        Metadata item = Metadata.EMPTY.with(Field.TYPE, "manuscript").with(Field.TITLE, "A manuscript").with(Field.YEAR, 2014)
                .with(Field.ZOTERO_EXTRAS, Field.extras(Map.of("extra", "event-date: 1888-08-28\nRead twice.")));
        String entry = BibTeXFile.entry(item);
        assertTrue(entry.contains("eventdate = {1888-08-28}") && entry.contains("annotation = {Read twice.}"), entry);
        Metadata before = item.with(Field.ZOTERO_EXTRAS, null)
                .with(Field.BIBTEX_EXTRAS, Field.extras(Map.of("annotation", "event-date: 1888-08-28\\\\ Read twice.")));
        Path file = dir.resolve("events.bib");
        Files.writeString(file, "");
        BibTeXFile bib = new BibTeXFile(file);
        assertEquals(before.bibtexExtras(), bib.writable(item, before).bibtexExtras(),
                "a copy written when the line was text keeps its annotation and is owed no eventdate: an upgrade rewrites no entry");
    }

    @Test
    void aCourtCaseIsAJurisdictionWithItsReporterAndCourtAndAnOlderMiscOfOneReadsAsItDid() throws IOException {
        Metadata item = Metadata.EMPTY.with(Field.TYPE, "legal_case").with(Field.TITLE, "Kartinyeri v Commonwealth").with(Field.YEAR, 1998)
                .with(Field.VENUE, "CLR").with(Field.VOLUME, "195").with(Field.AUTHORITY, "HCA");
        String entry = BibTeXFile.entry(item);
        assertTrue(entry.startsWith("@jurisdiction{") && entry.contains("journaltitle = {CLR}") && entry.contains("institution = {HCA}"), entry);
        assertTrue(BibTeXFile.entry(item, true).startsWith("@misc{") && BibTeXFile.entry(item, true).contains("entrysubtype = {legal\\_case}"),
                "BibTeX's dialect has no @jurisdiction: " + BibTeXFile.entry(item, true));
        Path file = dir.resolve("cases.bib");
        String older = "@misc{kartinyeri,\n  entrysubtype = {legal_case},\n  title = {Kartinyeri v Commonwealth},\n  howpublished = {CLR},\n  volume = {195},\n  date = {1998}\n}\n"; // BibLaTeX's date: a file of BibLaTeX's dialect
        Files.writeString(file, older);
        BibTeXFile bib = new BibTeXFile(file);
        RemoteRecord old = bib.fetch("kartinyeri").orElseThrow();
        assertEquals("legal_case", old.metadata().type());
        assertEquals("CLR", old.metadata().venue());
        RemoteRecord made = bib.create(item);
        Metadata back = bib.fetch(made.remoteId()).orElseThrow().metadata();
        assertEquals("HCA", back.get(Field.AUTHORITY), "the court read back from the institution");
        assertEquals("CLR", back.venue());
        String now = Files.readString(file);
        bib.update(old, bib.writable(item, old.metadata()));
        assertEquals(now, Files.readString(file), "the older @misc, which has no place for the court, is left as it is");
    }

    @Test
    void theSubjectClassesAZoteroItemGivesBesideItsArxivIdAreTheEntrysEprintclass() {
        Metadata item = Metadata.EMPTY.with(Field.TYPE, "article-journal").with(Field.TITLE, "TorchAudio").with(Field.YEAR, 2022)
                .with(Field.VENUE, "arXiv:2110.15018 [cs, eess]").with(Field.ARXIV, "2110.15018")
                .with(Field.ZOTERO_EXTRAS, Field.extras(Map.of("extra", "arXiv: 2110.15018")));
        assertTrue(BibTeXFile.entry(item).contains("eprintclass = {cs, eess}"), BibTeXFile.entry(item));
        assertTrue(BibTeXFile.entry(item, true).contains("primaryclass = {cs, eess}"), BibTeXFile.entry(item, true));
        Metadata other = item.with(Field.ARXIV, "1408.1149");
        assertFalse(BibTeXFile.entry(other).contains("eprintclass"), "classes of another id are not this one's");
    }

    @Test
    void whatBetterBibTeXFillsFromAZoteroItemIsWrittenWhereTheRecordHasNothingAndReadBackAsWritten() {
        Map<String, String> zotero = Map.of("itemType", "x");
        Metadata application = Metadata.EMPTY.with(Field.TYPE, "patent").with(Field.TITLE, "A patent application").with(Field.YEAR, 2020)
                .with(Field.CALL_NUMBER, "EP456456456").with(Field.ZOTERO_EXTRAS, Field.extras(zotero));
        String entry = BibTeXFile.entry(application);
        assertTrue(entry.contains("type = {patreqeu}") && entry.contains("number = {EP456456456}"), "an application by its office: " + entry);
        Metadata granted = application.with(Field.NUMBER, "US123123123");
        assertTrue(BibTeXFile.entry(granted).contains("type = {patentus}") && BibTeXFile.entry(granted).contains("number = {US123123123}"), BibTeXFile.entry(granted));
        assertFalse(BibTeXFile.entry(granted.with(Field.NUMBER, "123123123")).contains("type ="), "no office, no type");

        Metadata preprint = Metadata.EMPTY.with(Field.TYPE, "preprint").with(Field.TITLE, "Few-shot learners").with(Field.YEAR, 2020)
                .with(Field.ARXIV, "2005.14165").with(Field.ZOTERO_EXTRAS, Field.extras(Map.of("extra", "arXiv:2005.14165 [cs]")));
        assertTrue(BibTeXFile.entry(preprint).contains("pubstate = {prepublished}") && BibTeXFile.entry(preprint).contains("eprintclass = {cs}"),
                BibTeXFile.entry(preprint));
        assertFalse(BibTeXFile.entry(preprint.with(Field.STATUS, "submitted")).contains("prepublished"), "a status of its own stays");
        assertTrue(BibTeXFile.entry(preprint, true).contains("number = {arXiv:2005.14165}"), "BibTeX's: " + BibTeXFile.entry(preprint, true));
        Metadata elsewhere = preprint.with(Field.ARXIV, null).with(Field.SECTION, "Oceanography");
        assertTrue(BibTeXFile.entry(elsewhere).contains("eprintclass = {Oceanography}"), "a preprint server's section: " + BibTeXFile.entry(elsewhere));

        Metadata article = Metadata.EMPTY.with(Field.TYPE, "article-journal").with(Field.TITLE, "Quantentheorie").with(Field.YEAR, 1925)
                .with(Field.CONTAINER_TITLE_SHORT, "Sitzungsber. Preuss. Akad. Wiss.").with(Field.ZOTERO_EXTRAS, Field.extras(zotero));
        assertTrue(BibTeXFile.entry(article).contains("journal = {Sitzungsber. Preuss. Akad. Wiss.}"), BibTeXFile.entry(article));
        assertTrue(BibTeXFile.entry(article.with(Field.VENUE, "Sitzungsberichte")).contains("journal = {Sitzungsberichte}"));
        assertFalse(BibTeXFile.entry(article.with(Field.ZOTERO_EXTRAS, null)).contains(" journal ="), "what Better BibTeX makes of a Zotero item only");

        Metadata paper = Metadata.EMPTY.with(Field.TYPE, "paper-conference").with(Field.TITLE, "Noise statistics").with(Field.YEAR, 2020)
                .with(Field.EVENT, "Conference on Lasers and Electro-optics");
        assertTrue(BibTeXFile.entry(paper, true).contains("booktitle = {Conference on Lasers and Electro-optics}"),
                "BibTeX has no eventtitle: " + BibTeXFile.entry(paper, true));
        assertFalse(BibTeXFile.entry(paper).contains("booktitle"), "BibLaTeX's eventtitle says it: " + BibTeXFile.entry(paper));
        Metadata copy = WrittenEntry.of(paper, null, true);
        assertEquals("Conference on Lasers and Electro-optics", copy.venue(), "synced as read back");
        assertEquals("CLEO 2020", WrittenEntry.of(paper.with(Field.EVENT, "CLEO 2020"), copy, true).venue(),
                "a copy made so follows a renamed conference");
        assertEquals(null, WrittenEntry.of(paper, copy.with(Field.VENUE, null), true).venue(), "one made before gets none");

        Metadata reviewed = article.with(Field.ZOTERO_EXTRAS, Field.extras(Map.of("creators",
                "[{\"creatorType\":\"reviewedAuthor\",\"firstName\":\"Ekkehart\",\"lastName\":\"Malotki\"},"
                        + "{\"creatorType\":\"seriesEditor\",\"firstName\":\"Ann\",\"lastName\":\"Series\"}]")));
        assertTrue(BibTeXFile.entry(reviewed, true).contains("collaborator = {Malotki, Ekkehart}"), "BibTeX's one list of other roles: "
                + BibTeXFile.entry(reviewed, true));

        Metadata quoted = article.with(Field.ZOTERO_EXTRAS, Field.extras(Map.of("extra", "tex.\"author+an:role\": 1=host,2=producer")));
        assertTrue(BibTeXFile.entry(quoted).contains("author+an:role = {1=host,2=producer}"), BibTeXFile.entry(quoted));

        Metadata undated = Metadata.EMPTY.with(Field.TYPE, "webpage").with(Field.TITLE, "Leishuku").with(Field.URL, "http://example.org/")
                .with(Field.ZOTERO_EXTRAS, Field.extras(Map.of("date", "n.d.")));
        assertTrue(BibTeXFile.entry(undated).contains("year = {\\bibstring{nodate}}"), BibTeXFile.entry(undated));
        assertFalse(BibTeXFile.entry(undated, true).contains("bibstring"), "BibTeX's styles know no bibstring");
    }

    @Test
    void whatANewEntryIsWrittenWithBeyondItsReadingIsPartOfItAsSyncedAndNeverOwedAgain() throws IOException {
        Metadata item = Metadata.EMPTY.with(Field.TYPE, "webpage").with(Field.TITLE, "Undated").with(Field.URL, "http://example.org/")
                .with(Field.ZOTERO_EXTRAS, Field.extras(Map.of("date", "n.d.", "extra", "tex.owner: ada")));
        Path file = Files.writeString(dir.resolve("once.bib"), "");
        BibTeXFile bib = new BibTeXFile(file);
        Metadata synced = bib.writable(item, null); // what the engine records for a copy it makes
        RemoteRecord made = bib.create(synced);
        assertTrue(Files.readString(file).contains("owner = {ada}") && Files.readString(file).contains("year = {\\bibstring{nodate}}"),
                Files.readString(file));
        assertEquals(synced, bib.writable(item, synced), "owed nothing: the copy as synced is what it should hold");
        Metadata back = bib.fetch(made.remoteId()).orElseThrow().metadata();
        assertEquals(null, back.year(), "read as no year");
        bib.update(bib.fetch(made.remoteId()).orElseThrow(), item.with(Field.YEAR, 2016).with(Field.ZOTERO_EXTRAS, Field.extras(Map.of("extra", "tex.owner: ada"))));
        String text = Files.readString(file);
        assertTrue(text.contains("2016") && !text.contains("bibstring") && text.contains("owner = {ada}"), "a year the record gets replaces it: " + text);
    }

    @Test
    void aFileThatGivesAddressesInNotesGetsNewOnesThereAndReadsThemAsAddresses() throws IOException {
        Path file = Files.writeString(dir.resolve("classic.bib"), """
                @article{a, title = {Patent landscape}, journal = {Analyses}, year = {2014}, note = {\\url{http://example.org/sample\\#top}}}
                @misc{b, title = {A page}, year = {2015}, howpublished = {\\url{http://example.org/b}}}
                """);
        BibTeXFile bib = new BibTeXFile(file);
        Metadata a = bib.fetch("a").orElseThrow().metadata();
        assertEquals("http://example.org/sample#top", a.url());
        assertEquals(null, a.notes(), "an address is no note");
        Metadata b = bib.fetch("b").orElseThrow().metadata();
        assertEquals("http://example.org/b", b.url());
        assertEquals(null, b.venue(), "nor where a @misc was published");
        Metadata article = Metadata.EMPTY.with(Field.TYPE, "article-journal").with(Field.TITLE, "Boogie").with(Field.YEAR, 2016)
                .with(Field.URL, "https://example.org/krml213.pdf#page=2");
        Metadata doc = Metadata.EMPTY.with(Field.TYPE, "document").with(Field.TITLE, "TheTitle").with(Field.YEAR, 2023).with(Field.URL, "https://example.org/d");
        RemoteRecord madeArticle = bib.create(article);
        bib.create(doc);
        String text = Files.readString(file);
        assertTrue(text.contains("note = {\\url{https://example.org/krml213.pdf\\#page=2}}") && text.contains("howpublished = {\\url{https://example.org/d}}")
                && !text.contains("url = {"), "as the file gives them: " + text);
        assertEquals(article.url(), bib.fetch(madeArticle.remoteId()).orElseThrow().metadata().url());
        bib.update(bib.fetch(madeArticle.remoteId()).orElseThrow(), article.with(Field.URL, "https://example.org/v2").with(Field.NOTES, "Read twice."));
        text = Files.readString(file);
        assertTrue(text.matches("(?s).*url\\s+= \\{https://example.org/v2}.*") && text.contains("note = {Read twice.}"), "notes take the note, the address its field: " + text);

        Path both = Files.writeString(dir.resolve("both.bib"), "@article{d, title = {D}, year = {2014}, url = {http://example.org/d},"
                + " note = {\\url{http://example.org/d}}}\n");
        BibTeXFile withUrl = new BibTeXFile(both);
        RemoteRecord d = withUrl.fetch("d").orElseThrow();
        withUrl.update(d, d.metadata().with(Field.URL, "http://example.org/d2"));
        assertTrue(Files.readString(both).contains("url = {http://example.org/d2}"), "an entry with a url field is written there: " + Files.readString(both));

        Path modern = Files.writeString(dir.resolve("modern-urls.bib"), "@article{c, title = {C}, year = {2014}, url = {http://example.org/c}}\n");
        BibTeXFile other = new BibTeXFile(modern);
        other.fetch("c");
        other.create(article);
        assertTrue(Files.readString(modern).contains("url = {https://example.org/krml213.pdf#page=2}"), "a file with url fields gets one: " + Files.readString(modern));
    }

    @Test
    void aFieldAFileNamesOtherwiseIsReadAndWrittenThereAndAnEntryThatNamesItAsTheMappingDoesKeepsIt() throws IOException {
        Path file = Files.writeString(dir.resolve("aliases.bib"), """
                @misc{m, title = {XYZZY}, date = {2008}, organization = {Doubleday}}
                @misc{p, title = {Older}, date = {2008}, publisher = {Anchor}}
                @unpublished{u, title = {Contracting}, date = {2022}, howpublished = {Working Paper}}
                """);
        BibTeXFile bib = new BibTeXFile(file);
        assertEquals("Doubleday", bib.fetch("m").orElseThrow().metadata().publisher());
        assertFalse(bib.fetch("m").orElseThrow().metadata().extras(Field.BIBTEX_EXTRAS).containsKey("organization"));
        assertEquals("Working Paper", bib.fetch("u").orElseThrow().metadata().get(Field.GENRE));
        Metadata doc = Metadata.EMPTY.with(Field.TYPE, "document").with(Field.TITLE, "New").with(Field.YEAR, 2009).with(Field.PUBLISHER, "Knopf");
        bib.create(doc);
        assertTrue(Files.readString(file).contains("organization = {Knopf}"), "a new BibLaTeX @misc's publisher: " + Files.readString(file));
        RemoteRecord older = bib.fetch("p").orElseThrow();
        bib.update(older, older.metadata().with(Field.PUBLISHER, "Anchor Books"));
        assertTrue(Files.readString(file).contains("publisher = {Anchor Books}"), "an entry keeps the name it gives: " + Files.readString(file));
        Metadata manuscript = Metadata.EMPTY.with(Field.TYPE, "manuscript").with(Field.TITLE, "Draft").with(Field.YEAR, 2022).with(Field.GENRE, "Working Paper");
        assertTrue(BibTeXFile.entry(manuscript).contains("howpublished = {Working Paper}") && !BibTeXFile.entry(manuscript).contains("type ="),
                BibTeXFile.entry(manuscript));

        Path classic = Files.writeString(dir.resolve("copyright.bib"), "@book{k, title = {K}, year = {1999}, copyright = {All rights reserved}}\n");
        BibTeXFile bibtex = new BibTeXFile(classic);
        assertEquals("All rights reserved", bibtex.fetch("k").orElseThrow().metadata().get(Field.LICENSE));
        bibtex.create(doc.with(Field.LICENSE, "CC BY 4.0"));
        assertTrue(Files.readString(classic).contains("copyright = {CC BY 4.0}"), "BibTeX's name for it: " + Files.readString(classic));
    }

    @Test
    void aTexLineFillsAFieldTheRecordLacksAsTheEntryReadsItBackAndOnlyInCopiesMadeSince() throws IOException {
        Metadata item = Metadata.EMPTY.with(Field.TYPE, "article-journal").with(Field.TITLE, "Brain activation").with(Field.YEAR, 2008)
                .with(Field.ZOTERO_EXTRAS, Field.extras(Map.of("extra", "tex.journaltitle= Psychophysiology\ntex.author= Wendt, Julia\ntex.title: Not this")));
        Path file = dir.resolve("filled.bib");
        Files.writeString(file, "");
        BibTeXFile bib = new BibTeXFile(file);
        Metadata wanted = bib.writable(item, null);
        assertEquals("Psychophysiology", wanted.venue(), "what the new copy holds, as synced: the journal its tex line gives");
        assertEquals(List.of(new Author("Wendt", "Julia")), wanted.authors());
        assertEquals("Brain activation", wanted.title(), "a field of the record's own is never overridden");
        RemoteRecord made = bib.create(wanted);
        assertTrue(Files.readString(file).contains("journal = {Psychophysiology}"), Files.readString(file));
        Metadata back = bib.fetch(made.remoteId()).orElseThrow().metadata();
        assertEquals(wanted.venue(), back.venue());
        assertEquals(wanted.authors(), back.authors(), "read back as written: a later edit of the entry brings neither as the curator's change");
        assertEquals(back.venue(), bib.writable(item, back).venue(), "and nothing is owed");

        Metadata before = back.with(Field.VENUE, null).with(Field.AUTHORS, List.of());
        assertEquals(null, bib.writable(item, before).venue(), "a copy made before this adapter filled fields so is not owed them");
        assertEquals(List.of(), bib.writable(item, before).authors());
    }

    @Test
    void anEntrysFieldsNoCanonicalFieldHoldsReachANewEntryInAnotherFileWholeButTheFilesBookkeepingStays() throws IOException {
        Path a = dir.resolve("a.bib");
        Files.writeString(a, """
                @Conference{lamport78,
                  author = {Lamport, Leslie},
                  title = {Time, Clocks, and the Ordering of Events},
                  booktitle = {Proceedings of the Symposium},
                  year = {1978},
                  shorttitle = {Time, Clocks},
                  eventdate = {1978-06-18/1978-06-23},
                  venue = {Chicago},
                  addendum = {Reprinted in {CACM}},
                  langid = {english},
                  owner = {ada},
                  timestamp = {2024-01-01},
                }
                """);
        Metadata read = new BibTeXFile(a).changedSince(null).records().getFirst().metadata();
        assertEquals("english", read.language());
        assertEquals("Time, Clocks", read.get(Field.TITLE_SHORT));
        assertEquals("Chicago", read.get(Field.EVENT_PLACE), "BibLaTeX's venue is the event's place, not the publisher's");
        assertEquals(Map.of("@type", "conference", "eventdate", "1978-06-18/1978-06-23", "addendum", "Reprinted in {CACM}"), read.bibtexExtras(),
                "JabRef's owner and timestamp are the file's bookkeeping");

        Path b = dir.resolve("b.bib");
        Files.writeString(b, "");
        BibTeXFile other = new BibTeXFile(b);
        RemoteRecord copy = other.create(read);
        String text = Files.readString(b);
        assertTrue(text.startsWith("@conference{"), "the entry type of the file it came from: " + text);
        for (String kept : List.of("Time, Clocks}", "1978-06-18/1978-06-23}", "{Chicago}", "{Reprinted in {CACM}}")) {
            assertTrue(text.contains(kept), kept + " in " + text);
        }
        assertTrue(!text.contains("owner") && !text.contains("timestamp"), text);
        Metadata back = other.fetch(copy.remoteId()).orElseThrow().metadata();
        assertEquals(read.bibtexExtras(), back.bibtexExtras(), "read back as it was sent: nothing owed either way");
        assertEquals(back.bibtexExtras(), other.writable(read, back).bibtexExtras());

        Path c = dir.resolve("c.bib");
        Files.writeString(c, "@inproceedings{lamport78,\n  author = {Lamport, Leslie},\n  title = {Time, Clocks, and the Ordering of Events},\n"
                + "  booktitle = {Proceedings of the Symposium},\n  year = {1978},\n}\n");
        BibTeXFile third = new BibTeXFile(c);
        Metadata held = third.changedSince(null).records().getFirst().metadata();
        assertEquals(null, third.writable(read, held).extras(Field.BIBTEX_EXTRAS).get("@type"),
                "an entry in a file is not retyped to another file's entry type while the record's type stays");
    }

    @Test
    void aJabRefFileIsReadWithMacrosLatexAndAuthorsResolvedAndTheBrokenEntrySkipped() throws IOException {
        ChangePage page = new BibTeXFile(jabref()).changedSince(null);
        Map<String, Metadata> byKey = page.records().stream().collect(Collectors.toMap(RemoteRecord::remoteId, RemoteRecord::metadata));
        Metadata saito = byKey.get("saito2005");
        assertEquals("Optimistic Replication", saito.title());
        assertEquals("ACM Computing Surveys", saito.venue(), "the @string macro is resolved");
        assertEquals(List.of(new Author("Saito", "Yasushi"), new Author("Shapiro", "Marc")), saito.authors());
        assertEquals(new TreeSet<>(Set.of("replication", "survey")), saito.tags());
        assertEquals("article-journal", saito.type());
        assertEquals("saito2005", saito.citationKey(), "the entry's key is the citation key");
        Metadata demers = byKey.get("demers1987");
        assertEquals(new Author("Demers", "Alan"), demers.authors().getFirst());
        assertEquals("paper-conference", demers.type());
        assertEquals(1987, demers.year());
        Metadata muller = byKey.get("muller2010");
        assertEquals("Épidémies et réplication", muller.title(), "LaTeX accents become text");
        assertEquals("Müller", muller.authors().getFirst().family());
        assertTrue(page.skipped().stream().anyMatch(s -> s.reason().contains("malformed")), "skipped: " + page.skipped());
    }

    @Test
    void aLargeFileIsListedInFileOrderWithEveryEntryReadAsASmallOneIs() throws IOException {
        // macros, LaTeX accents and skipped entries across a file of 1,500 entries, listed in the file's order
        StringBuilder text = new StringBuilder("@string{acm = {ACM Computing Surveys}}\n");
        for (int i = 0; i < 1_500; i++) {
            text.append(i % 100 == 7 ? "@misc{untitled" + i + ",\n  note = {no title}\n}\n" : i % 100 == 8 ? "@misc{empty" + i + ",\n}\n"
                    : "@article{k" + i + ",\n  title = {Paper {\\'e}t{\\'e} " + i + "},\n  author = {M{\\\"u}ller, Anna and Saito, Yasushi},\n  journal = acm,\n  year = "
                    + (1990 + i % 30) + "\n}\n");
        }
        ChangePage page = new BibTeXFile(Files.writeString(dir.resolve("large.bib"), text)).changedSince(null);
        assertEquals(1_485, page.records().size());
        for (int i = 0, r = 0; i < 1_500; i++) {
            if (i % 100 == 8) {
                continue;
            }
            Metadata m = page.records().get(r++).metadata();
            if (i % 100 == 7) {
                assertEquals(null, m.title(), "an untitled entry is a record");
                assertEquals("no title", m.notes());
                continue;
            }
            assertEquals("Paper été " + i, m.title());
            assertEquals("k" + i, m.citationKey());
            assertEquals("Müller", m.authors().getFirst().family());
            assertEquals("ACM Computing Surveys", m.venue());
        }
        assertEquals(15, page.skipped().size());
        assertTrue(page.skipped().stream().allMatch(s -> s.remoteId().startsWith("empty") && s.reason().equals("entry has no field Idiom reads")), page.skipped().toString());
        assertEquals("empty8", page.skipped().getFirst().remoteId(), "skips are reported in file order too");
    }

    @Test
    void anEntryAfterABrokenOneIsReadWithTheMacrosDefinedBeforeItAndAnUndefinedMacroNamesItsLine() throws IOException {
        // one parser reads the whole file an entry at a time: a broken entry must leave it able to read on
        Path file = dir.resolve("after-broken.bib");
        Files.writeString(file, """
                @string{jacm = "Journal of the ACM"}

                @article{broken, title = {Unclosed, journal = jacm,

                @article{after, title = {Read after a broken entry}, journal = jacm, year = 2001}

                @article{late, title = {Uses a macro defined only later}, journal = later, year = 2002}
                @string{later = "Defined Too Late"}
                """);
        ChangePage page = new BibTeXFile(file).changedSince(null);
        Map<String, Metadata> byKey = page.records().stream().collect(Collectors.toMap(RemoteRecord::remoteId, RemoteRecord::metadata));
        assertEquals("Journal of the ACM", byKey.get("after").venue(), "a macro from before the broken entry still resolves after it");
        assertEquals("Read after a broken entry", byKey.get("after").title());
        assertTrue(page.skipped().stream().anyMatch(s -> s.reason().startsWith("line 3: malformed BibTeX")), "skipped: " + page.skipped());
        assertEquals("later", byKey.get("late").venue(), "an undefined macro is read as its name, as Zotero's BibTeX import reads it");
        assertTrue(page.skipped().stream().anyMatch(s -> "late".equals(s.remoteId()) && s.imported()
                && s.reason().startsWith("line 7: undefined @string macro 'later'")), "a notice on the entry, which is read: " + page.skipped());
        assertFalse(page.complete(), "the broken entry leaves the listing partial");
        Files.writeString(file, Files.readString(file).replace("@article{broken, title = {Unclosed, journal = jacm,\n", ""));
        ChangePage whole = new BibTeXFile(file).changedSince(null);
        assertTrue(whole.complete(), "an undefined macro alone leaves the listing whole (a deletion elsewhere is seen): " + whole.skipped());
    }

    @Test
    void writingBackAnEntryKeepsTheFieldsAndBlocksIdiomDoesNotModel() throws IOException {
        Path file = jabref();
        BibTeXFile bib = new BibTeXFile(file);
        RemoteRecord saito = bib.fetch("saito2005").orElseThrow();
        bib.update(saito, saito.metadata().with(Field.NOTES, "annotated in Idiom"));

        String written = Files.readString(file);
        assertTrue(written.contains(":saito2005.pdf:PDF"), "file field kept");
        assertTrue(written.contains("curator"), "owner field kept");
        assertTrue(written.toLowerCase().contains("number"), "number field kept");
        assertTrue(written.contains("jabref-meta"), "@comment kept");
        assertEquals("annotated in Idiom", bib.fetch("saito2005").orElseThrow().metadata().notes());
        assertEquals(saito.metadata().with(Field.NOTES, "annotated in Idiom"), bib.fetch("saito2005").orElseThrow().metadata());
    }

    private static final String HAND_LAID_OUT = """
            % My library, kept in git
            @String{podc = "Proc. PODC"}

            @Article{demers87,
              author    = {Demers, Alan and Greene, Dan},
              title     = {Epidemic algorithms},
              booktitle = podc,
              year      = {1987},
            }
            % read again before the exam

            @Book{saito05,
            title={Optimistic replication},year=2005,
            }

            @Comment{jabref-meta: databaseType:bibtex;}
            """;

    @Test
    void aWriteThatChangesNothingLeavesTheFileAsItWasAndAOneFieldChangeRewritesOnlyThatEntry() throws IOException {
        Path file = Files.writeString(dir.resolve("kept.bib"), HAND_LAID_OUT);
        BibTeXFile bib = new BibTeXFile(file);
        RemoteRecord saito = bib.fetch("saito05").orElseThrow();
        bib.update(saito, saito.metadata());
        assertEquals(HAND_LAID_OUT, Files.readString(file), "an idle sync writes nothing");

        RemoteRecord demers = bib.fetch("demers87").orElseThrow();
        bib.update(demers, demers.metadata().with(Field.VOLUME, "6"));
        String after = Files.readString(file);
        assertTrue(after.startsWith("% My library, kept in git\n@String{podc = \"Proc. PODC\"}\n\n"), after);
        assertTrue(after.contains("% read again before the exam\n\n@Book{saito05,\ntitle={Optimistic replication},year=2005,\n}\n\n"
                + "@Comment{jabref-meta: databaseType:bibtex;}\n"), "every other entry, comment and block byte for byte: " + after);
        assertEquals("6", bib.fetch("demers87").orElseThrow().metadata().volume());
        assertEquals("Epidemic algorithms", bib.fetch("demers87").orElseThrow().metadata().title());
    }

    private static List<String> changedLines(String before, String after) {
        List<String> a = before.lines().toList();
        List<String> b = after.lines().toList();
        List<String> out = new java.util.ArrayList<>();
        int i = 0;
        while (i < Math.min(a.size(), b.size()) && a.get(i).equals(b.get(i))) {
            i++;
        }
        int j = 0;
        while (j < Math.min(a.size(), b.size()) - i && a.get(a.size() - 1 - j).equals(b.get(b.size() - 1 - j))) {
            j++;
        }
        a.subList(i, a.size() - j).forEach(l -> out.add("- " + l));
        b.subList(i, b.size() - j).forEach(l -> out.add("+ " + l));
        return out;
    }

    @Test
    void aOneFieldChangeRewritesOnlyThatFieldsLineInTheEntrysOwnLayout() throws IOException {
        Path file = Files.writeString(dir.resolve("kept.bib"), HAND_LAID_OUT);
        BibTeXFile bib = new BibTeXFile(file);
        RemoteRecord demers = bib.fetch("demers87").orElseThrow();
        bib.update(demers, demers.metadata().with(Field.YEAR, 1988));
        String changed = Files.readString(file);
        assertEquals(List.of("-   year      = {1987},", "+   year      = {1988},"), changedLines(HAND_LAID_OUT, changed));

        RemoteRecord again = bib.fetch("demers87").orElseThrow();
        bib.update(again, again.metadata().with(Field.PAGES, "1--12"));
        String added = Files.readString(file);
        assertEquals(List.of("+   pages     = {1--12},"), changedLines(changed, added), "a new field joins after the last, aligned as the others");

        RemoteRecord third = bib.fetch("demers87").orElseThrow();
        bib.update(third, third.metadata().with(Field.AUTHORS, List.of()));
        assertEquals(List.of("-   author    = {Demers, Alan and Greene, Dan},"), changedLines(added, Files.readString(file)),
                "a cleared field's line goes, nothing else");
        assertEquals("Proc. PODC", bib.fetch("demers87").orElseThrow().metadata().venue(), "the @string reference is untouched");

        RemoteRecord saito = bib.fetch("saito05").orElseThrow();
        String before = Files.readString(file);
        bib.update(saito, saito.metadata().with(Field.TITLE, "Optimistic replication, revised"));
        assertEquals(List.of("- title={Optimistic replication},year=2005,", "+ title={Optimistic replication, revised},year=2005,"),
                changedLines(before, Files.readString(file)), "a one-line entry stays on one line");
    }

    @Test
    void jabRefsOwnTestFilesTakeAOneFieldChangeAsAOneLineDiff() throws IOException {
        for (String name : List.of("utf8-bom.bib", "bibWithMixedContent.bib")) {
            Path file = dir.resolve(name);
            try (var in = getClass().getResourceAsStream("/jabref/" + name)) {
                Files.write(file, in.readAllBytes());
            }
            BibTeXFile bib = new BibTeXFile(file);
            for (RemoteRecord r : bib.changedSince(null).records()) {
                String before = Files.readString(file);
                RemoteRecord fresh = bib.fetch(r.remoteId()).orElseThrow();
                bib.update(fresh, fresh.metadata().with(Field.TITLE, fresh.metadata().title() + " (2nd ed.)"));
                List<String> diff = changedLines(before, Files.readString(file));
                // the title line replaced; or, for a collection named by its booktitle alone, a title line added after the
                // last field, which (having no trailing comma) gains one
                boolean replaced = diff.size() == 2 && diff.get(1).contains("(2nd ed.)");
                boolean added = diff.size() == 3 && diff.get(1).equals(diff.get(0).replaceFirst("^- ", "+ ") + ",") && diff.get(2).contains("(2nd ed.)");
                assertTrue(replaced || added, name + " " + r.remoteId() + ": " + diff);
            }
        }
    }

    /** A file JabRef keeps in ISO 8859-1, saying so in its header, holding {@code entries}. */
    private Path latin1File(String entries) throws IOException {
        return Files.write(dir.resolve("latin1.bib"), ("% Encoding: ISO8859_1\n\n" + entries).getBytes(java.nio.charset.StandardCharsets.ISO_8859_1));
    }

    private static String latin1(Path file) throws IOException {
        return new String(Files.readAllBytes(file), java.nio.charset.StandardCharsets.ISO_8859_1);
    }

    @Test
    void aJabRefFileInItsDeclaredEncodingIsReadAndWrittenInIt() throws IOException {
        Path file = latin1File("@Article{cafe01,\n  title = {Caf\u00e9 society},\n  year = {2001},\n}\n");
        BibTeXFile bib = new BibTeXFile(file);
        RemoteRecord cafe = bib.fetch("cafe01").orElseThrow();
        assertEquals("Caf\u00e9 society", cafe.metadata().title());
        bib.update(cafe, cafe.metadata().with(Field.TITLE, "Caf\u00e9 soci\u00e9t\u00e9"));
        String back = latin1(file);
        assertTrue(back.startsWith("% Encoding: ISO8859_1\n"), back);
        assertTrue(back.contains("Caf\u00e9 soci\u00e9t\u00e9"), "written in Latin-1, one byte per accented letter: " + back);
        assertEquals("Caf\u00e9 soci\u00e9t\u00e9", bib.fetch("cafe01").orElseThrow().metadata().title());
    }

    @Test
    void aCharacterTheFilesCharsetCannotHoldIsWrittenAsLatexAndReadBack() throws IOException {
        Path file = latin1File("@Article{luk01,\n  title = {Logic},\n  year = {1920},\n}\n");
        BibTeXFile bib = new BibTeXFile(file);
        RemoteRecord luk = bib.fetch("luk01").orElseThrow();
        bib.update(luk, luk.metadata().with(Field.AUTHORS, List.of(new Author("Łukasiewicz", "Jan"), new Author("Dvořák", "Zdeněk"),
                new Author("Müller", "Jörg"))));
        String back = latin1(file);
        assertTrue(back.contains("{{\\L}ukasiewicz, Jan and Dvo{\\v{r}}\u00e1k, Zden{\\v{e}}k"), back);
        assertTrue(back.contains("M\u00fcller, J\u00f6rg"), "what Latin-1 holds stays a Latin-1 letter: " + back);
        assertEquals(List.of(new Author("Łukasiewicz", "Jan"), new Author("Dvořák", "Zdeněk"), new Author("Müller", "Jörg")),
                bib.fetch("luk01").orElseThrow().metadata().authors(), "read back as the same names");
    }

    @Test
    void aUrldateInAnotherFormThanIsoIsLeftInTheFileNotAReasonToSkipTheEntry() throws IOException {
        Path file = Files.writeString(dir.resolve("dates.bib"), "@Online{site,\n  title = {A site},\n  urldate = {5 Jan 2020},\n}\n"
                + "@Online{iso,\n  title = {Another},\n  urldate = {2020-01-05},\n}\n");
        ChangePage page = new BibTeXFile(file).changedSince(null);
        assertEquals(List.of(), page.skipped());
        Map<String, Metadata> byKey = page.records().stream().collect(Collectors.toMap(RemoteRecord::remoteId, RemoteRecord::metadata));
        assertEquals(null, byKey.get("site").accessed());
        assertEquals("2020-01-05", byKey.get("iso").accessed());
    }

    @Test
    void aByteOrderMarkHidesNoEntryAndIsKept() throws IOException {
        byte[] body = "@Article{first,\n  title = {First entry},\n}\n".getBytes(java.nio.charset.StandardCharsets.UTF_8);
        byte[] withBom = new byte[body.length + 3];
        withBom[0] = (byte) 0xEF;
        withBom[1] = (byte) 0xBB;
        withBom[2] = (byte) 0xBF;
        System.arraycopy(body, 0, withBom, 3, body.length);
        Path file = Files.write(dir.resolve("bom.bib"), withBom);
        BibTeXFile bib = new BibTeXFile(file);
        assertEquals(List.of("first"), bib.changedSince(null).records().stream().map(RemoteRecord::remoteId).toList());
        RemoteRecord first = bib.fetch("first").orElseThrow();
        bib.update(first, first.metadata().with(Field.YEAR, 2020));
        byte[] after = Files.readAllBytes(file);
        assertEquals(List.of((byte) 0xEF, (byte) 0xBB, (byte) 0xBF), List.of(after[0], after[1], after[2]), "the mark is kept");
    }

    /** A JabRef entry with MeSH headings (commas inside, ';' between), a PDF link and a timestamp, as JabRef's users' files have them. */
    private static final String MESH = "% JabRef 2.x\n\n@Article{rat1999,\n  Title                    = {Dietary restriction in aging rats},\n"
            + "  Author                   = {Nguyen, Anh and Ortiz, Bea},\n  Year                     = {1999},\n"
            + "  Keywords                 = {Aging, physiology; Animals; Rats, Inbred F344; Rats, Sprague-Dawley},\n"
            + "  File                     = {:pdfs/rat1999.pdf:PDF},\n  Timestamp                = {2011.03.14}\n}\n";

    @Test
    void semicolonSeparatedHeadingsAreTagsWholeAndATagAddedAppendsOnlyThatHeading() throws IOException {
        Path file = Files.writeString(dir.resolve("mesh.bib"), MESH);
        BibTeXFile bib = new BibTeXFile(file);
        RemoteRecord rat = bib.fetch("rat1999").orElseThrow();
        assertEquals(Set.of("Aging, physiology", "Animals", "Rats, Inbred F344", "Rats, Sprague-Dawley"), rat.metadata().tags());

        TreeSet<String> more = new TreeSet<>(rat.metadata().tags());
        more.add("Diet");
        bib.update(rat, rat.metadata().with(Field.TAGS, more));
        assertEquals(MESH.replace("Rats, Sprague-Dawley}", "Rats, Sprague-Dawley; Diet}"), Files.readString(file),
                "one heading appended with the field's own separator, every other byte as it was");

        RemoteRecord again = bib.fetch("rat1999").orElseThrow();
        TreeSet<String> fewer = new TreeSet<>(again.metadata().tags());
        fewer.remove("Animals");
        bib.update(again, again.metadata().with(Field.TAGS, fewer));
        assertEquals(MESH.replace("Animals; ", "").replace("Rats, Sprague-Dawley}", "Rats, Sprague-Dawley; Diet}"), Files.readString(file),
                "the heading taken out goes with its separator");
        assertEquals(fewer, bib.fetch("rat1999").orElseThrow().metadata().tags());
    }

    @Test
    void aNewTypeIsWrittenWhereTheOldStoodAndTheEntrysLayoutAndUnknownFieldsStay() throws IOException {
        String text = "@software {idiom,\n  title   = {Idiom},\n  author  = {Team, The},\n  note    = {A multi-line\n"
                + "             note kept as written},\n  swhid   = {swh:1:dir:0123},\n}\n\n@codefragment{snippet,\n  title = {A fragment},\n}\n";
        Path file = Files.writeString(dir.resolve("biblatex.bib"), text);
        BibTeXFile bib = new BibTeXFile(file);
        for (RemoteRecord r : bib.changedSince(null).records()) {
            bib.update(r, r.metadata()); // an idle sync
        }
        assertEquals(text, Files.readString(file), "an idle sync keeps BibLaTeX's types, the space before the brace and the layout");

        RemoteRecord idiom = bib.fetch("idiom").orElseThrow();
        bib.update(idiom, idiom.metadata().with(Field.TYPE, "book"));
        String after = Files.readString(file);
        assertEquals(text.replace("@software {idiom", "@" + dev.idiom.wrappers.BibTeXMapping.entryType("book") + " {idiom"), after,
                "only the type's word changed");
    }

    /** Bytes this thread allocated while {@code work} ran. */
    private static long allocatedBy(Runnable work) {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
        long before = threads.getCurrentThreadAllocatedBytes();
        work.run();
        return threads.getCurrentThreadAllocatedBytes() - before;
    }

    @Test
    void aChainOfMacrosThatWouldExpandToGigabytesSkipsTheEntryUsingItWithItsReasonQuicklyAndInLittleMemory() throws IOException {
        StringBuilder text = new StringBuilder("@string{s0 = {ab}}\n");
        for (int i = 1; i <= 40; i++) {
            text.append("@string{s").append(i).append(" = s").append(i - 1).append(" # s").append(i - 1).append("}\n");
        }
        text.append("@article{bomb,\n  title = s40,\n  author = {Mallory, M.},\n  year = {2026}\n}\n\n");
        text.append("@article{fine,\n  title = {An ordinary entry after it},\n  author = {Demers, Alan},\n  year = {1987}\n}\n");
        Path file = Files.writeString(dir.resolve("bomb.bib"), text.toString());
        BibTeXFile bib = new BibTeXFile(file);
        ChangePage[] page = new ChangePage[1];
        long started = System.nanoTime();
        long bytes = allocatedBy(() -> page[0] = bib.changedSince(null));
        long millis = (System.nanoTime() - started) / 1_000_000;
        assertTrue(millis < 1000, "listed in " + millis + " ms");
        assertTrue(bytes < 50L << 20, "allocated " + (bytes >> 20) + " MiB");
        assertEquals(List.of("fine"), page[0].records().stream().map(RemoteRecord::remoteId).toList());
        assertTrue(page[0].skipped().stream().anyMatch(k -> "bomb".equals(k.remoteId()) && k.reason().contains("expand")), page[0].skipped().toString());
        assertTrue(bib.fetch("fine").isPresent(), "the whole-file read for writes is bounded too");
    }

    @ParameterizedTest
    @ValueSource(strings = {"\n\n", " "}) // on lines of their own, or both on one line (one stretch: jbibtex links them)
    void aCrossrefCycleIsSkippedWithItsReasonNotAnError(String between) throws IOException {
        String text = "@inproceedings{a,\n  crossref = {b},\n  title = {Part A},\n  author = {Lamport, Leslie}\n}" + between
                + "@proceedings{b,\n  crossref = {a},\n  title = {Whole B}\n}\n\n"
                + "@article{fine,\n  title = {An ordinary entry},\n  author = {Demers, Alan},\n  year = {1987}\n}\n";
        Path file = Files.writeString(dir.resolve("cycle.bib"), text);
        BibTeXFile bib = new BibTeXFile(file);
        long started = System.nanoTime();
        ChangePage page = bib.changedSince(null);
        assertTrue((System.nanoTime() - started) / 1_000_000 < 1000);
        assertTrue(page.records().stream().anyMatch(r -> r.remoteId().equals("fine")), page.toString());
        assertTrue(bib.fetch("fine").isPresent());
        for (RemoteRecord r : bib.changedSince(null).records()) {
            bib.update(r, r.metadata()); // nothing to write, nothing thrown
        }
        assertEquals(text, Files.readString(file));
    }

    @Test
    void anEntryWithAValuePastTheRecordsBoundIsImportedWithoutItAndTheFileKeepsItWhole() throws IOException {
        // a Citavi export's quotation comment: longer than the record's 20,000 characters, well within what a .bib file holds
        String quotation = "Quoted at length. ".repeat(1_500).strip();
        String text = "@article{citavi,\n  title = {A long quotation},\n  author = {Demers, Alan},\n  year = {1987},\n  comment = {" + quotation + "}\n}\n";
        Path file = Files.writeString(dir.resolve("citavi.bib"), text);
        BibTeXFile bib = new BibTeXFile(file);
        ChangePage page = bib.changedSince(null);
        assertEquals(List.of("citavi"), page.records().stream().map(RemoteRecord::remoteId).toList(), "the record is imported: " + page.skipped());
        RemoteRecord read = page.records().getFirst();
        assertEquals("A long quotation", read.metadata().title());
        assertEquals(null, read.metadata().extras(Field.BIBTEX_EXTRAS).get("comment"), "the value past the bound is not in the record");
        assertEquals(1, page.skipped().size(), page.skipped().toString());
        assertTrue(page.skipped().getFirst().imported() && page.skipped().getFirst().reason().contains("comment")
                && page.skipped().getFirst().reason().contains("past the record's 20000"), page.skipped().toString());
        assertTrue(page.complete(), "a value kept aside leaves the listing whole (deletions are still seen)");
        bib.update(read, read.metadata().with(Field.VOLUME, "6"));
        String after = Files.readString(file);
        assertTrue(after.contains("comment = {" + quotation + "}") && after.contains("6"), "the file keeps the value whole beside the edit");
        assertEquals(null, bib.fetch("citavi").orElseThrow().metadata().extras(Field.BIBTEX_EXTRAS).get("comment"));
    }

    @Test
    void anEntryWhoseValueHoldsACharacterXmlCannotCarryIsImportedWithoutThatValueAndTheFileKeepsItsBytes() throws IOException {
        // a JabRef file's abstract with a stray U+0001 (pasted from a PDF): every other field is the work's
        String text = "@article{huang,\n  title = {Groups kept},\n  author = {Huang, Wei},\n  year = {2004},\n"
                + "  abstract = {Pasted from a PDF\u0001 with a stray control}\n}\n";
        Path file = Files.writeString(dir.resolve("control.bib"), text);
        BibTeXFile bib = new BibTeXFile(file);
        ChangePage page = bib.changedSince(null);
        assertEquals(List.of("huang"), page.records().stream().map(RemoteRecord::remoteId).toList(), "the record is imported: " + page.skipped());
        RemoteRecord read = page.records().getFirst();
        assertEquals("Groups kept", read.metadata().title());
        assertNull(read.metadata().abstractText(), "the value XML cannot carry is not in the record");
        assertTrue(page.skipped().size() == 1 && page.skipped().getFirst().imported()
                && page.skipped().getFirst().reason().contains("abstract: holds the character U+0001"), page.skipped().toString());
        assertTrue(page.complete());
        bib.update(read, read.metadata().with(Field.VOLUME, "6"));
        String after = Files.readString(file);
        assertTrue(after.contains("abstract = {Pasted from a PDF\u0001 with a stray control}") && after.contains("6"), after);
    }

    @Test
    void anEntryLargerThanTheCapIsSkippedWithItsReasonAndTheOthersRead() throws IOException {
        String huge = "x".repeat(EntryParser.MAX_ENTRY_CHARS + 10);
        String text = "@article{huge,\n  title = {Huge},\n  abstract = {" + huge + "}\n}\n\n"
                + "@article{fine,\n  title = {An ordinary entry},\n  author = {Demers, Alan},\n  year = {1987}\n}\n";
        Path file = Files.writeString(dir.resolve("huge.bib"), text);
        ChangePage page = new BibTeXFile(file).changedSince(null);
        assertEquals(List.of("fine"), page.records().stream().map(RemoteRecord::remoteId).toList());
        assertTrue(page.skipped().stream().anyMatch(k -> k.reason().contains("longer than " + EntryParser.MAX_ENTRY_CHARS)), page.skipped().toString());
        BibTeXFile bib = new BibTeXFile(file);
        RemoteRecord fine = bib.fetch("fine").orElseThrow();
        bib.update(fine, fine.metadata().with(Field.VOLUME, "6"));
        assertTrue(Files.readString(file).startsWith("@article{huge,\n  title = {Huge},\n  abstract = {" + huge + "}\n}\n"), "the long entry is kept as it was");
    }

    @ParameterizedTest
    @ValueSource(strings = {"first", "middle", "last"})
    void anEntryDeletedAndRestoredIsBackByteForByteAtItsPlace(String which) throws IOException {
        String text = "% This file was created with JabRef 2.10.\r\n% Encoding: UTF-8\r\n\r\n"
                + "@Article{first,\r\n  Title = {First},\r\n  File = {:pdfs/first.pdf:PDF},\r\n  Timestamp = {2011.03.14}\r\n}\r\n\r\n"
                + "% a comment about the middle entry\r\n"
                + "@Book{middle,\r\n  Title     = {Middle},\r\n  Publisher = {Springer}\r\n}\r\n\r\n\r\n"
                + "@Misc{last,\r\n  Title = {Last},\r\n  Note = {multi-line\r\n          note}\r\n}\r\n\r\n@Comment{jabref-meta: databaseType:bibtex;}\r\n";
        Path file = Files.writeString(dir.resolve("restore.bib"), text);
        BibTeXFile bib = new BibTeXFile(file);
        RemoteRecord gone = bib.fetch(which).orElseThrow();
        String kept = bib.deleteKeeping(which, gone.version());
        assertTrue(bib.fetch(which).isEmpty() && !Files.readString(file).contains("{" + which + ","), Files.readString(file));
        RemoteRecord back = bib.restore(which, kept).orElseThrow();
        assertEquals(text, Files.readString(file), "the file is back byte for byte");
        assertEquals(gone.metadata(), back.metadata());
        assertEquals(gone.version(), back.version());
    }

    @Test
    void anEntryRestoredWhoseNeighbourWentMeanwhileGoesAtTheEnd() throws IOException {
        String text = "@article{a,\n  title = {A}\n}\n\n@article{b,\n  title = {B}\n}\n\n@article{c,\n  title = {C}\n}\n";
        Path file = Files.writeString(dir.resolve("moved.bib"), text);
        BibTeXFile bib = new BibTeXFile(file);
        String kept = bib.deleteKeeping("b", bib.fetch("b").orElseThrow().version());
        bib.delete("a", null);
        assertEquals("B", bib.restore("b", kept).orElseThrow().metadata().title());
        assertTrue(Files.readString(file).endsWith("@article{b,\n  title = {B}\n}\n\n"), Files.readString(file));
        assertEquals(List.of("c", "b"), bib.changedSince(null).records().stream().map(RemoteRecord::remoteId).toList());
    }

    @Test
    void aTagWithACommaTravelsInBracesAndComesBackWhole() throws IOException {
        Path file = Files.writeString(dir.resolve("tags.bib"), "");
        BibTeXFile bib = new BibTeXFile(file);
        Set<String> tags = Set.of("Neoplasms, Experimental", "semi;colon", "C++", "plain");
        RemoteRecord r = bib.create(Metadata.EMPTY.with(Field.TYPE, "article").with(Field.TITLE, "Tagged").with(Field.TAGS, new TreeSet<>(tags)));
        assertTrue(Files.readString(file).contains("{Neoplasms, Experimental}"), Files.readString(file));
        assertEquals(tags, bib.fetch(r.remoteId()).orElseThrow().metadata().tags());
    }

    @Test
    void keylessEntriesAreRecordsNotDuplicates() throws IOException {
        Path file = Files.writeString(dir.resolve("citavi.bib"), """
                @article{,
                  title = {First without a key},
                  year = {2001}
                }

                @book{,
                  title = {Second without a key},
                  year = {2002}
                }
                """);
        BibTeXFile bib = new BibTeXFile(file);
        ChangePage page = bib.changedSince(null);
        assertEquals(List.of(), page.skipped());
        assertEquals(Set.of("First without a key", "Second without a key"), page.records().stream().map(r -> r.metadata().title()).collect(Collectors.toSet()));
        assertEquals(page.records().stream().map(RemoteRecord::remoteId).toList(),
                bib.changedSince(null).records().stream().map(RemoteRecord::remoteId).toList(), "the same ids on every read");

        RemoteRecord first = page.records().stream().filter(r -> r.metadata().year() == 2001).findFirst().orElseThrow();
        RemoteRecord written = bib.update(first, first.metadata().with(Field.VOLUME, "3"));
        assertTrue(!written.remoteId().equals(first.remoteId()) && bib.fetch(written.remoteId()).isPresent(),
                "written, it gets a key of its own (the engine re-keys the copy): " + written.remoteId());
        assertTrue(Files.readString(file).contains("@book{,\n  title = {Second without a key},"), "the other stays as it was");
    }

    @Test
    void quotesAndDashesAreReadAsTypedAndAPreambleOrAnUnbracedCommentIsNoSkippedRecord() throws IOException {
        Path file = Files.writeString(dir.resolve("typed.bib"), """
                @preamble{ "\\newcommand{\\noop}[1]{}" }
                @comment jabref-meta: this line is a comment, not a record
                @article{braced,
                  title = {The {ACM}'s ``best'' paper -- revisited},
                  author = {{Services de traduction de l'Universit\\'{e} McGill}},
                  pages = {42--81},
                  year = 2017
                }
                @misc{plain,
                  title = {Plain 'quoted' text -- as typed},
                  year = 1993
                }
                """);
        ChangePage page = new BibTeXFile(file).changedSince(null);
        assertEquals(List.of(), page.skipped(), "a preamble and a comment are not records, so none is skipped");
        assertEquals(2, page.records().size());
        Metadata braced = page.records().getFirst().metadata();
        assertEquals("The ACM's ``best'' paper -- revisited", braced.title(), "quotes and dashes as typed, braces resolved");
        assertEquals("Services de traduction de l'Université McGill", braced.authors().getFirst().family(), "a braced name is one literal name");
        assertEquals("Plain 'quoted' text -- as typed", page.records().get(1).metadata().title());
    }

    @Test
    void anInstitutionalNameIsWrittenInBracesAndReadBackAsOneLiteralNameAndAnAndInsideBracesSplitsNothing() throws IOException {
        Path file = Files.writeString(dir.resolve("literal.bib"), "");
        BibTeXFile bib = new BibTeXFile(file);
        List<Author> names = List.of(new Author("JTC 1/SC 22/WG 14", ""), new Author("Barnes and Noble", ""), new Author("Knuth", "Donald E."),
                new Author("Plato", ""));
        RemoteRecord r = bib.create(Metadata.EMPTY.with(Field.TYPE, "report").with(Field.TITLE, "Programming languages — C").with(Field.AUTHORS, names));
        String text = Files.readString(file);
        assertTrue(text.contains("{JTC 1/SC 22/WG 14} and {Barnes and Noble} and Knuth, Donald E. and Plato"), text);
        assertEquals(names, bib.fetch(r.remoteId()).orElseThrow().metadata().authors(), "each name comes back as it went");
    }

    @Test
    void aSuffixIsWrittenInBibTeXsJuniorPlaceAndParticlesStayWhereZoteroHasThem() throws IOException {
        Path file = Files.writeString(dir.resolve("names.bib"), """
                @article{read, title = {Read}, author = {King, Jr., Martin Luther and de la Martinière, III, Gérard and {Barnes, Noble}, Inc}}
                @article{old, title = {Written before}, author = {Gooding, Cuba, Jr.}}
                """);
        BibTeXFile bib = new BibTeXFile(file);
        assertEquals(List.of(new Author("King", "Martin Luther, Jr."), new Author("de la Martinière", "Gérard, III"), new Author("Barnes, Noble", "Inc")),
                bib.fetch("read").orElseThrow().metadata().authors(), "the suffix after the given names, as Zotero keeps it; a braced family whole");
        assertEquals(List.of(new Author("Gooding", "Cuba, Jr.")), bib.fetch("old").orElseThrow().metadata().authors(),
                "an entry Idiom wrote before reads as it did: no name of a synced copy changes on an upgrade");

        // Zotero's creators as Better BibTeX's test items have them: a suffix after a comma, a dropping particle after the given names
        List<Author> names = List.of(new Author("Gooding", "Cuba, Jr."), new Author("La Fontaine", "Jean de"), new Author("van der Meer", "Gerard"));
        file = Files.writeString(dir.resolve("biblatex.bib"), "");
        bib = new BibTeXFile(file);
        RemoteRecord r = bib.create(Metadata.EMPTY.with(Field.TYPE, "article-journal").with(Field.TITLE, "Names").with(Field.AUTHORS, names));
        String text = Files.readString(file);
        assertTrue(text.contains("author = {Gooding, Jr., Cuba and La Fontaine, Jean de and van der Meer, Gerard}"), text);
        assertTrue(text.contains("options = {useprefix=true}"), "BibLaTeX sorts van der Meer under v, as Zotero does: " + text);
        Metadata back = bib.fetch(r.remoteId()).orElseThrow().metadata();
        assertEquals(names, back.authors(), "each name comes back as it went");
        assertNull(back.get(Field.BIBTEX_EXTRAS), "the option the names make is no field of the entry's own");
    }

    @Test
    void aWebPagesSiteIsItsOrganizationAndAPubMedIdItsEprintAsBetterBibTeXWritesThemWhileAnEntryThatSaysThemOtherwiseKeepsItsWay()
            throws IOException {
        Path file = Files.writeString(dir.resolve("online.bib"), """
                @online{old, title = {Old}, howpublished = {Old site}, pmid = {111}, date = {2020}}
                """);
        BibTeXFile bib = new BibTeXFile(file);
        Metadata page = Metadata.EMPTY.with(Field.TYPE, "webpage").with(Field.TITLE, "The decline of Wikipedia")
                .with(Field.VENUE, "MIT Technology Review").with(Field.PMID, "4027280");
        RemoteRecord made = bib.create(page);
        String text = Files.readString(file);
        assertTrue(text.contains("organization = {MIT Technology Review}") && text.contains("eprint = {4027280}")
                && text.contains("eprinttype = {pubmed}") && !text.contains("pmid = {4027280}"), text);
        assertEquals(page.with(Field.CITATION_KEY, made.remoteId()), bib.fetch(made.remoteId()).orElseThrow().metadata().with(Field.CITATION_KEY, made.remoteId()));

        RemoteRecord old = bib.fetch("old").orElseThrow();
        assertEquals("Old site", old.metadata().venue());
        bib.update(old, old.metadata().with(Field.VENUE, "New site").with(Field.PMID, "222"));
        text = Files.readString(file);
        assertTrue(text.contains("howpublished = {New site}") && text.contains("pmid = {222}"), "the fields it had, changed in place: " + text);
        assertEquals(1, text.split("organization", -1).length - 1, text);
    }

    @Test
    void anArxivIdsClassesAreItsEprintclassSoThatTheEprintLinksAndACopyWrittenWithThemInItsEprintKeepsThem() throws IOException {
        Metadata preprint = Metadata.EMPTY.with(Field.TYPE, "preprint").with(Field.TITLE, "TorchAudio").with(Field.YEAR, 2021)
                .with(Field.ARXIV, "2110.15018 [cs, eess]");
        Path biblatex = Files.writeString(dir.resolve("modern.bib"), "@online{site, title = {Site}, url = {https://example.org}, date = {2020}}\n");
        BibTeXFile modern = new BibTeXFile(biblatex);
        modern.changedSince(null);
        Metadata owed = modern.writable(preprint, null);
        RemoteRecord made = modern.create(owed);
        String text = Files.readString(biblatex);
        assertTrue(text.contains("eprint = {2110.15018}") && text.contains("eprinttype = {arxiv}") && text.contains("eprintclass = {cs, eess}"),
                "BibLaTeX links eprint to arxiv.org/abs/: the id alone there: " + text);
        Metadata back = modern.fetch(made.remoteId()).orElseThrow().metadata();
        assertEquals("2110.15018", back.arxiv());
        assertEquals(back.arxiv(), modern.writable(preprint, back).arxiv(), "what the copy holds is what it is owed");
        assertEquals(back.bibtexExtras(), modern.writable(preprint, back).bibtexExtras());

        Path classic = Files.writeString(dir.resolve("classic-arxiv.bib"), "@article{k, title = {Old}, journal = {J}, year = 1999}\n");
        BibTeXFile bibtex = new BibTeXFile(classic);
        bibtex.changedSince(null);
        bibtex.create(bibtex.writable(preprint, null));
        text = Files.readString(classic);
        assertTrue(text.contains("eprint = {2110.15018}") && text.contains("archiveprefix = {arXiv}") && text.contains("primaryclass = {cs, eess}"),
                "BibTeX's styles and arXiv's own export say archivePrefix and primaryClass: " + text);

        Files.writeString(classic, "@misc{before, title = {TorchAudio}, year = 2021, eprint = {2110.15018 [cs, eess]}, eprinttype = {arxiv}}\n", StandardOpenOption.APPEND);
        RemoteRecord before = bibtex.fetch("before").orElseThrow();
        assertEquals("2110.15018 [cs, eess]", before.metadata().arxiv());
        assertEquals(before.metadata().arxiv(), bibtex.writable(preprint, before.metadata()).arxiv(),
                "a copy written whole before is not owed the split while the id is the same: an upgrade rewrites no entry");
    }

    @Test
    void creatorsOfRolesTheRecordKeepsNoListForAreBibLaTeXsNameListsAsBetterBibTeXWritesThem() throws IOException {
        Metadata book = Metadata.EMPTY.with(Field.TYPE, "book").with(Field.TITLE, "Lifetime Data").with(Field.YEAR, 2003)
                .with(Field.EDITORS, List.of(new dev.idiom.events.Author("Klein", "John P.")))
                .with(Field.ZOTERO_EXTRAS, Field.extras(Map.of("creators", "[{\"creatorType\":\"seriesEditor\",\"firstName\":\"Wing\",\"lastName\":\"Wong\"},"
                        + "{\"creatorType\":\"contributor\",\"name\":\"R Core Team\"},{\"creatorType\":\"castMember\",\"firstName\":\"Ada\",\"lastName\":\"Byron\"},"
                        + "{\"creatorType\":\"commenter\",\"firstName\":\"Kurt\",\"lastName\":\"Gödel\"}]")));
        Path file = Files.writeString(dir.resolve("roles.bib"), "@online{site, title = {Site}, url = {https://example.org}, date = {2020}}\n");
        BibTeXFile bib = new BibTeXFile(file);
        bib.changedSince(null);
        RemoteRecord made = bib.create(bib.writable(book, null));
        String text = Files.readString(file);
        assertTrue(text.contains("editora = {Wong, Wing}") && text.contains("editoratype = {redactor}"), "the editor list is the record's own: " + text);
        assertTrue(text.contains("namea = {{R Core Team} and Byron, Ada}") && text.contains("nameatype = {collaborator}"), text);
        assertTrue(text.contains("commentator = {G\\\"{o}del, Kurt}") || text.contains("commentator = {Gödel, Kurt}"), text);
        Metadata back = bib.fetch(made.remoteId()).orElseThrow().metadata();
        assertEquals(back.bibtexExtras(), bib.writable(book, back).bibtexExtras(), "what the copy holds is what it is owed");
        assertFalse(BibTeXFile.entry(book, true).contains("editora"), "BibTeX's styles have no such lists");
    }

    @Test
    void aPatentsAssigneeFieldIsItsHolderAsOneLiteralName() throws IOException {
        Metadata patent = Metadata.EMPTY.with(Field.TYPE, "patent").with(Field.TITLE, "A Patent Application").with(Field.YEAR, 2019)
                .with(Field.AUTHORS, List.of(new Author("Werner", "Nils"))).with(Field.ZOTERO_EXTRAS, Field.extras(Map.of("assignee", "My Employer")));
        Path file = Files.writeString(dir.resolve("patents.bib"), "@online{site, title = {Site}, url = {https://example.org}, date = {2020}}\n");
        BibTeXFile bib = new BibTeXFile(file);
        bib.changedSince(null);
        RemoteRecord made = bib.create(bib.writable(patent, null));
        assertTrue(Files.readString(file).contains("holder = {{My Employer}}"), Files.readString(file));
        Metadata back = bib.fetch(made.remoteId()).orElseThrow().metadata();
        assertEquals(back.bibtexExtras(), bib.writable(patent, back).bibtexExtras(), "what the copy holds is what it is owed");
        assertNull(bib.writable(patent, back.with(Field.BIBTEX_EXTRAS, null)).bibtexExtras(), "a copy made before is not owed it");
    }

    @Test
    void aCopyKeepsWhatItWasWrittenWithWhenAnotherEntryChangesWhichDialectItsFileReadsAs() throws IOException {
        Metadata book = Metadata.EMPTY.with(Field.TYPE, "book").with(Field.TITLE, "Catalogued").with(Field.YEAR, 1994)
                .with(Field.CALL_NUMBER, "QA3 .C39 1994").with(Field.URL, "https://www.ncbi.nlm.nih.gov/pubmed/15599377");
        Path file = Files.writeString(dir.resolve("flips.bib"), "@article{k, title = {Old}, journal = {J}, year = 1999}\n");
        BibTeXFile bib = new BibTeXFile(file);
        bib.changedSince(null);
        RemoteRecord made = bib.create(bib.writable(book, null));
        assertTrue(Files.readString(file).contains("lccn = {QA3 .C39 1994}"), "BibTeX's dialect: the call number as lccn");
        Files.writeString(file, "@book{other, title = {Other}, year = 2000, options = {usetranslator=false}}\n", StandardOpenOption.APPEND);
        bib.changedSince(null); // the file now reads as BibLaTeX's
        Metadata back = bib.fetch(made.remoteId()).orElseThrow().metadata();
        assertEquals(back.bibtexExtras(), bib.writable(book, back).bibtexExtras(), "not owed a rewrite for what another entry did");
        assertEquals(back.pmid(), bib.writable(book, back).pmid());
    }

    @Test
    void whatACopyIsOwedIsWhatItsEntryReadsBackAsSoThatNoCheckFindsAWriteOwedThatWouldChangeNothing() throws IOException {
        Metadata thesis = Metadata.EMPTY.with(Field.TYPE, "thesis").with(Field.TITLE, "A  title\n with   runs ").with(Field.YEAR, 1993)
                .with(Field.ABSTRACT, "Para one.\n\nPara   two.\tTab").with(Field.ISBN, "978-1\r\n234")
                .with(Field.ZOTERO_EXTRAS, Field.extras(Map.of("date", "Summer 1993")));
        Path file = Files.writeString(dir.resolve("owed.bib"), "@online{site, title = {Site}, url = {https://example.org}, date = {2020}}\n");
        BibTeXFile bib = new BibTeXFile(file);
        bib.changedSince(null);
        RemoteRecord made = bib.create(bib.writable(thesis, null));
        Metadata back = bib.fetch(made.remoteId()).orElseThrow().metadata();
        Metadata owed = bib.writable(thesis, back);
        for (Field f : bib.fieldsKept()) {
            assertEquals(back.get(f), owed.get(f), f + ": a run of white space reads as one space, a @phdthesis as a PhD thesis, a season as its date");
        }
        assertEquals("1993-22", back.extras(Field.BIBTEX_EXTRAS).get("date"));
    }

    @Test
    void aBlogPostIsAnOnlineEntryThatSaysItIsOneAndAnEntryWrittenAsAMiscBeforeStaysOne() throws IOException {
        Path file = Files.writeString(dir.resolve("blog.bib"), """
                @online{site, title = {Site}, url = {https://example.org}, date = {2020}}
                @misc{before, entrysubtype = {post-weblog}, title = {Older post}, howpublished = {Old blog}, date = {2019}}
                @misc{tool, entrysubtype = {software}, title = {A tool}, date = {2018}}
                """);
        BibTeXFile bib = new BibTeXFile(file);
        bib.changedSince(null);
        Metadata post = Metadata.EMPTY.with(Field.TYPE, "post-weblog").with(Field.TITLE, "End of Year Update").with(Field.VENUE, "lichess.org")
                .with(Field.YEAR, 2019);
        RemoteRecord made = bib.create(bib.writable(post, null));
        String text = Files.readString(file);
        assertTrue(text.contains("@online{") && text.contains("entrysubtype = {post-weblog}") && text.contains("organization = {lichess.org}"), text);
        Metadata back = bib.fetch(made.remoteId()).orElseThrow().metadata();
        assertEquals("post-weblog", back.type());
        assertEquals("lichess.org", back.venue());
        assertEquals(back.bibtexExtras(), bib.writable(post, back).bibtexExtras(), "not owed again");

        Metadata older = bib.fetch("before").orElseThrow().metadata();
        assertEquals("post-weblog", older.type());
        assertNull(older.bibtexExtras(), "a @misc of the type, as Idiom wrote one before, reads as it did");
        assertEquals(Map.of("@type", "misc"), bib.fetch("tool").orElseThrow().metadata().bibtexExtras(),
                "and so does a @misc of a type whose own entry type has not changed (@software): its entry type is its own");
        RemoteRecord olderCopy = bib.fetch("before").orElseThrow();
        bib.update(olderCopy, bib.writable(older.with(Field.TITLE, "Older post, edited"), older));
        assertTrue(Files.readString(file).contains("@misc{before,"), "and is not retyped: " + Files.readString(file));
        assertTrue(BibTeXFile.entry(post, true).startsWith("@misc{"), "BibTeX's dialect has no @online");
    }

    @Test
    void anAddressThatNamesAnArchivesIdGivesABibLaTeXEntryItsEprintWhichFollowsTheAddressAndIsNoValueOfTheRecords() throws IOException {
        Path file = Files.writeString(dir.resolve("eprints.bib"), "@online{site, title = {Site}, url = {https://example.org}, date = {2020}}\n");
        BibTeXFile bib = new BibTeXFile(file);
        bib.changedSince(null);
        Metadata article = Metadata.EMPTY.with(Field.TYPE, "article-journal").with(Field.TITLE, "On JSTOR").with(Field.YEAR, 1999)
                .with(Field.URL, "https://www.jstor.org/stable/2938351");
        Metadata thesis = Metadata.EMPTY.with(Field.TYPE, "thesis").with(Field.GENRE, "PhD thesis").with(Field.TITLE, "Handled").with(Field.YEAR, 2023)
                .with(Field.URL, "https://hdl.handle.net/2123/31137");
        Metadata indexed = Metadata.EMPTY.with(Field.TYPE, "article-journal").with(Field.TITLE, "In PubMed").with(Field.YEAR, 2005)
                .with(Field.URL, "https://www.ncbi.nlm.nih.gov/pubmed/15599377");
        RemoteRecord a = bib.create(bib.writable(article, null));
        RemoteRecord t = bib.create(bib.writable(thesis, null));
        RemoteRecord p = bib.create(bib.writable(indexed, null));
        String text = Files.readString(file);
        assertTrue(text.contains("eprinttype = {jstor}") && text.contains("eprint = {2938351}") && text.contains("eprinttype = {hdl}")
                && text.contains("eprint = {2123/31137}") && text.contains("eprinttype = {pubmed}") && text.contains("eprint = {15599377}"), text);
        for (RemoteRecord made : List.of(a, t, p)) {
            Metadata back = bib.fetch(made.remoteId()).orElseThrow().metadata();
            Metadata of = made == a ? article : made == t ? thesis : indexed;
            assertEquals(bib.writable(of, back).with(Field.CITATION_KEY, null), back.with(Field.CITATION_KEY, null), "not owed again: " + back);
        }
        assertNull(bib.fetch(a.remoteId()).orElseThrow().metadata().bibtexExtras(), "the address says it: no value of the record's");

        RemoteRecord known = bib.fetch(a.remoteId()).orElseThrow();
        bib.update(known, bib.writable(article.with(Field.URL, "https://www.jstor.org/stable/41164635"), known.metadata()));
        assertTrue(Files.readString(file).contains("eprint = {41164635}") && !Files.readString(file).contains("2938351"), "it follows the address");
        known = bib.fetch(a.remoteId()).orElseThrow();
        bib.update(known, bib.writable(article.with(Field.URL, "https://example.org/elsewhere"), known.metadata()));
        assertTrue(!Files.readString(file).contains("41164635") && !Files.readString(file).contains("{jstor}"), Files.readString(file));

        Files.writeString(file, "@article{own, title = {Own}, date = {2001}, url = {https://www.jstor.org/stable/1}, eprint = {X-9}, eprinttype = {jstor}}\n",
                StandardOpenOption.APPEND);
        RemoteRecord own = bib.fetch("own").orElseThrow();
        bib.update(own, own.metadata().with(Field.URL, "https://www.jstor.org/stable/2"));
        assertTrue(Files.readString(file).contains("eprint = {X-9}"), "an eprint the entry gives otherwise stays");
        Metadata before = bib.fetch("own").orElseThrow().metadata();
        assertNull(bib.writable(indexed, before.with(Field.PMID, null)).pmid(), "a copy made before is not owed a PubMed id it lacks");
    }

    @Test
    void aFileInBibTeXsDialectGetsTheEprintAnAddressNamesAsBetterBibTeXWritesIt() throws IOException {
        Path file = Files.writeString(dir.resolve("bibtex-eprints.bib"), "@article{k, title = {Old}, journal = {J}, year = 1999}\n");
        BibTeXFile bib = new BibTeXFile(file);
        bib.changedSince(null);
        Metadata article = Metadata.EMPTY.with(Field.TYPE, "article-journal").with(Field.TITLE, "On JSTOR").with(Field.YEAR, 1999)
                .with(Field.URL, "https://www.jstor.org/stable/41164635");
        Metadata indexed = Metadata.EMPTY.with(Field.TYPE, "article-journal").with(Field.TITLE, "In PubMed").with(Field.YEAR, 2005)
                .with(Field.URL, "http://www.ncbi.nlm.nih.gov/pubmed/15599377");
        RemoteRecord a = bib.create(bib.writable(article, null));
        RemoteRecord p = bib.create(bib.writable(indexed, null));
        String text = Files.readString(file);
        assertTrue(text.contains("eprint = {41164635}") && text.contains("eprinttype = {jstor}") && text.contains("eprint = {15599377}")
                && text.contains("eprinttype = {pubmed}") && !text.contains("pmid"), text);
        assertEquals("15599377", bib.fetch(p.remoteId()).orElseThrow().metadata().pmid());
        for (RemoteRecord made : List.of(a, p)) {
            Metadata back = bib.fetch(made.remoteId()).orElseThrow().metadata();
            assertEquals(bib.writable(made == a ? article : indexed, back).with(Field.CITATION_KEY, null), back.with(Field.CITATION_KEY, null),
                    "not owed again: " + back);
        }
    }

    @Test
    void aDateRangeASeasonCircaOrAYearBeforeTheCommonEraReachesAnotherBibLaTeXFileWholeAndABibTeXFileAsItsStart() throws IOException {
        Path from = Files.writeString(dir.resolve("dates.bib"), """
                @inproceedings{range, title = {Range}, booktitle = {Conf}, date = {2017-06-18/2017-06-23}}
                @article{season, title = {Season}, journaltitle = {Q}, date = {1988-23}}
                @book{circa, title = {Circa}, date = {1990~}}
                @book{bce, title = {BCE}, date = {-0333}}
                @book{plain, title = {Plain}, date = {2001-05-10}}
                """);
        BibTeXFile source = new BibTeXFile(from);
        Metadata range = source.fetch("range").orElseThrow().metadata();
        assertEquals(List.of(2017, 6, 18), java.util.Arrays.asList(range.year(), range.month(), range.day()), "the record's date is where the range starts");
        Metadata season = source.fetch("season").orElseThrow().metadata();
        assertEquals(1988, season.year());
        assertNull(season.month(), "a season is no month");
        assertNull(source.fetch("plain").orElseThrow().metadata().get(Field.BIBTEX_EXTRAS), "a plain date is all in the record");

        Path biblatex = Files.writeString(dir.resolve("copy.bib"), "");
        Path bibtex = Files.writeString(dir.resolve("classic.bib"), "@article{k, title = {Old}, journal = {J}, year = 1999}\n");
        BibTeXFile latexCopy = new BibTeXFile(biblatex);
        BibTeXFile classic = new BibTeXFile(bibtex);
        classic.changedSince(null); // the file's dialect is seen on a listing
        for (String key : List.of("range", "season", "circa", "bce")) {
            Metadata m = source.fetch(key).orElseThrow().metadata();
            RemoteRecord copy = latexCopy.create(m);
            assertEquals(m.extras(Field.BIBTEX_EXTRAS), latexCopy.fetch(copy.remoteId()).orElseThrow().metadata().extras(Field.BIBTEX_EXTRAS));
            classic.create(m);
        }
        String latex = Files.readString(biblatex);
        for (String date : List.of("{2017-06-18/2017-06-23}", "{1988-23}", "{1990~}", "{-0333}")) {
            assertTrue(latex.contains("date = " + date), latex);
        }
        String text = Files.readString(bibtex);
        assertTrue(text.contains("year = {2017}") && text.contains("month = jun") && !text.contains("date ="), "a BibTeX file keeps its dialect: " + text);
    }

    @Test
    void aZoteroDateTypedAsARunOfDaysASeasonOrCircaIsWrittenToABibLaTeXFileAsEdtfAndOnlyWhileItStillReadsAsTheRecordsDate() throws IOException {
        Path file = Files.writeString(dir.resolve("zotero-dates.bib"), "");
        BibTeXFile bib = new BibTeXFile(file);
        Map<String, List<Object>> typed = new java.util.LinkedHashMap<>(); // as typed in Zotero → the record's year, month, day → BibLaTeX's date
        typed.put("June 18–23, 2017", java.util.Arrays.asList(2017, 6, 18, "2017-06-18/2017-06-23"));
        typed.put("18-23 June 2017", java.util.Arrays.asList(2017, 6, 18, "2017-06-18/2017-06-23"));
        typed.put("June 28 – July 2, 2017", java.util.Arrays.asList(2017, 6, 28, "2017-06-28/2017-07-02"));
        typed.put("Summer 1993", java.util.Arrays.asList(1993, null, null, "1993-22"));
        typed.put("ca. 1990", java.util.Arrays.asList(1990, null, null, "1990~"));
        typed.put("1993–1995", java.util.Arrays.asList(1993, null, null, "1993/1995"));
        typed.put("Summer 1994", java.util.Arrays.asList(1993, null, null, null)); // the record's year changed since: its own date is written
        int n = 0;
        for (Map.Entry<String, List<Object>> t : typed.entrySet()) {
            List<Object> v = t.getValue();
            Metadata m = Metadata.EMPTY.with(Field.TYPE, "paper-conference").with(Field.TITLE, "Talk " + n++).with(Field.YEAR, v.get(0))
                    .with(Field.MONTH, v.get(1)).with(Field.DAY, v.get(2)).with(Field.ZOTERO_EXTRAS, Field.extras(Map.of("date", t.getKey())));
            bib.create(m);
            String text = Files.readString(file);
            String entry = text.substring(text.lastIndexOf('@'));
            assertTrue(v.get(3) == null ? entry.contains("year = {1993}") && !entry.contains("date =") : entry.contains("date = {" + v.get(3) + "}"),
                    t.getKey() + ": " + entry);
        }
    }

    @Test
    void aValueWhoseBracesDoNotBalanceIsWrittenSoThatBibTeXsBraceCountEndsItWhereItEndsAndReadsBackAsTyped() throws IOException {
        Path file = Files.writeString(dir.resolve("braces.bib"), "");
        BibTeXFile bib = new BibTeXFile(file);
        String title = "Sets } and { unbalanced }";
        RemoteRecord r = bib.create(Metadata.EMPTY.with(Field.TYPE, "article-journal").with(Field.TITLE, title).with(Field.VOLUME, "7"));
        String text = Files.readString(file);
        int depth = 0; // BibTeX's and Biber's count: every brace, a backslash before it or not
        for (char c : text.substring(text.indexOf("title = {") + "title = ".length(), text.indexOf("volume")).toCharArray()) {
            depth += c == '{' ? 1 : c == '}' ? -1 : 0;
            assertTrue(depth >= 0, text);
        }
        assertEquals(0, depth, "the title's value closes before the volume: " + text);
        assertEquals(title, bib.fetch(r.remoteId()).orElseThrow().metadata().title());
    }

    @Test
    void aCopyWrittenWhenTheOrganizationAndTheUseprefixWereExtrasKeepsThemNowThatTheNamesAndTheContainerSayThem() throws IOException {
        String text = """
                @online{page, title = {Page}, author = {van Doe, Jane}, organization = {The Site}, options = {useprefix=true}, date = {2020}}
                """;
        Path file = Files.writeString(dir.resolve("upgraded.bib"), text);
        BibTeXFile bib = new BibTeXFile(file);
        RemoteRecord now = bib.fetch("page").orElseThrow();
        assertEquals("The Site", now.metadata().venue());
        // as an earlier Idiom read the entry: no container, both fields among its extras; the DE now says what this one reads
        Metadata before = now.metadata().with(Field.VENUE, null)
                .with(Field.BIBTEX_EXTRAS, Field.extras(Map.of("organization", "The Site", "options", "useprefix=true")));
        bib.update(new RemoteRecord(now.remoteId(), now.version(), before, now.identityHint(), now.shadow()), now.metadata());
        assertEquals(text, Files.readString(file), "nothing the entry says was removed, moved or rewritten");
    }

    @Test
    void aThesisIsWrittenAsMastersOrPhdByItsThesisTypeAndTheEntryTypeGivesTheThesisTypeBack() throws IOException {
        Path file = Files.writeString(dir.resolve("theses.bib"), """
                @mastersthesis{m, title = {A master's thesis}, school = {McGill University}, year = 2001}
                @phdthesis{p, title = {A doctoral one}, school = {ETH}, year = 1999}
                """);
        BibTeXFile bib = new BibTeXFile(file);
        assertEquals("Master's thesis", bib.fetch("m").orElseThrow().metadata().get(Field.GENRE), "what Zotero's thesis type needs");
        assertEquals("PhD thesis", bib.fetch("p").orElseThrow().metadata().get(Field.GENRE));

        Metadata thesis = Metadata.EMPTY.with(Field.TYPE, "thesis").with(Field.TITLE, "Replication").with(Field.PUBLISHER, "Université de Montréal");
        RemoteRecord masters = bib.create(thesis.with(Field.GENRE, "Master's thesis"));
        RemoteRecord doctoral = bib.create(thesis.with(Field.TITLE, "Consensus").with(Field.GENRE, "PhD thesis"));
        RemoteRecord dissertation = bib.create(thesis.with(Field.TITLE, "Gossip").with(Field.GENRE, "Doctoral dissertation"));
        String text = Files.readString(file);
        assertTrue(text.contains("@mastersthesis{" + masters.remoteId()), text);
        assertTrue(text.contains("@phdthesis{" + doctoral.remoteId()), text);
        assertTrue(text.contains("@phdthesis{" + dissertation.remoteId()), text);
        assertEquals(1, text.split("type = ", -1).length - 1, "only the thesis type its entry type does not say is written: " + text);
        assertEquals("Doctoral dissertation", bib.fetch(dissertation.remoteId()).orElseThrow().metadata().get(Field.GENRE));
        assertEquals("Master's thesis", bib.fetch(masters.remoteId()).orElseThrow().metadata().get(Field.GENRE));
    }

    @Test
    void aNewEntrysKeyIsAsciiWithAccentsTakenOffAndOtherScriptsTransliterated() throws IOException {
        Path file = Files.writeString(dir.resolve("keys.bib"), "");
        BibTeXFile bib = new BibTeXFile(file);
        Metadata m = Metadata.EMPTY.with(Field.TYPE, "book").with(Field.TITLE, "Elementy logiki matematycznej").with(Field.YEAR, 1929);
        assertEquals("lukasiewicz1929", bib.create(m.with(Field.AUTHORS, List.of(new Author("Łukasiewicz", "Jan")))).remoteId());
        assertEquals("dostoevskii1866", bib.create(m.with(Field.YEAR, 1866).with(Field.AUTHORS, List.of(new Author("Достоевский", "Фёдор")))).remoteId());
        assertEquals("elytes1959", bib.create(m.with(Field.YEAR, 1959).with(Field.AUTHORS, List.of(new Author("Ελύτης", "Οδυσσέας")))).remoteId());
        assertEquals("gross2001", bib.create(m.with(Field.YEAR, 2001).with(Field.AUTHORS, List.of(new Author("Groß", "Jörg")))).remoteId());
        assertEquals("idiom2020", bib.create(m.with(Field.YEAR, 2020).with(Field.TITLE, "日本語の本")).remoteId(), "nothing to spell: the fallback");
    }

    @Test
    void aNewEntrysKeyStaysShortWhateverTheTitleOrTheRecordsOwnKey() throws IOException {
        // a key is the copy's remote id: a title of one long word or a long key of the record's made one too long to owe a push to
        BibTeXFile bib = new BibTeXFile(Files.writeString(dir.resolve("long-keys.bib"), ""));
        Metadata m = Metadata.EMPTY.with(Field.TYPE, "book").with(Field.TITLE, "a".repeat(900) + " b").with(Field.YEAR, 2020);
        assertEquals("a".repeat(40) + "2020", bib.create(m).remoteId());
        assertEquals("a".repeat(40) + "2020a", bib.create(m.with(Field.CITATION_KEY, "k".repeat(201))).remoteId());
        assertEquals("k".repeat(200), bib.create(m.with(Field.CITATION_KEY, "k".repeat(200))).remoteId());
    }

    @Test
    void aVideosDirectorsAreItsEditorAsBibLaTeXAndBetterBibTeXWriteThem() throws IOException {
        // given Better BibTeX's film, television episode and video, and a @video without its editor's role
        Path file = Files.writeString(dir.resolve("video.bib"), """
                @video{film,
                  entrysubtype = {film},
                  title = {One Flew over the Cuckoo's Nest},
                  editor = {Forman, Miloš},
                  editortype = {director},
                  date = {1975}
                }
                @video{episode,
                  entrysubtype = {tvbroadcast},
                  title = {The One with the Princess Leia Fantasy},
                  editor = {Mancuso, Gail},
                  editortype = {director},
                  date = {1996-09-16}
                }
                @video{edited,
                  title = {A Compilation},
                  editor = {Doe, Jane}
                }
                """);
        BibTeXFile bib = new BibTeXFile(file);
        // then the director is the record's first creator, as Zotero and CSL have a film's
        Metadata film = bib.fetch("film").orElseThrow().metadata();
        assertEquals("motion_picture", film.type());
        assertEquals(List.of(new Author("Forman", "Miloš")), film.authors());
        assertTrue(film.editors().isEmpty() && film.extras(Field.BIBTEX_EXTRAS).isEmpty(), film.toString());
        Metadata episode = bib.fetch("episode").orElseThrow().metadata();
        assertEquals("broadcast", episode.type());
        assertEquals(List.of(new Author("Mancuso", "Gail")), episode.authors());
        Metadata edited = bib.fetch("edited").orElseThrow().metadata();
        assertEquals(List.of(new Author("Doe", "Jane")), edited.editors(), "an editor of no role named stays an editor");
        assertTrue(edited.authors().isEmpty());

        // when a film is written to a new entry, and a director added in Idiom to the one read
        RemoteRecord made = bib.create(Metadata.EMPTY.with(Field.TYPE, "motion_picture").with(Field.TITLE, "I, Daniel Blake").with(Field.YEAR, 2016)
                .with(Field.AUTHORS, List.of(new Author("Loach", "Ken"))));
        RemoteRecord read = bib.fetch("film").orElseThrow();
        bib.update(read, film.with(Field.AUTHORS, List.of(new Author("Forman", "Miloš"), new Author("Doe", "John"))));
        // then each is a @video whose editor holds its directors, and reads back as written
        String text = Files.readString(file);
        String madeEntry = text.substring(text.indexOf("@video{" + made.remoteId() + ","));
        madeEntry = madeEntry.substring(0, madeEntry.indexOf("\n}") + 2);
        assertTrue(madeEntry.contains("entrysubtype = {film}") && madeEntry.contains("editor = {Loach, Ken}") && madeEntry.contains("editortype = {director}"),
                madeEntry);
        assertTrue(text.contains("editor = {Forman, Miloš and Doe, John}") && !text.contains("author ="), text);
        assertEquals(List.of(new Author("Loach", "Ken")), bib.fetch(made.remoteId()).orElseThrow().metadata().authors());
        assertEquals("motion_picture", bib.fetch(made.remoteId()).orElseThrow().metadata().type());
    }

    @Test
    void aFilmIdiomWroteAsAMiscBeforeReadsAsItDidAndIsNotRetyped() throws IOException {
        // given a film's entry as Idiom wrote one before films were @video
        Path file = Files.writeString(dir.resolve("old-film.bib"), """
                @misc{loach2016,
                  entrysubtype = {motion\\_picture},
                  title = {I, Daniel Blake},
                  author = {Loach, Ken},
                  year = {2016}
                }
                """);
        BibTeXFile bib = new BibTeXFile(file);
        RemoteRecord r = bib.fetch("loach2016").orElseThrow();
        // then it reads as a film, with no entry type of its own to carry, and a change writes only the change
        assertEquals("motion_picture", r.metadata().type());
        assertTrue(r.metadata().extras(Field.BIBTEX_EXTRAS).isEmpty(), r.metadata().toString());
        assertEquals(r.metadata(), bib.writable(r.metadata(), r.metadata()));
        bib.update(r, r.metadata().with(Field.YEAR, 2017));
        String text = Files.readString(file);
        assertTrue(text.startsWith("@misc{loach2016,") && text.contains("author = {Loach, Ken}") && text.contains("2017"), text);
        // and its script writer, written among the collaborators as a @misc's were, is not owed a move to a @video's editora
        Metadata film = Metadata.EMPTY.with(Field.TYPE, "motion_picture").with(Field.TITLE, "I, Daniel Blake").with(Field.YEAR, 2016)
                .with(Field.AUTHORS, List.of(new Author("Loach", "Ken"))).with(Field.ZOTERO_EXTRAS, Field.extras(Map.of("creators",
                        "[{\"creatorType\":\"scriptwriter\",\"firstName\":\"Paul\",\"lastName\":\"Laverty\"}]")));
        Files.writeString(file, "@misc{laverty, entrysubtype = {motion\\_picture}, title = {I, Daniel Blake}, author = {Loach, Ken}, year = {2016},"
                + " namea = {Laverty, Paul}, nameatype = {collaborator}}\n", StandardOpenOption.APPEND);
        Metadata copy = bib.fetch("laverty").orElseThrow().metadata();
        assertEquals(copy.bibtexExtras(), bib.writable(film, copy).bibtexExtras());
        assertTrue(BibTeXFile.entry(film).contains("editora = {Laverty, Paul}"), "a new copy is a @video's: " + BibTeXFile.entry(film));
    }

    @Test
    void aVideoRecordingsDirectorsAreItsEditorButNotInCopiesMadeBefore() throws IOException {
        // Zotero's video recording has "creator" as its first role: its directors are creators of another role
        Metadata video = Metadata.EMPTY.with(Field.TYPE, "motion_picture").with(Field.TITLE, "One flew over the cuckoo's nest").with(Field.YEAR, 1975)
                .with(Field.ZOTERO_EXTRAS, Field.extras(Map.of("itemType", "videoRecording", "creators",
                        "[{\"creatorType\":\"director\",\"firstName\":\"Miloš\",\"lastName\":\"Forman\"},"
                                + "{\"creatorType\":\"contributor\",\"firstName\":\"Jack\",\"lastName\":\"Nicholson\"}]")));
        Path file = Files.writeString(dir.resolve("videos.bib"), "");
        BibTeXFile bib = new BibTeXFile(file);
        Metadata wanted = bib.writable(video, null);
        assertEquals(List.of(new Author("Forman", "Miloš")), wanted.authors(), "the copy holds, as synced, what it reads back: its directors first");
        RemoteRecord made = bib.create(wanted);
        String text = Files.readString(file);
        assertTrue(text.contains("editor = {Forman, Miloš}") && text.contains("editortype = {director}") && !text.contains("Forman, Miloš and"),
                "the director as a @video's editor, not also a collaborator: " + text);
        assertTrue(text.contains("namea = {Nicholson, Jack}") && text.contains("nameatype = {collaborator}"), "a contributor a collaborator: " + text);
        Metadata back = bib.fetch(made.remoteId()).orElseThrow().metadata();
        assertEquals(wanted.authors(), back.authors());
        assertEquals(back.bibtexExtras(), bib.writable(video, back).bibtexExtras(), "nothing owed");
        assertEquals(back.authors(), bib.writable(video, back).authors());

        Files.writeString(file, "@video{older, entrysubtype = {video}, title = {One flew over the cuckoo's nest}, date = {1975},"
                + " namea = {Forman, Miloš and Nicholson, Jack}, nameatype = {collaborator}}\n", StandardOpenOption.APPEND);
        Metadata older = bib.fetch("older").orElseThrow().metadata();
        assertEquals(List.of(), bib.writable(video, older).authors(), "a copy made before keeps its directors among its collaborators");
        assertEquals(older.bibtexExtras(), bib.writable(video, older).bibtexExtras());
    }

    @Test
    void bibLaTeXsLangidIsTheLanguageAndAChangeOfItIsWrittenWhereTheEntrySaysIt() throws IOException {
        Path file = Files.writeString(dir.resolve("langid.bib"), """
                @book{b,
                  title = {Logik der Forschung},
                  langid = {ngerman},
                  year = 1935
                }
                """);
        BibTeXFile bib = new BibTeXFile(file);
        RemoteRecord r = bib.fetch("b").orElseThrow();
        assertEquals("ngerman", r.metadata().language());
        bib.update(r, r.metadata().with(Field.LANGUAGE, "german"));
        String text = Files.readString(file);
        assertTrue(text.contains("langid = {german}") && !text.contains("language"), text);
    }

    @Test
    void anEntryInParenthesesIsReadAndAChangeKeepsItsParentheses() throws IOException {
        String entry = """
                @techreport(McDermott:72,
                  author = "McDermott, Drew V. and Sussman, Gerald Jay",
                  title = "The {Conniver} Reference Manual (revised)",
                  institution = "MIT AI Lab",
                  year = 1972
                )
                """;
        Path file = Files.writeString(dir.resolve("parens.bib"), entry);
        BibTeXFile bib = new BibTeXFile(file);
        ChangePage page = bib.changedSince(null);
        assertEquals(List.of(), page.skipped(), "BibTeX allows an entry in parentheses");
        RemoteRecord r = page.records().getFirst();
        assertEquals("The Conniver Reference Manual (revised)", r.metadata().title());
        assertEquals(List.of(new Author("McDermott", "Drew V."), new Author("Sussman", "Gerald Jay")), r.metadata().authors());
        bib.update(r, r.metadata().with(Field.PUBLISHER, "MIT Artificial Intelligence Laboratory"));
        assertEquals(entry.replace("\"MIT AI Lab\"", "\"MIT Artificial Intelligence Laboratory\""), Files.readString(file),
                "one value changed in its own quotes, the parentheses kept");
    }

    @Test
    void latexSpecialCharactersAreEscapedOnWriteAndReadBackAsTheyWere() throws IOException {
        Path file = Files.writeString(dir.resolve("special.bib"), "");
        BibTeXFile bib = new BibTeXFile(file);
        Metadata m = Metadata.EMPTY.with(Field.TYPE, "article").with(Field.TITLE, "R&D at 50% of $5: issue #1 of my_var")
                .with(Field.URL, "https://example.org/a_b?x=1&y=2%20").with(Field.TAGS, new TreeSet<>(Set.of("to_read")));
        RemoteRecord r = bib.create(m);
        String text = Files.readString(file);
        assertTrue(text.contains("R\\&D at 50\\% of \\$5: issue \\#1 of my\\_var"), text);
        assertTrue(text.contains("https://example.org/a_b?x=1&y=2%20"), "a URL is verbatim: " + text);
        Metadata back = bib.fetch(r.remoteId()).orElseThrow().metadata();
        assertEquals(m.title(), back.title());
        assertEquals(m.url(), back.url());
        assertEquals(m.tags(), back.tags());
    }

    @Test
    void crossrefFieldsAreInheritedOnReadAndBibLaTeXEntryTypesWithASpaceAreRead() throws IOException {
        Path file = Files.writeString(dir.resolve("crossref.bib"), """
                @inproceedings{demers87,
                  author = {Demers, Alan},
                  title = {Epidemic algorithms},
                  crossref = {podc87},
                  pages = {1--12}
                }

                @software {idiom,
                  title = {Idiom},
                  author = {Team, The},
                  year = {2026}
                }

                @proceedings{podc87,
                  title = {Proceedings of the Sixth Annual ACM Symposium on Principles of Distributed Computing},
                  booktitle = {PODC '87},
                  year = {1987},
                  publisher = {ACM}
                }

                @inbook{chapter1,
                  crossref = {book1},
                  chapter = {3},
                  pages = {10--20}
                }

                @book{book1,
                  title = {Replication},
                  author = {Charron-Bost, Bernadette},
                  year = {2010},
                  publisher = {Springer}
                }
                """);
        ChangePage page = new BibTeXFile(file).changedSince(null);
        Map<String, Metadata> byKey = page.records().stream().collect(Collectors.toMap(RemoteRecord::remoteId, RemoteRecord::metadata));
        assertEquals(List.of(), page.skipped());
        assertEquals(Set.of("demers87", "idiom", "podc87", "chapter1", "book1"), byKey.keySet());
        assertEquals(1987, byKey.get("demers87").year(), "the year comes from the proceedings");
        assertEquals("PODC '87", byKey.get("demers87").venue(), "the booktitle too");
        assertEquals("Replication", byKey.get("chapter1").title(), "a chapter without a title of its own takes the book's");
        assertEquals(List.of(new Author("Charron-Bost", "Bernadette")), byKey.get("chapter1").authors());
        assertEquals("Idiom", byKey.get("idiom").title());
    }

    /** JabRef's own test files (wrappers/src/test/resources/jabref, see NOTICE there), copied as they are. */
    private Path jabrefTestFile(String name) throws IOException {
        Path file = dir.resolve(name);
        try (InputStream in = getClass().getResourceAsStream("/jabref/" + name)) {
            Files.copy(in, file);
        }
        return file;
    }

    @Test
    void jabrefsOwnTestFilesAreReadAndAnIdleSyncLeavesThemByteIdentical() throws IOException {
        for (String name : List.of("utf8-bom.bib", "bibWithMixedContent.bib")) {
            Path file = jabrefTestFile(name);
            byte[] before = Files.readAllBytes(file);
            BibTeXFile bib = new BibTeXFile(file);
            ChangePage page = bib.changedSince(null);
            for (RemoteRecord r : page.records()) {
                bib.update(r, r.metadata());
            }
            assertTrue(java.util.Arrays.equals(before, Files.readAllBytes(file)), name + " is left byte for byte");
            if (name.equals("utf8-bom.bib")) {
                assertEquals(Set.of("Aal2005", "Hsu1993"), page.records().stream().map(RemoteRecord::remoteId).collect(Collectors.toSet()),
                        "the BOM hides no entry, and a @Collection named by its booktitle is read: " + page.skipped());
                assertEquals(List.of(), page.skipped());
                RemoteRecord aalst = page.records().stream().filter(r -> r.remoteId().equals("Aal2005")).findFirst().orElseThrow();
                assertEquals("Pi Calculus Versus Petri Nets: Let Us Eat Humble Pie Rather Than Further Inflate the Pi Hype", aalst.metadata().title());
                bib.update(aalst, aalst.metadata().with(Field.VOLUME, "4"));
                String after = new String(Files.readAllBytes(file), java.nio.charset.StandardCharsets.UTF_8);
                assertTrue(after.startsWith("\uFEFF% Encoding: UTF-8\n"), "the mark and the header are kept");
                String untouched = new String(before, java.nio.charset.StandardCharsets.UTF_8);
                untouched = untouched.substring(untouched.indexOf("@Collection{Hsu1993"));
                assertTrue(after.endsWith(untouched), "everything after the changed entry byte for byte");
            } else {
                assertEquals(Set.of("Fen2010"), page.records().stream().map(RemoteRecord::remoteId).collect(Collectors.toSet()),
                        "the entry before the stray text is read: " + page.skipped());
            }
        }
    }

    @Test
    void aFileListedAPageAtATimeGivesWhatAWholeReadGivesCrossrefsToLaterEntriesIncluded() throws IOException {
        Path file = Files.writeString(dir.resolve("paged.bib"), """
                % Encoding: UTF-8
                @string{acm = {ACM Press}}
                @inproceedings{child1, title = {Child one}, author = {Demers, Alan}, crossref = {proc2005}, pages = {1--12}}
                @proceedings{early, title = {Early Proceedings}, year = 1999, publisher = {Springer}}
                @inproceedings{child2, title = {Child two}, crossref = {early}}
                @article{dup, title = {First}}
                @article{dup, title = {Second}}
                @article{, title = {Keyless one}, year = 2001}
                @article{, title = {Keyless one}, year = 2001}
                @article{broken, title = {Unclosed,
                @misc{notitle, note = {no title here}}
                @article{usesmacro, title = {M}, journal = acm}
                @proceedings{proc2005, title = {Proceedings 2005}, year = 2005, publisher = acm, editor = {Itor, Ed}}
                """.replace("\n", "\r\n"));
        List<String> whole = null;
        for (int size : new int[] {1, 2, 3, 5, 1_000}) {
            BibTeXFile bib = new BibTeXFile(file, size);
            Listed listed = listed(bib);
            List<RemoteRecord> records = listed.records();
            List<String> skipped = listed.skipped();
            String cursor = listed.cursor();
            assertTrue(size > 12 || listed.pages() > 1, "listed over pages of " + size);
            assertEquals(dev.idiom.events.Fingerprint.of(Files.readString(file)), cursor, "the last cursor is the file's fingerprint");
            List<String> ids = records.stream().map(RemoteRecord::remoteId).toList();
            assertEquals(List.of("child1", "early", "child2", "dup", "notitle", "usesmacro", "proc2005"), ids.stream().filter(id -> !id.startsWith("keyless-")).toList());
            assertEquals(2, ids.stream().filter(id -> id.startsWith("keyless-")).distinct().count(), "the repeated keyless entry has an id of its own");
            for (RemoteRecord r : records) {
                assertEquals(bib.fetch(r.remoteId()).orElseThrow(), r, "listed as a whole read of the file gives it");
            }
            Metadata child1 = records.getFirst().metadata();
            assertEquals("Proceedings 2005", child1.venue(), "the booktitle comes from a parent further down the file");
            assertEquals("ACM Press", child1.get(Field.PUBLISHER), "with the macro the parent uses");
            assertEquals("Springer", records.get(2).metadata().get(Field.PUBLISHER), "and from one further up");
            assertEquals("First", records.get(3).metadata().title());
            whole = whole == null ? skipped : whole;
            assertEquals(whole, skipped, "the same skips, in the same order, over pages of " + size);
            assertEquals(2, skipped.size(), "the second dup and the broken entry (the one without a title is a record): " + skipped);
            assertTrue(bib.changedSince(cursor).records().isEmpty(), "nothing changed since the last cursor");
        }
        String midway = new BibTeXFile(file, 2).changedSince(null).cursor();
        assertEquals(7 + 2, new BibTeXFile(file, 1_000).changedSince(midway).records().size(), "a cursor from a listing another object began lists the whole file");
    }

    @Test
    void jabRefsFilesListedAnEntryAPageGiveWhatAWholeReadGivesAndAnUnchangedSyncLeavesThemByteForByte() throws IOException {
        List<Path> files = new java.util.ArrayList<>(List.of(jabref(), latin1File("@article{muller, title = {R\u00e9plication}, year = 2010}\n")));
        for (String name : List.of("utf8-bom.bib", "bibWithMixedContent.bib")) {
            try (InputStream in = getClass().getResourceAsStream("/jabref/" + name)) {
                files.add(Files.write(dir.resolve(name), in.readAllBytes()));
            }
        }
        for (Path file : files) {
            byte[] bytes = Files.readAllBytes(file);
            ChangePage whole = new BibTeXFile(file).changedSince(null);
            BibTeXFile bib = new BibTeXFile(file, 1);
            Listed listed = listed(bib);
            List<RemoteRecord> records = listed.records();
            List<String> skipped = listed.skipped();
            String cursor = listed.cursor();
            assertEquals(whole.records(), records, file.getFileName().toString());
            assertEquals(whole.skipped().stream().map(sk -> sk.remoteId() + ": " + sk.reason()).toList(), skipped, file.getFileName().toString());
            boolean bom = bytes.length >= 3 && bytes[0] == (byte) 0xEF && bytes[1] == (byte) 0xBB && bytes[2] == (byte) 0xBF;
            java.nio.charset.Charset cs = file.getFileName().toString().equals("latin1.bib") ? java.nio.charset.StandardCharsets.ISO_8859_1
                    : java.nio.charset.StandardCharsets.UTF_8;
            assertEquals(dev.idiom.events.Fingerprint.of(new String(bytes, bom ? 3 : 0, bytes.length - (bom ? 3 : 0), cs)), cursor,
                    "the fingerprint of the whole text: " + file.getFileName());
            assertEquals(whole.cursor(), cursor, "the same over pages: " + file.getFileName());
            assertTrue(new BibTeXFile(file).changedSince(cursor).records().isEmpty(), "unchanged since its cursor: " + file.getFileName());
            for (RemoteRecord r : records) {
                assertEquals(bib.fetch(r.remoteId()).orElseThrow(), r, file.getFileName() + " " + r.remoteId());
                bib.update(r, r.metadata()); // a sync that finds nothing to change
            }
            assertTrue(java.util.Arrays.equals(bytes, Files.readAllBytes(file)), "left byte for byte: " + file.getFileName());
        }
    }

    /** Every page of a whole listing: its records, its skips as "id: reason", the last cursor and how many pages. */
    private record Listed(List<RemoteRecord> records, List<String> skipped, String cursor, int pages) {}

    private static Listed listed(BibTeXFile bib) {
        List<RemoteRecord> records = new java.util.ArrayList<>();
        List<String> skipped = new java.util.ArrayList<>();
        String cursor = null;
        int pages = 0;
        ChangePage page;
        do {
            page = bib.changedSince(cursor);
            records.addAll(page.records());
            page.skipped().forEach(sk -> skipped.add(sk.remoteId() + ": " + sk.reason()));
            cursor = page.cursor();
            pages++;
        } while (page.more());
        return new Listed(records, skipped, cursor, pages);
    }
}
