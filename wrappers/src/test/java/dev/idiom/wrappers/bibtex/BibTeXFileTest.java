package dev.idiom.wrappers.bibtex;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
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
        return EnumSet.allOf(Field.class);
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
    void aJabRefFileIsReadWithMacrosLatexAndAuthorsResolvedAndTheBrokenEntrySkipped() throws IOException {
        ChangePage page = new BibTeXFile(jabref()).changedSince(null);
        Map<String, Metadata> byKey = page.records().stream().collect(Collectors.toMap(RemoteRecord::remoteId, RemoteRecord::metadata));
        Metadata saito = byKey.get("saito2005");
        assertEquals("Optimistic Replication", saito.title());
        assertEquals("ACM Computing Surveys", saito.venue(), "the @string macro is resolved");
        assertEquals(List.of(new Author("Saito", "Yasushi"), new Author("Shapiro", "Marc")), saito.authors());
        assertEquals(new TreeSet<>(Set.of("replication", "survey")), saito.tags());
        assertEquals("article", saito.type());
        Metadata demers = byKey.get("demers1987");
        assertEquals(new Author("Demers", "Alan"), demers.authors().getFirst());
        assertEquals("inproceedings", demers.type());
        assertEquals(1987, demers.year());
        Metadata muller = byKey.get("muller2010");
        assertEquals("Épidémies et réplication", muller.title(), "LaTeX accents become text");
        assertEquals("Müller", muller.authors().getFirst().family());
        assertTrue(page.skipped().stream().anyMatch(s -> s.reason().contains("malformed")), "skipped: " + page.skipped());
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
}
