package dev.idiom.perf;

import dev.idiom.events.Author;
import dev.idiom.events.DigitalEntity;
import dev.idiom.events.EntitySnapshot;
import dev.idiom.events.EventCodec;
import dev.idiom.events.Field;
import dev.idiom.events.Metadata;
import dev.idiom.events.Replica;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;

/**
 * What the event codec costs per DE, single thread, warm: reading a stored projection (every read
 * from the database and every locking read of the writer), writing it (every append) and the view an
 * answer gives (every write's answer and cache entry), and the two of a MoreInfo from the database.
 * A DE with two copies, as a library's typical one. Run with another tree's events jar on the
 * class path for a before/after.
 *
 * <pre>perf/codec-speed.sh [--rounds 5] [--calls 200000] [--events-jar OTHER/services/target/lib/idiom-events-0.1.0-SNAPSHOT.jar]</pre>
 */
public final class CodecSpeed {
    private CodecSpeed() {
    }

    public static void main(String[] args) {
        int rounds = 5;
        int calls = 200_000;
        for (int i = 0; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--rounds" -> rounds = Integer.parseInt(args[i + 1]);
                case "--calls" -> calls = Integer.parseInt(args[i + 1]);
                default -> throw new IllegalArgumentException("unknown option " + args[i] + "; options: --rounds N --calls N");
            }
        }
        EventCodec codec = new EventCodec();
        Metadata m = Metadata.EMPTY.with(Field.TITLE, "Optimistic replication in large-scale distributed systems")
                .with(Field.TYPE, "article-journal").with(Field.YEAR, 2005).with(Field.VENUE, "ACM Computing Surveys")
                .with(Field.DOI, "10.1145/1057977.1057980").with(Field.AUTHORS, List.of(new Author("Saito", "Yasushi"), new Author("Shapiro", "Marc")))
                .with(Field.TAGS, new TreeSet<>(Set.of("replication", "survey"))).with(Field.PAGES, "42-81").with(Field.VOLUME, "37");
        List<Replica> copies = List.of(new Replica("bibtex", "library.bib", "saito2005", "abc123", m, null, "@article{saito2005, title={x}}", false),
                new Replica("zotero", "u1", "ABCD1234", "17", m));
        DigitalEntity de = new DigitalEntity(UUID.randomUUID(), 7, m, copies, Instant.now(), Instant.now());
        String stored = codec.entity(de);
        System.out.printf("event codec, one thread, %,d calls per figure; a DE of %,d bytes stored (2 copies)%n", calls, stored.length());
        System.out.printf("%-12s %10s %10s %10s %24s%n", "round", "read µs", "write µs", "view µs", "read+view (MoreInfo) µs");
        long sink = 0;
        for (int round = 1; round <= rounds; round++) {
            long t0 = System.nanoTime();
            for (int i = 0; i < calls; i++) {
                sink += codec.entity(stored).version();
            }
            long t1 = System.nanoTime();
            for (int i = 0; i < calls; i++) {
                sink += codec.entity(de).length();
            }
            long t2 = System.nanoTime();
            for (int i = 0; i < calls; i++) {
                sink += codec.view(de).length();
            }
            long t3 = System.nanoTime();
            for (int i = 0; i < calls; i++) {
                sink += EntitySnapshot.of(stored, codec).json().length;
            }
            long t4 = System.nanoTime();
            System.out.printf("%-12s %10.2f %10.2f %10.2f %24.2f%n", round == 1 ? "1 (warm-up)" : Integer.toString(round),
                    (t1 - t0) / 1e3 / calls, (t2 - t1) / 1e3 / calls, (t3 - t2) / 1e3 / calls, (t4 - t3) / 1e3 / calls);
        }
        if (sink == 42) {
            System.out.println(); // keeps the work from being optimised away
        }
    }
}
