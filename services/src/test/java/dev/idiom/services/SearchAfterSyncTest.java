package dev.idiom.services;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.idiom.db.TestDatabase;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Read-your-writes after a sync (issue 48, finding 9): a search right after a sync answered lists
 * every DE that sync made, as it does after an API write — the engine's appends tell the search
 * index where this node's writes are, and a search waits for them. The {@code tool} filter takes an
 * account's name as well as a tool kind.
 */
class SearchAfterSyncTest {
    @TempDir
    Path dir;

    @Test
    void aSearchRightAfterASyncListsEveryDeTheSyncMade() throws Exception {
        try (RunningIdiom idiom = new RunningIdiom(TestDatabase.freshUrl(), Map.of("files-dir", dir.toString(), "sync-interval-ms", "0",
                "pull-interval-ms", "0"))) {
            for (int round = 0; round < 5; round++) {
                StringBuilder bib = new StringBuilder();
                for (int i = 0; i < 91; i++) {
                    bib.append("@article{r").append(round).append('x').append(i).append(",\n  title = {Round ").append(round).append(" paper ").append(i)
                            .append("},\n  author = {Doe, Jane},\n  year = {2020},\n  journal = {Journal ").append(round).append("},\n  doi = {10.1000/r")
                            .append(round).append('.').append(i).append("}\n}\n\n");
                }
                Files.writeString(dir.resolve("r" + round + ".bib"), bib);
                assertEquals(200, idiom.put("/api/tools/r" + round, "{\"kind\":\"bibtex\",\"baseUrl\":\"r" + round + ".bib\"}").statusCode());
                HttpResponse<String> synced = idiom.post("/api/tools/r" + round + "/sync", "application/json", "");
                assertEquals(200, synced.statusCode(), synced.body());
                assertEquals(91 * (round + 1), RunningIdiom.json(idiom.get("/api/entities?limit=1")).get("total").asInt(),
                        "round " + round + ": every DE the sync made is found at once");
                assertEquals(91, RunningIdiom.json(idiom.get("/api/entities?limit=1&tool=r" + round)).get("total").asInt(),
                        "the tool filter takes an account's name: its own copies");
            }
        }
    }
}
