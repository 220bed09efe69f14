package dev.idiom.wrappers;

import dev.idiom.events.ValueTooLongException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * A tool's record read within the canonical record's bounds without dropping the record: a value
 * longer than the record holds (a Zotero item's licence past 1,000 characters, a quotation past
 * 20,000 in a .bib entry) is left out of what Idiom reads, and said. The copy keeps it: a write
 * changes only what changed between what was synced and what is wanted, and neither holds it.
 */
public final class RecordBounds {
    /** The most values one record may have kept aside; past it the record is refused as before. */
    private static final int MOST = 20;

    private RecordBounds() {}

    /** What was read, and each value kept aside ("rights: 1,204 characters, past the record's 1,000"). */
    public record Read<T>(T value, List<String> keptAside) {}

    /**
     * Builds a record from {@code raw}; where the build refuses a value as too long, the raw value
     * that causes it (among those {@code longerThan} names for the bound, each tried alone) is left
     * out by {@code without} and the build runs again. Any other refusal is the build's own.
     *
     * @param longerThan the names of raw values longer than a bound
     * @param length a raw value's length, in code points
     */
    public static <R, T> Read<T> read(R raw, Function<R, T> build, BiFunction<R, Integer, List<String>> longerThan, BiFunction<R, String, R> without,
                                      BiFunction<R, String, Integer> length) {
        List<String> aside = new ArrayList<>();
        R current = raw;
        while (true) {
            try {
                return new Read<>(build.apply(current), List.copyOf(aside));
            } catch (ValueTooLongException tooLong) {
                String culprit = aside.size() >= MOST ? null : culprit(current, tooLong, build, longerThan, without);
                if (culprit == null) {
                    throw tooLong;
                }
                aside.add(culprit + ": " + length.apply(current, culprit) + " characters, past the record's " + tooLong.max()
                        + " (kept in the copy, not read into Idiom)");
                current = without.apply(current, culprit);
            }
        }
    }

    private static <R, T> String culprit(R current, ValueTooLongException tooLong, Function<R, T> build, BiFunction<R, Integer, List<String>> longerThan,
                                         BiFunction<R, String, R> without) {
        for (String candidate : longerThan.apply(current, tooLong.max())) {
            try {
                build.apply(without.apply(current, candidate));
                return candidate;
            } catch (ValueTooLongException again) {
                if (!again.what().equals(tooLong.what())) {
                    return candidate; // that refusal is gone: another value's is next
                }
            } catch (RuntimeException other) {
                return candidate; // gone too; the next build says what else it refuses
            }
        }
        return null;
    }
}
