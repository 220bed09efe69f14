package dev.idiom.perf;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.regex.Pattern;

/**
 * Import rate on a running Idiom: a BibTeX file of 2,000 entries, 200 of them duplicates of
 * others (by DOI, by URL, by title and first author), configured as a tool account and imported
 * over REST, several rounds with fresh keys so each round creates 1,800 new DEs; the server's own
 * summary gives records/s. Later rounds run on a warm JVM.
 *
 * <pre>perf/import-rate.sh [--rounds 4] [--entries 2000] [--url URL --files-dir DIR]</pre>
 * With {@code --write FILE --entries N} it only writes such a file (for {@code perf/import-file.sh}).
 */
public final class ImportRate {
    private static final String[] FAMILIES = {"Saito", "Shapiro", "Müller", "Ødegård", "Nguyen", "García", "Kowalski", "O'Brien", "Łukasz", "Chen"};
    private static final String[] WORDS = {"optimistic", "replication", "epidemic", "consistency", "bookmarks", "federation", "metadata",
            "annotation", "convergence", "gossip", "causal", "ordering", "clocks", "vector", "merge", "conflict"};
    private static final Pattern NUMBER = Pattern.compile("\"(records|created|merged|recordsPerSecond|seconds)\":([0-9.]+)");

    private ImportRate() {}

    public static void main(String[] args) throws Exception {
        Map<String, String> opts = new LinkedHashMap<>(Map.of("url", "http://127.0.0.1:8080", "rounds", "4", "entries", "2000"));
        for (int i = 0; i + 1 < args.length; i += 2) {
            opts.put(args[i].replaceFirst("^--", ""), args[i + 1]);
        }
        if (opts.containsKey("write")) { // perf/import-file.sh: only the file, for ./idiom import
            int n = Integer.parseInt(opts.get("entries"));
            Files.writeString(Path.of(opts.get("write")), file(opts.getOrDefault("prefix", "f"), n));
            return;
        }
        String base = opts.get("url");
        int rounds = Integer.parseInt(opts.get("rounds"));
        int entries = Integer.parseInt(opts.get("entries"));
        HttpClient http = HttpClient.newHttpClient();
        // a file account must name a file inside the server's files-dir: perf/serve-for-bench.sh says where it is
        String filesDir = opts.getOrDefault("files-dir", System.getenv("IDIOM_BENCH_FILES"));
        if (filesDir == null) {
            throw new IllegalArgumentException("say where the server's files-dir is: --files-dir DIR (perf/import-rate.sh sets it for the server it starts)");
        }
        Path dir = Files.createDirectories(Path.of(filesDir).resolve("import-rate-" + System.nanoTime()));
        System.out.printf("BibTeX import over REST at %s: %d entries (%d duplicates planted), %d rounds%n", base, entries, entries / 10, rounds);
        for (int round = 1; round <= rounds; round++) {
            Path bib = dir.resolve("round" + round + ".bib");
            Files.writeString(bib, file("r" + round + "x" + System.nanoTime(), entries));
            String tool = "bench" + round;
            send(http, HttpRequest.newBuilder(URI.create(base + "/api/tools/" + tool)).header("Content-Type", "application/json")
                    .PUT(HttpRequest.BodyPublishers.ofString("{\"kind\":\"bibtex\",\"baseUrl\":\"" + bib.toAbsolutePath() + "\"}")));
            String summary = send(http, HttpRequest.newBuilder(URI.create(base + "/api/imports")).header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString("{\"tool\":\"" + tool + "\",\"fromStart\":true}")));
            Map<String, String> n = new LinkedHashMap<>();
            var m = NUMBER.matcher(summary);
            while (m.find()) {
                n.put(m.group(1), m.group(2));
            }
            System.out.printf("round %d: %s records, %s created, %s merged in %.2f s = %.0f records/s%n", round, n.get("records"), n.get("created"),
                    n.get("merged"), Double.parseDouble(n.get("seconds")), Double.parseDouble(n.get("recordsPerSecond")));
        }
    }

    private static String send(HttpClient http, HttpRequest.Builder b) throws Exception {
        HttpResponse<String> r = http.send(ApiKey.signed(b).build(), HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() >= 300) {
            throw new IllegalStateException(r.statusCode() + " " + r.body());
        }
        return r.body();
    }

    /** {@code entries} entries: 90 % distinct works (a third with DOIs, a third with URLs), 10 % duplicates of them. */
    static String file(String prefix, int entries) {
        Random random = new Random(42);
        int distinct = entries - entries / 10;
        List<String> out = new ArrayList<>();
        List<String[]> works = new ArrayList<>();
        for (int i = 0; i < distinct; i++) {
            String title = prefix + " " + WORDS[random.nextInt(WORDS.length)] + " " + WORDS[random.nextInt(WORDS.length)] + " study " + i;
            String family = FAMILIES[i % FAMILIES.length];
            int year = 1990 + i % 30;
            String doi = i % 3 == 0 ? "10.5555/" + prefix + "." + i : null;
            String url = i % 3 == 1 ? "https://papers.example.org/" + prefix + "/" + i : null;
            works.add(new String[] {title, family, Integer.toString(year), doi, url});
            out.add(entry(prefix + "w" + i, title, family, year, doi, url));
        }
        for (int d = 0; d < entries / 10; d++) {
            String[] w = works.get((d * 9 + d % 3) % distinct);
            int year = Integer.parseInt(w[2]);
            out.add(switch (d % 3) {
                case 0 -> entry(prefix + "d" + d, w[0].toUpperCase() + ", preprint", "Other", year, "https://doi.org/" + w[3], null);
                case 1 -> entry(prefix + "d" + d, prefix + " bookmark " + d, "Someone", year, null, w[4].replace("https://", "http://www.") + "/");
                default -> entry(prefix + "d" + d, w[0].toUpperCase() + "!", w[1], year + 1, null, null);
            });
        }
        Collections.shuffle(out, random);
        return String.join("\n", out);
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
