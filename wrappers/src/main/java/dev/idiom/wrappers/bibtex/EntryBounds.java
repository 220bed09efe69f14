package dev.idiom.wrappers.bibtex;

import dev.idiom.wrappers.Braces;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Where the entry that starts a stretch of a file ends, and what follows it there (by {@link Braces}, the one brace scanner). */
final class EntryBounds {
    /** {@code @type(} at the start of a stretch: an entry in parentheses, as BibTeX allows (and old files and Emacs write). */
    private static final Pattern PARENTHESIZED = Pattern.compile("\\s*@\\s*[A-Za-z]+\\s*\\(");

    private EntryBounds() {
    }

    /**
     * What follows the entry in a stretch of the file (from after its closing brace or parenthesis
     * to the end of the stretch, less the newline that ends the entry's line): comments and blank
     * lines before the next entry. Braces inside the entry are counted; quoted values may hold
     * braces only in pairs, as BibTeX requires.
     */
    static String afterEntry(String raw) {
        int end = entryEnd(raw);
        if (end < 0) {
            return "";
        }
        String rest = raw.substring(end);
        return rest.startsWith("\r\n") ? rest.substring(2) : rest.startsWith("\n") ? rest.substring(1) : rest;
    }

    /**
     * The stretch with an entry's parentheses read as braces, one character for one (jbibtex reads
     * {@code @article(key, …)} as a name): the closing one is the first {@code )} outside braces
     * and quotes. Anything else is returned as it is.
     */
    static String bracedForParsing(String chunk) {
        Matcher m = PARENTHESIZED.matcher(chunk);
        if (!m.lookingAt()) {
            return chunk;
        }
        int open = m.end() - 1;
        int close = Braces.closingParenthesis(chunk, open);
        return close < 0 ? chunk : chunk.substring(0, open) + "{" + chunk.substring(open + 1, close) + "}" + chunk.substring(close + 1);
    }

    /** Where the entry that starts a stretch ends (after its closing brace or parenthesis), or -1. */
    static int entryEnd(String raw) {
        int open = -1;
        for (int i = 0; i < raw.length(); i++) {
            char c = raw.charAt(i);
            if (c == '{' || c == '(') {
                open = i;
                break;
            }
        }
        if (open < 0) {
            return -1;
        }
        int close = raw.charAt(open) == '{' ? Braces.closing(raw, open) : Braces.closingParenthesis(raw, open);
        return close < 0 ? -1 : close + 1;
    }
}
