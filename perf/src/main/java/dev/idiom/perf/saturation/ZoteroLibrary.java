package dev.idiom.perf.saturation;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.idiom.perf.ApiKey;
import dev.idiom.wrappers.zotero.ZoteroStub;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The tool the download and upload plans talk to: the wrappers' stub of Zotero's Web API v3 (as
 * strict as the published API), taking requests concurrently, registered on the target as the
 * tool account {@value #ACCOUNT} and paused there — the engine's scheduled pulls would otherwise
 * import the records added for the download plan before the plan asks for them. A download or an
 * upload still goes through the paused account; only the background engine leaves it alone.
 */
final class ZoteroLibrary implements AutoCloseable {
    static final String ACCOUNT = "perf-zotero";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String[] WORDS = {"optimistic", "replication", "consistency", "federated", "bookmarks", "annotation", "scholarly",
            "metadata", "convergence", "provenance", "reconciliation", "services"};

    private final ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor();
    private final ZoteroStub stub = new ZoteroStub(threads);
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private final String run = Long.toString(System.currentTimeMillis(), 36);
    private long added;

    private ZoteroLibrary() {}

    /** Starts the stub and registers it on {@code target} as {@value #ACCOUNT}, paused. */
    static ZoteroLibrary register(Target target) throws IOException, InterruptedException {
        ZoteroLibrary z = new ZoteroLibrary();
        try {
            String account = JSON.createObjectNode().put("kind", "zotero").put("baseUrl", z.stub.uri().toString()).put("account", ZoteroStub.LIBRARY)
                    .put("secret", ZoteroStub.KEY).toString();
            z.idiom(target, HttpRequest.newBuilder(URI.create(target.url + "/api/tools/" + ACCOUNT)).header("Content-Type", "application/json")
                    .PUT(HttpRequest.BodyPublishers.ofString(account)), "registering the tool account " + ACCOUNT
                    + " (the target needs IDIOM_SECRET_KEY to store its secret)");
            z.idiom(target, HttpRequest.newBuilder(URI.create(target.url + "/api/tools/" + ACCOUNT + "/pause")).POST(HttpRequest.BodyPublishers.noBody()),
                    "pausing the tool account " + ACCOUNT);
            return z;
        } catch (IOException | InterruptedException | RuntimeException e) {
            z.close();
            throw e;
        }
    }

    private void idiom(Target target, HttpRequest.Builder request, String what) throws IOException, InterruptedException {
        HttpResponse<String> r = target.http().send(ApiKey.signed(request).build(), HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 200) {
            throw new IOException(what + " answered " + r.statusCode() + ": " + r.body());
        }
    }

    /**
     * Adds {@code n} journal articles to the library through the API (50 per write, as it allows),
     * each with a title no DE has, so that downloading it imports a new DE; returns their keys.
     */
    List<String> add(int n) throws IOException, InterruptedException {
        List<String> keys = new ArrayList<>(n);
        while (keys.size() < n) {
            ArrayNode batch = JSON.createArrayNode();
            for (int i = 0; i < Math.min(50, n - keys.size()); i++) {
                long k = added++;
                ObjectNode item = batch.addObject().put("itemType", "journalArticle")
                        .put("title", WORDS[(int) (k % WORDS.length)] + " " + WORDS[(int) (k / 7 % WORDS.length)] + " in practice, perf " + run + "-" + k)
                        .put("publicationTitle", "Journal of Federated Annotation").put("date", Long.toString(1990 + k % 35))
                        .put("abstractNote", "A record of the saturation run's download plan.");
                item.putArray("creators").addObject().put("creatorType", "author").put("firstName", "Yasushi").put("lastName", "Saito");
                item.putArray("tags").addObject().put("tag", "perf");
            }
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(stub.uri() + "/" + ZoteroStub.LIBRARY + "/items"))
                    .timeout(java.time.Duration.ofSeconds(30))
                    .header("Zotero-API-Version", "3").header("Zotero-API-Key", ZoteroStub.KEY).header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(batch.toString())).build(), HttpResponse.BodyHandlers.ofString());
            JsonNode answer = r.statusCode() == 200 ? JSON.readTree(r.body()) : null;
            if (answer == null || !answer.path("failed").isEmpty()) {
                throw new IOException("the Zotero stub refused the perf items: " + r.statusCode() + " " + r.body());
            }
            answer.path("success").forEach(key -> keys.add(key.asText()));
        }
        return keys;
    }

    /** Requests the stub has answered (the plan's and Idiom's). */
    int requests() {
        return stub.requests();
    }

    @Override
    public void close() {
        stub.close();
        threads.shutdownNow();
    }
}
