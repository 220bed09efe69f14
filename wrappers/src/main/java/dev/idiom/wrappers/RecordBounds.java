package dev.idiom.wrappers;

import dev.idiom.events.Field;
import dev.idiom.events.InvalidValueException;
import dev.idiom.events.UncarriableCharacterException;
import dev.idiom.events.ValueTooLongException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * A tool's record read within the canonical record's bounds without dropping the record: a value
 * longer than the record holds (a Zotero item's licence past 1,000 characters, a quotation past
 * 20,000 in a .bib entry), or holding a character XML cannot carry (a stray U+0001 in an abstract),
 * is left out of what Idiom reads, and said. The copy keeps it: a write
 * changes only what changed between what was synced and what is wanted, and neither holds it.
 */
public final class RecordBounds {
    /** The most values one record may have kept aside; past it the record is refused as before. */
    private static final int MOST = 20;

    private RecordBounds() {}

    /** What was read, and each value kept aside ("rights: 1,204 characters, past the record's 1,000"). */
    public record Read<T>(T value, List<String> keptAside) {}

    /**
     * Builds a record from {@code raw}; where the build refuses a value as too long, or as holding a
     * character XML cannot carry, the raw value that causes it (among those {@code texts} shows past
     * the bound, or holding such a character, each tried alone) is left out by {@code without} and the
     * build runs again. Any other refusal is the build's own.
     *
     * @param texts the raw record's values by name, as text
     */
    public static <R, T> Read<T> read(R raw, Function<R, T> build, Function<R, Map<String, String>> texts, BiFunction<R, String, R> without) {
        List<String> aside = new ArrayList<>();
        R current = raw;
        while (true) {
            try {
                return new Read<>(build.apply(current), List.copyOf(aside));
            } catch (ValueTooLongException | UncarriableCharacterException refused) {
                Map<String, String> values = texts.apply(current);
                List<String> candidates = new ArrayList<>();
                values.forEach((name, text) -> {
                    if (refused instanceof ValueTooLongException tooLong ? Field.longerThan(text, tooLong.max()) : Field.uncarriableAt(text) >= 0) {
                        candidates.add(name);
                    }
                });
                String culprit = aside.size() >= MOST ? null : culprit(current, refused, build, candidates, without);
                if (culprit == null) {
                    throw refused;
                }
                String text = values.get(culprit);
                aside.add(culprit + ": " + (refused instanceof ValueTooLongException tooLong
                        ? text.codePointCount(0, text.length()) + " characters, past the record's " + tooLong.max()
                        : String.format("holds the character U+%04X, which XML cannot carry", (int) text.charAt(Field.uncarriableAt(text))))
                        + " (kept in the copy, not read into Idiom)");
                current = without.apply(current, culprit);
            }
        }
    }

    private static <R, T> String culprit(R current, InvalidValueException refused, Function<R, T> build, List<String> candidates,
                                         BiFunction<R, String, R> without) {
        for (String candidate : candidates) {
            try {
                build.apply(without.apply(current, candidate));
                return candidate;
            } catch (InvalidValueException again) {
                if (!again.getMessage().equals(refused.getMessage())) {
                    return candidate; // that refusal is gone: another value's is next
                }
            } catch (RuntimeException other) {
                return candidate; // gone too; the next build says what else it refuses
            }
        }
        return null;
    }
}
