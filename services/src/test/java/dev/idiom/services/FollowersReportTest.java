package dev.idiom.services;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.idiom.db.TestDatabase;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code GET /api/consistency} names every follower of the store, where its position is kept, and how far behind the head it is. */
class FollowersReportTest {
    @TempDir
    Path dir;

    @Test
    void everyFollowerOfTheStoreIsReportedAndCatchesUpWithTheWritesOfItsNode() throws Exception {
        Path bib = Files.writeString(dir.resolve("library.bib"), "");
        try (RunningIdiom idiom = new RunningIdiom(TestDatabase.freshUrl(), Map.of("files-dir", dir.toString(), "sync-interval-ms", "200"))) {
            HttpResponse<String> put = idiom.put("/api/tools/library", "{\"kind\":\"bibtex\",\"baseUrl\":\"" + bib + "\",\"mirror\":\"all\"}");
            assertEquals(200, put.statusCode(), put.body());
            for (String title : new String[] {"Epidemic algorithms", "Bayou", "Coda"}) {
                HttpResponse<String> r = idiom.post("/api/entities", "application/json", "{\"metadata\":{\"title\":\"" + title + "\"}}");
                assertEquals(201, r.statusCode(), r.body());
            }
            Map<String, JsonNode> followers = new HashMap<>();
            for (long until = System.nanoTime() + 30_000_000_000L; System.nanoTime() < until; Thread.sleep(100)) {
                followers.clear();
                RunningIdiom.json(idiom.get("/api/consistency")).get("followers").forEach(f -> followers.put(f.get("name").asText(), f));
                if (followers.values().stream().allMatch(f -> f.get("behind").isNull() || f.get("behind").asLong() == 0)
                        && followers.containsKey("idiom-mirror-plan") && followers.get("idiom-mirror-plan").get("position").asLong() > 0) {
                    break;
                }
            }
            assertTrue(followers.keySet().containsAll(Set.of("cache-change-feed", "search-feed", "idiom-mirror-plan", "idiom-sync", "trash-sweep")),
                    followers.keySet().toString());
            for (String fed : new String[] {"cache-change-feed", "search-feed", "idiom-mirror-plan"}) {
                JsonNode f = followers.get(fed);
                assertEquals(0, f.get("behind").asLong(), fed + " caught up with the head: " + f);
                assertTrue(f.get("position").asLong() >= 3, fed + " followed the three DEs' events: " + f);
                assertTrue(!f.get("positionKeptIn").asText().isBlank(), f.toString());
            }
            assertTrue(followers.get("search-feed").get("eventsFollowed").asLong() >= 3, followers.get("search-feed").toString());
            JsonNode push = followers.get("idiom-sync");
            assertTrue(push.get("position").isNull() && push.get("behind").isNull(), "the push loop follows the outbox, not a feed position: " + push);
            assertTrue(push.get("lastRoundAt").isTextual(), "the push loop ran its rounds: " + push);
        }
    }
}
