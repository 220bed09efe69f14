package dev.idiom.cache.search.lucene;

import dev.idiom.cache.search.SearchIndex;
import dev.idiom.events.EventCodec;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Search indexes under one directory: {@code gen-N/} each, and {@code CURRENT} naming the one in
 * use (replaced atomically on promotion). Generations no longer current are deleted at the next
 * start, when nothing can still be reading them. With no directory, indexes live in memory.
 */
public final class LuceneIndexHome implements SearchIndex.Home {
    private static final String CURRENT = "CURRENT";
    private final Path root;
    private final EventCodec codec;
    private final Map<SearchIndex, String> names = new IdentityHashMap<>();

    public LuceneIndexHome(Path root, EventCodec codec) {
        this.root = root;
        this.codec = codec;
    }

    @Override
    public synchronized SearchIndex openCurrent() {
        if (root == null) {
            return LuceneSearchIndex.inMemory(codec);
        }
        try {
            Files.createDirectories(root);
            Path pointer = root.resolve(CURRENT);
            String current = Files.exists(pointer) ? Files.readString(pointer, StandardCharsets.UTF_8).strip() : "gen-1";
            try (Stream<Path> gens = Files.list(root)) {
                for (Path old : gens.filter(p -> p.getFileName().toString().startsWith("gen-") && !p.getFileName().toString().equals(current)).toList()) {
                    delete(old);
                }
            }
            return named(LuceneSearchIndex.open(root.resolve(current), codec), current);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open the search index under " + root + ": " + e.getMessage(), e);
        }
    }

    @Override
    public synchronized SearchIndex createNext() {
        if (root == null) {
            return LuceneSearchIndex.inMemory(codec);
        }
        try (Stream<Path> gens = Files.list(root)) {
            int next = gens.map(p -> p.getFileName().toString()).filter(n -> n.matches("gen-[0-9]+"))
                    .mapToInt(n -> Integer.parseInt(n.substring(4))).max().orElse(0) + 1;
            return named(LuceneSearchIndex.open(root.resolve("gen-" + next), codec), "gen-" + next);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a search index under " + root + ": " + e.getMessage(), e);
        }
    }

    @Override
    public synchronized void promote(SearchIndex next) {
        if (root == null) {
            return;
        }
        try {
            next.commit(); // what CURRENT names must open complete
            Path tmp = root.resolve(CURRENT + ".tmp");
            Files.writeString(tmp, names.get(next), StandardCharsets.UTF_8);
            Files.move(tmp, root.resolve(CURRENT), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot promote the rebuilt search index: " + e.getMessage(), e);
        }
    }

    private SearchIndex named(SearchIndex index, String name) {
        names.put(index, name);
        return index;
    }

    private static void delete(Path dir) throws IOException {
        try (Stream<Path> all = Files.walk(dir)) {
            for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
