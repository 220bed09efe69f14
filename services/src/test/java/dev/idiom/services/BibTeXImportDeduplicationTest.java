package dev.idiom.services;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idiom.db.TestDatabase;
import dev.idiom.consistency.report.ImportOutcome;
import dev.idiom.consistency.report.ImportSummary;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A 2,000-entry BibTeX file with 200 planted duplicates (DOI, URL and title variants) and traps
 * that must not merge (different DOIs, years three apart) yields exactly the distinct works.
 */
class BibTeXImportDeduplicationTest {
    @TempDir
    Path dir;

    private static final String[] FAMILIES = {"Saito", "Shapiro", "Müller", "Ødegård", "Nguyen", "García", "Kowalski", "O'Brien", "Łukasz", "Chen"};
    private static final String[] WORDS = {"optimistic", "replication", "epidemic", "consistency", "bookmarks", "federation", "metadata",
            "annotation", "convergence", "gossip", "causal", "ordering", "clocks", "vector", "merge", "conflict"};

    /** One distinct work: an id, its key fields, and how a duplicate of it may be recognised. */
    private record Work(int n, String title, String family, int year, String doi, String url) {}

    @Test
    void twoThousandEntriesWithTwoHundredPlantedDuplicatesYieldExactlyTheDistinctWorks() throws Exception {
        Random random = new Random(42);
        List<Work> works = new ArrayList<>();
        for (int i = 0; i < 1800; i++) {
            String title = WORDS[random.nextInt(WORDS.length)] + " " + WORDS[random.nextInt(WORDS.length)] + " study " + i;
            int kind = i % 3; // a third with DOIs, a third with URLs only, a third with neither
            works.add(new Work(i, title, FAMILIES[i % FAMILIES.length], 1990 + i % 30,
                    kind == 0 ? "10.5555/idiom." + i : null, kind == 1 ? "https://papers.example.org/p/" + i : null));
        }
        // traps among the distinct works: same title and author as work 0 / 3 but another DOI / a year 3 apart
        works.set(1797, new Work(1797, works.get(0).title(), works.get(0).family(), works.get(0).year(), "10.5555/other.1797", null));
        works.set(1798, new Work(1798, works.get(2).title(), works.get(2).family(), works.get(2).year() + 3, null, null));
        works.set(1799, new Work(1799, works.get(5).title(), works.get(5).family(), works.get(5).year() - 3, null, null));

        List<String> entries = new ArrayList<>();
        for (Work w : works) {
            entries.add(entry("w" + w.n(), w.title(), w.family(), w.year(), w.doi(), w.url()));
        }
        for (int d = 0; d < 200; d++) {
            Work w = works.get(d * 9 + (d % 3)); // DOI, URL and bare works in turn: work i has kind i % 3 = d % 3
            String key = "dup" + d;
            entries.add(switch (d % 3) {
                case 0 -> entry(key, w.title().toUpperCase() + ", preprint", "Other", w.year(),
                        "https://doi.org/" + w.doi().toUpperCase(), null);
                case 1 -> entry(key, "Bookmark of " + w.n(), "Someone", w.year(), null, w.url().replace("https://", "http://www.") + "/");
                default -> entry(key, w.title().toUpperCase().replace(" ", "  ") + "!", fold(w.family()), w.year() + 1, null, null);
            });
        }
        Collections.shuffle(entries, random);
        Path bib = dir.resolve("planted.bib");
        Files.writeString(bib, "% 2,000 entries, 200 of them duplicates\n\n" + String.join("\n", entries));

        String url = TestDatabase.freshUrl();
        IdiomConfig config = IdiomConfig.from(Map.of("db-url", url, "data", dir.resolve("data").toString()), Map.of(), k -> null);
        try (Idiom idiom = Idiom.start(config)) {
            ImportSummary first = idiom.application().imports().importAll(idiom.application().tools().file("bibtex", bib), true, (s, a, b, c) -> { });
            System.out.println("BibTeX import of 2,000 entries: " + first);
            assertEquals(2000, first.records(), first.toString());
            assertEquals(0, first.count(ImportOutcome.Kind.SKIPPED), () -> "skipped: " + first.skipped());
            assertEquals(1800, first.count(ImportOutcome.Kind.CREATED), first.toString());
            assertEquals(200, first.count(ImportOutcome.Kind.MERGED), first.toString());
            assertEquals(1800, count(idiom, "SELECT COUNT(*) FROM entity"));
            assertEquals(2000, count(idiom, "SELECT COUNT(*) FROM event"));

            ImportSummary again = idiom.application().imports().importAll(idiom.application().tools().file("bibtex", bib), true, (s, a, b, c) -> { });
            assertEquals(2000, again.count(ImportOutcome.Kind.UNCHANGED), "a second import changes nothing: " + again);
            assertEquals(1800, count(idiom, "SELECT COUNT(*) FROM entity"));
            assertTrue(idiom.store().verifyProjections().clean());
        }
    }

    private static long count(Idiom idiom, String sql) throws Exception {
        try (Connection c = idiom.database().connection(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static String fold(String family) {
        return java.text.Normalizer.normalize(family, java.text.Normalizer.Form.NFD).replaceAll("\\p{M}", "").toLowerCase();
    }

    private static String entry(String key, String title, String family, int year, String doi, String url) {
        StringBuilder b = new StringBuilder("@article{").append(key).append(",\n  title = {").append(title).append("},\n  author = {")
                .append(family).append(", A.},\n  year = {").append(year).append("},\n  journal = {Journal of Tests},\n");
        if (doi != null) {
            b.append("  doi = {").append(doi).append("},\n");
        }
        if (url != null) {
            b.append("  url = {").append(url).append("},\n");
        }
        return b.append("}\n").toString();
    }
}
