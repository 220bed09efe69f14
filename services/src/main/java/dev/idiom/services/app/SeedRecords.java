package dev.idiom.services.app;

import dev.idiom.events.Append;
import dev.idiom.events.Author;
import dev.idiom.events.Changes;
import dev.idiom.events.EntityIds;
import dev.idiom.events.Field;
import dev.idiom.events.FieldChanged;
import dev.idiom.events.Metadata;
import dev.idiom.events.NewEvent;
import dev.idiom.events.RecordImported;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.TreeSet;
import java.util.UUID;

/**
 * Realistic DEs for growth runs, deterministic per seed: titles of three to eight words from a
 * technical vocabulary, one to four authors, years 1970–2026, a venue, two to five tags from a few
 * hundred, a DOI on a third and a URL on another third; then minor events (volume, notes, pages) up
 * to the requested history length, which change the record without growing it. Each DE is one append through the real append path.
 */
public final class SeedRecords {
    private static final String[] WORDS = ("optimistic replication consistency epidemic gossip causal ordering vector clocks merge conflict "
            + "annotation bookmarks federation metadata scholarly digital library citation retrieval ranking search index graph "
            + "distributed transactions consensus paxos raft byzantine fault tolerance storage log structured compaction stream "
            + "processing event sourcing snapshot isolation serializable latency throughput saturation queueing model benchmark "
            + "web services soap rest semantic ontology tagging folksonomy social network analysis learning neural evaluation").split(" ");
    private static final String[] FAMILIES = {"Saito", "Shapiro", "Müller", "Ødegård", "Nguyen", "García", "Kowalski", "O'Brien", "Łukasz",
            "Chen", "Lamport", "Liskov", "Gray", "Stonebraker", "Bernstein", "Vogels", "Terry", "Demers", "Petersen", "Kleppmann"};
    private static final String[] GIVEN = {"Yasushi", "Marc", "Anna", "Ingrid", "Minh", "Lucía", "Piotr", "Siobhan", "Jan", "Wei"};
    private static final String[] VENUES = {"ACM Computing Surveys", "SOSP", "OSDI", "VLDB", "SIGMOD", "PODC", "JCDL", "WWW", "ICDE",
            "Distributed Computing", "Communications of the ACM", "ECOOP"};
    private static final String[] TYPES = {"article-journal", "article-journal", "article-journal", "paper-conference", "paper-conference", "book", "chapter", "thesis", "report", "webpage", "document"};

    private final EntityIds ids;
    private final SplittableRandom random;

    public SeedRecords(EntityIds ids, long seed) {
        this.ids = ids;
        this.random = new SplittableRandom(seed);
    }

    /** The next DE: one append of {@code events} events (a creation, then minor events). */
    public Append next(int events) {
        UUID id = ids.next();
        Metadata m = Changes.forNewRecord(metadata());
        List<NewEvent> out = new ArrayList<>(events);
        out.add(new NewEvent(UUID.randomUUID(), "seed", new RecordImported(m, "idiom", id.toString())));
        for (int i = 1; i < events; i++) {
            // edits that keep the record's size: a long history, not a bigger record
            out.add(new NewEvent(UUID.randomUUID(), "seed", switch (i % 3) {
                case 0 -> new FieldChanged(Field.VOLUME, Integer.toString(1 + random.nextInt(60)));
                case 1 -> new FieldChanged(Field.NOTES, "read " + i + ": " + word() + " " + word());
                default -> new FieldChanged(Field.PAGES, (1 + random.nextInt(400)) + "-" + (401 + random.nextInt(400)));
            }));
        }
        return new Append(id, 0, out);
    }

    private Metadata metadata() {
        int n = random.nextInt(3, 9);
        StringBuilder title = new StringBuilder();
        for (int i = 0; i < n; i++) {
            String w = word();
            title.append(i == 0 ? Character.toUpperCase(w.charAt(0)) + w.substring(1) : " " + w);
        }
        List<Author> authors = new ArrayList<>();
        for (int i = random.nextInt(1, 5); i > 0; i--) {
            authors.add(new Author(FAMILIES[random.nextInt(FAMILIES.length)], GIVEN[random.nextInt(GIVEN.length)]));
        }
        TreeSet<String> tags = new TreeSet<>();
        for (int i = random.nextInt(2, 6); i > 0; i--) {
            tags.add(word() + "-" + random.nextInt(300));
        }
        long serial = random.nextLong(1L << 40);
        int kind = random.nextInt(3);
        return Metadata.EMPTY.with(Field.TYPE, TYPES[random.nextInt(TYPES.length)]).with(Field.TITLE, title.toString())
                .with(Field.AUTHORS, authors).with(Field.YEAR, 1970 + random.nextInt(57)).with(Field.VENUE, VENUES[random.nextInt(VENUES.length)])
                .with(Field.VOLUME, Integer.toString(1 + random.nextInt(60))).with(Field.TAGS, tags)
                .with(Field.DOI, kind == 0 ? "10.5555/seed." + Long.toString(serial, 36) : null)
                .with(Field.URL, kind == 1 ? "https://papers.example.org/seed/" + Long.toString(serial, 36) : null);
    }

    private String word() {
        return WORDS[random.nextInt(WORDS.length)];
    }
}
