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

/** {@code ./idiom sync --server}: a running Idiom's sync, said as the in-process sync says it; {@code --json} for scripts. */
class SyncCommandTest {
    @TempDir
    Path dir;

    private String run(List<String> args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int code = IdiomMain.run(args, new PrintStream(out, true, StandardCharsets.UTF_8), System.err);
        assertEquals(0, code, out.toString(StandardCharsets.UTF_8));
        return out.toString(StandardCharsets.UTF_8);
    }

    @Test
    void aSyncThroughARunningServerPrintsTheHumanSummaryAndJsonOnRequest() throws Exception {
        Path files = Files.createDirectories(dir.resolve("files"));
        Files.writeString(files.resolve("lib.bib"), "@article{a,\n  title = {One},\n  year = {2001},\n}\n\n@article{b,\n  title = {Two},\n  year = {2002},\n}\n");
        Path data = Files.createDirectories(dir.resolve("cli-data"));
        Files.writeString(data.resolve("admin.key"), RunningIdiom.ADMIN_TOKEN); // the key the command line presents
        try (RunningIdiom idiom = new RunningIdiom(TestDatabase.freshUrl(), Map.of("files-dir", files.toString(), "sync-interval-ms", "0",
                "pull-interval-ms", "0"))) {
            assertEquals(200, idiom.put("/api/tools/lib", "{\"kind\":\"bibtex\",\"baseUrl\":\"lib.bib\"}").statusCode());
            String said = run(List.of("sync", "--account", "lib", "--server", idiom.url(""), "--data", data.toString()));
            assertTrue(said.contains("idiom: sync of lib finished: pulled 2 (2 new, 0 merged, 0 updated, 0 unchanged, 0 skipped), pushed 0"), said);
            String json = run(List.of("sync", "--account", "lib", "--server", idiom.url(""), "--json", "--data", data.toString()));
            assertTrue(json.contains("\"pulled\":{") && json.contains("\"account\":\"lib\""), json);
        }
    }
}
