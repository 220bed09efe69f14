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
 * A 1,797-entry BibTeX library and a second file with 200 duplicates of its works (DOI, URL and
 * title variants) and traps that must not merge (different DOIs, years three apart) yield exactly
 * the distinct works; the same duplicates inside one file stay records of their own, suggested as
 * pairs (matching never joins two records of one library).
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
    void twoHundredDuplicatesFromAnotherLibraryJoinTheirWorksAndInOneFileAreSuggestedInstead() throws Exception {
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

        List<String> library = new ArrayList<>();
        List<String> others = new ArrayList<>();
        for (Work w : works) {
            (w.n() >= 1797 ? others : library).add(entry("w" + w.n(), w.title(), w.family(), w.year(), w.doi(), w.url()));
        }
        for (int d = 0; d < 200; d++) {
            Work w = works.get(d * 9 + (d % 3)); // DOI, URL and bare works in turn: work i has kind i % 3 = d % 3
            String key = "dup" + d;
            others.add(switch (d % 3) {
                case 0 -> entry(key, w.title().toUpperCase() + ", preprint", "Other", w.year(),
                        "https://doi.org/" + w.doi().toUpperCase(), null);
                case 1 -> entry(key, "Bookmark of " + w.n(), "Someone", w.year(), null, w.url().replace("https://", "http://www.") + "/");
                default -> entry(key, w.title().toUpperCase().replace(" ", "  ") + "!", fold(w.family()), w.year() + 1, null, null);
            });
        }
        Collections.shuffle(library, random);
        Collections.shuffle(others, random);
        Path bib = dir.resolve("library.bib");
        Files.writeString(bib, "% 1,797 distinct works\n\n" + String.join("\n", library));
        Path other = dir.resolve("other.bib");
        Files.writeString(other, "% 200 duplicates of the library's works and 3 traps\n\n" + String.join("\n", others));
        Path both = dir.resolve("both.bib");
        Files.writeString(both, "% the two in one file\n\n" + String.join("\n", library) + "\n" + String.join("\n", others));

        String url = TestDatabase.freshUrl();
        IdiomConfig config = IdiomConfig.from(Map.of("db-url", url, "data", dir.resolve("data").toString()), Map.of(), k -> null);
        try (Idiom idiom = Idiom.start(config)) {
            ImportSummary first = idiom.application().imports().importAll(idiom.application().tools().file("bibtex", bib), true, (s, a, b, c) -> { });
            assertEquals(1797, first.count(ImportOutcome.Kind.CREATED), first.toString());
            ImportSummary second = idiom.application().imports().importAll(idiom.application().tools().file("bibtex", other), true, (s, a, b, c) -> { });
            System.out.println("BibTeX import of 203 entries into 1,797 works: " + second);
            assertEquals(203, second.records(), second.toString());
            assertEquals(0, second.count(ImportOutcome.Kind.SKIPPED), () -> "skipped: " + second.skipped());
            assertEquals(3, second.count(ImportOutcome.Kind.CREATED), "the traps are works of their own: " + second);
            assertEquals(200, second.count(ImportOutcome.Kind.MERGED), second.toString());
            assertEquals(1800, count(idiom, "SELECT COUNT(*) FROM entity"));
            assertEquals(2000, count(idiom, "SELECT COUNT(*) FROM event"));

            ImportSummary again = idiom.application().imports().importAll(idiom.application().tools().file("bibtex", other), true, (s, a, b, c) -> { });
            assertEquals(203, again.count(ImportOutcome.Kind.UNCHANGED), "a second import changes nothing: " + again);
            assertEquals(1800, count(idiom, "SELECT COUNT(*) FROM entity"));
            assertTrue(idiom.store().verifyProjections().clean());
        }

        try (Idiom idiom = Idiom.start(IdiomConfig.from(Map.of("db-url", TestDatabase.freshUrl(), "data", dir.resolve("data2").toString()), Map.of(),
                k -> null))) {
            ImportSummary one = idiom.application().imports().importAll(idiom.application().tools().file("bibtex", both), true, (s, a, b, c) -> { });
            assertEquals(2000, one.count(ImportOutcome.Kind.CREATED), "every entry of one file is a record of its own: " + one);
            var caller = new dev.idiom.services.app.Caller("test", dev.idiom.services.app.Role.ADMIN, true);
            var pairs = idiom.application().lifecycle().duplicates(1000, caller);
            // DOI and URL variants are always found; a title variant only where its year is within one of the work's (all of them here)
            assertEquals(200, pairs.size(), "each planted duplicate is suggested with its work, and no trap is");
            assertEquals(67, pairs.stream().filter(p -> p.evidence().equals("doi")).count());
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
