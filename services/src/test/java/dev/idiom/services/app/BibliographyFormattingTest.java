package dev.idiom.services.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idiom.events.Author;
import dev.idiom.events.DigitalEntity;
import dev.idiom.events.Field;
import dev.idiom.events.InvalidValueException;
import dev.idiom.events.Metadata;
import dev.idiom.services.citations.Citations;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** Formatted bibliographies within bounds (issue 48, finding 3), with the real CSL processor. */
class BibliographyFormattingTest {
    private final Caller reader = new Caller("portal", Role.READER);
    private final Caller admin = new Caller("root", Role.ADMIN);

    private static List<DigitalEntity> page(int n, String titlePrefix) {
        List<DigitalEntity> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Metadata m = Metadata.EMPTY.with(Field.TYPE, "article-journal").with(Field.TITLE, titlePrefix + " " + i)
                    .with(Field.AUTHORS, List.of(new Author("Lovelace" + (i % 13), "Ada"))).with(Field.YEAR, 1990 + i % 30)
                    .with(Field.VENUE, "Journal of Bounded Work").with(Field.VOLUME, Integer.toString(i));
            out.add(new DigitalEntity(UUID.randomUUID(), 3, m, List.of(), Instant.EPOCH, Instant.EPOCH));
        }
        return out;
    }

    @Test
    void aKeyBelowAdminHasAtMostTheCapFormattedARequest() {
        BibliographyFormatting f = new BibliographyFormatting(new Citations(), 1, 50);
        InvalidValueException refused = assertThrows(InvalidValueException.class, () -> f.format(page(51, "Capped"), null, null, reader));
        assertTrue(refused.getMessage().contains("at most 50"), refused.getMessage());
        assertFalse(f.format(page(50, "Allowed"), null, null, reader).isBlank());
        assertFalse(f.format(page(51, "Admin's"), null, null, admin).isBlank(), "admins are not capped");
    }

    @Test
    void aKeyHasOneRequestFormattedAtATimeAndAnotherKeyIsNotHeldBack() throws Exception {
        BibliographyFormatting f = new BibliographyFormatting(new Citations(), 2, 5_000);
        List<DigitalEntity> large = page(3_000, "Long running");
        CompletableFuture<String> first = CompletableFuture.supplyAsync(() -> f.format(large, "apa", "en-US", reader));
        long until = System.nanoTime() + 10_000_000_000L;
        while (!f.formatting("portal") && !first.isDone() && System.nanoTime() < until) {
            Thread.onSpinWait();
        }
        assertTrue(f.formatting("portal"), "the first request is being formatted");
        ShareExceededException second = assertThrows(ShareExceededException.class, () -> f.format(page(2, "Second"), "apa", "en-US", reader));
        assertFalse(second.busy(), "429: this key has its share, the service is not full");
        assertFalse(f.format(page(2, "Other key"), "apa", "en-US", new Caller("other-portal", Role.READER)).isBlank(),
                "another key is served meanwhile");
        assertFalse(first.get().isBlank());
        assertFalse(f.formatting("portal"));
    }

    @Test
    void anAnswerIsCachedPerEntryVersionAndShownContent() {
        BibliographyFormatting f = new BibliographyFormatting(new Citations(), 1, 50);
        List<DigitalEntity> p = page(20, "Cached");
        String once = f.format(p, "apa", "en-US", reader);
        assertSame(once, f.format(p, "apa", "en-US", reader), "the same page at the same versions: the cached answer");
        DigitalEntity first = p.getFirst();
        DigitalEntity lessShown = new DigitalEntity(first.id(), first.version(), first.metadata().with(Field.TITLE, "Withheld title"), List.of(),
                Instant.EPOCH, Instant.EPOCH);
        List<DigitalEntity> view = new ArrayList<>(p);
        view.set(0, lessShown);
        String other = f.format(view, "apa", "en-US", reader);
        assertNotEquals(once, other, "another view of one version is another answer");
        assertEquals(false, other.contains("Cached 0."), other);
        assertNotEquals(once, f.format(p, "ieee", "en-US", reader), "another style, another answer");
    }
}
