package dev.idiom.wrappers.bibtex;

import org.jbibtex.ConcateValue;
import org.jbibtex.CrossReferenceValue;
import org.jbibtex.LiteralValue;
import org.jbibtex.ReferenceValue;
import org.jbibtex.Value;

/**
 * How long a value is once its {@code @string} macros are expanded, counted without expanding them
 * and given up past a cap: forty macros each doubling the one before ({@code s1 = s0 # s0}) are a
 * 1 KB file that expands to a terabyte, which jbibtex's {@code toUserString} would try to build.
 */
final class ExpandedLength {
    /** The longest field read, in characters once expanded. */
    static final int MAX_FIELD_CHARS = 1 << 20;
    /** Macros within macros followed at most this deep (jbibtex resolves a macro only to one defined before it, so this is generous). */
    private static final int MAX_DEPTH = 256;

    private ExpandedLength() {}

    /** True if {@code v} expands to more than {@code cap} characters (or nests deeper than any real file does). */
    static boolean exceeds(Value v, long cap) {
        return length(v, cap, 0) > cap;
    }

    private static long length(Value v, long cap, int depth) {
        if (depth > MAX_DEPTH) {
            return cap + 1;
        }
        return switch (v) {
            case null -> 0;
            case LiteralValue l -> l.getString() == null ? 0 : l.getString().length();
            case ReferenceValue r -> r.getString() == null ? (r.getValue() == null ? 0 : length(r.getValue(), cap, depth + 1))
                    : length(r.getString().getValue(), cap, depth + 1);
            case ConcateValue c -> {
                long left = length(c.getLeft(), cap, depth + 1);
                yield left > cap ? left : left + length(c.getRight(), cap - left, depth + 1);
            }
            case CrossReferenceValue x -> length(x.getValue(), cap, depth + 1);
            default -> 0;
        };
    }
}
