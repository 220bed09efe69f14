package dev.idiom.services;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idiom.db.TestDatabase;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ./idiom import} keeps no search index up with its writes (its cores go to the import); the
 * server indexes them from the change feed when it runs on that data.
 */
class ImportCommandTest {
    @TempDir
    Path dir;

    @Test
    void aFileImportedFromTheCommandLineIsFoundBySearchOnceTheServerRunsOnThatData() throws Exception {
        String url = TestDatabase.freshUrl();
        Path data = dir.resolve("data");
        Path bib = dir.resolve("library.bib");
        Files.writeString(bib, """
                @article{saito2005, title = {Optimistic Replication}, author = {Saito, Yasushi and Shapiro, Marc}, journal = {ACM Computing Surveys},
                  year = {2005}, keywords = {cli-import}}
                @inproceedings{shapiro2011, title = {Conflict-Free Replicated Data Types}, author = {Shapiro, Marc}, year = {2011}, keywords = {cli-import}}
                @book{lamport, title = {Specifying Systems}, author = {Lamport, Leslie}, year = {2002}, publisher = {Addison-Wesley}, keywords = {cli-import}}
                """);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = IdiomMain.run(List.of("import", "--tool", "bibtex", "--file", bib.toString(), "--db-url", url, "--data", data.toString()),
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(0, code, err.toString(StandardCharsets.UTF_8));
        assertTrue(out.toString(StandardCharsets.UTF_8).contains("3 records: 3 created"), out.toString(StandardCharsets.UTF_8));

        try (RunningIdiom idiom = new RunningIdiom(url, Map.of("data", data.toString(), "sync-interval-ms", "0"))) {
            long deadline = System.nanoTime() + 30_000_000_000L;
            long found;
            do {
                found = RunningIdiom.json(idiom.get("/api/entities?tag=cli-import")).get("total").asLong();
            } while (found < 3 && System.nanoTime() < deadline);
            assertEquals(3, found, "every imported work, indexed from the feed");
            assertEquals(1, RunningIdiom.json(idiom.get("/api/entities?tag=cli-import&q=specifying")).get("total").asLong());
        }
    }
}
