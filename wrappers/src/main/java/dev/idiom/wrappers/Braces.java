package dev.idiom.wrappers;

import java.util.ArrayList;
import java.util.List;
import java.util.function.IntPredicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * BibTeX's braces, read as BibTeX and Biber read them: every {@code {} opens a group and every
 * {@code }} closes one, a backslash before it or not (a backslashed brace still counts). The one
 * scanner of brace depth that the BibTeX reader, writer and name parser use.
 */
public final class Braces {
    private Braces() {}

    /** The first index from {@code from} outside braces where {@code at} holds (never a brace), or -1; a stray closing brace is content. */
    public static int first(String s, int from, IntPredicate at) {
        return scan(s, from, at, false);
    }

    /** The index of the brace that closes the group opened at {@code open}, or -1 if it is never closed. */
    public static int closing(String s, int open) {
        return scan(s, open + 1, i -> false, true);
    }

    /** Whether every brace of {@code s} is closed in order (no closing brace before its opening one). */
    public static boolean balanced(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '}') {
                return false;
            }
            if (c == '{') {
                i = closing(s, i);
                if (i < 0) {
                    return false;
                }
            }
        }
        return true;
    }

    /** Whether {@code s} is one group from its first character to its last ({@code "{van} Gogh"} is not). */
    public static boolean wholeBraced(String s) {
        return s.length() >= 2 && s.charAt(0) == '{' && closing(s, 0) == s.length() - 1;
    }

    /**
     * {@code s} split where a separator begins outside braces: at each index {@code at} accepts where
     * {@code separator} (if not null) matches, the match taken out; else the one character.
     */
    public static List<String> split(String s, IntPredicate at, Pattern separator) {
        List<String> out = new ArrayList<>();
        Matcher m = separator == null ? null : separator.matcher(s);
        int from = 0;
        for (int i = first(s, 0, at); i >= 0; i = first(s, i + 1, at)) {
            if (m == null) {
                out.add(s.substring(from, i));
                from = i + 1;
            } else if (m.region(i, s.length()).lookingAt()) {
                out.add(s.substring(from, i));
                from = m.end();
                i = m.end() - 1;
            }
        }
        out.add(s.substring(from));
        return out;
    }

    /**
     * The closing parenthesis of an entry written {@code @type(key, …)}: the first {@code )} after
     * {@code open} outside braces and outside a quoted value, or -1.
     */
    public static int closingParenthesis(String s, int open) {
        for (int i = first(s, open + 1, j -> s.charAt(j) == ')' || s.charAt(j) == '"'); i >= 0; ) {
            if (s.charAt(i) == ')') {
                return i;
            }
            int quoteEnd = first(s, i + 1, j -> s.charAt(j) == '"');
            if (quoteEnd < 0) {
                return -1;
            }
            i = first(s, quoteEnd + 1, j -> s.charAt(j) == ')' || s.charAt(j) == '"');
        }
        return -1;
    }

    private static int scan(String s, int from, IntPredicate at, boolean groupEnds) {
        int depth = 0;
        for (int i = from; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '{') {
                depth++;
            } else if (c == '}') {
                if (depth == 0) {
                    if (groupEnds) {
                        return i;
                    }
                } else {
                    depth--;
                }
            } else if (depth == 0 && at.test(i)) {
                return i;
            }
        }
        return -1;
    }
}
