package dev.idiom.wrappers.bibtex;

import java.nio.charset.Charset;
import java.nio.charset.CharsetEncoder;
import java.text.Normalizer;
import java.util.Map;

/**
 * Text for a file whose charset cannot hold every character (a JabRef file in ISO 8859-1 or
 * windows-1252 that is sent "Łukasiewicz"): each character the charset cannot encode is written as
 * LaTeX writes it, so nothing becomes "?". Accented letters go through Unicode's canonical
 * decomposition (the JDK's {@link Normalizer}): a base letter and its combining accents become
 * LaTeX's accent commands ({@code {\'e}}, {@code {\v{c}}}); the few letters Unicode does not
 * decompose have LaTeX's own commands ({@code {\l}}, {@code {\o}}, {@code {\ss}}). What LaTeX has no
 * command for is written as the charset's replacement. {@link LatexReader} reads the same commands
 * back, so what this writes reads back as the same text.
 */
final class LatexAccents {
    private LatexAccents() {}

    /** Combining marks (Unicode's block U+0300…) and LaTeX's accent command for each. */
    static final Map<Character, String> ACCENTS = Map.ofEntries(Map.entry('\u0300', "`"), Map.entry('\u0301', "'"),
            Map.entry('\u0302', "^"), Map.entry('\u0303', "~"), Map.entry('\u0304', "="), Map.entry('\u0306', "u"), Map.entry('\u0307', "."),
            Map.entry('\u0308', "\""), Map.entry('\u030A', "r"), Map.entry('\u030B', "H"), Map.entry('\u030C', "v"), Map.entry('\u0323', "d"),
            Map.entry('\u0327', "c"), Map.entry('\u0328', "k"), Map.entry('\u0331', "b"));
    /** Letters without a decomposition, and LaTeX's command for each. */
    static final Map<Character, String> LETTERS = Map.ofEntries(Map.entry('ł', "\\l"), Map.entry('Ł', "\\L"), Map.entry('ø', "\\o"),
            Map.entry('Ø', "\\O"), Map.entry('ß', "\\ss"), Map.entry('æ', "\\ae"), Map.entry('Æ', "\\AE"), Map.entry('œ', "\\oe"),
            Map.entry('Œ', "\\OE"), Map.entry('å', "\\aa"), Map.entry('Å', "\\AA"), Map.entry('ı', "\\i"), Map.entry('đ', "\\dj"),
            Map.entry('Đ', "\\DJ"));

    /** {@code text} with every character {@code charset} cannot encode written as LaTeX. */
    static String encodable(String text, Charset charset) {
        CharsetEncoder encoder = charset.newEncoder();
        if (encoder.canEncode(text)) {
            return text;
        }
        StringBuilder out = new StringBuilder(text.length() + 16);
        for (int i = 0; i < text.length(); ) {
            int cp = text.codePointAt(i);
            String ch = new String(Character.toChars(cp));
            i += ch.length();
            out.append(encoder.canEncode(ch) ? ch : latex(ch, encoder));
        }
        return out.toString();
    }

    private static String latex(String ch, CharsetEncoder encoder) {
        if (ch.length() == 1 && LETTERS.containsKey(ch.charAt(0))) {
            return "{" + LETTERS.get(ch.charAt(0)) + "}";
        }
        String d = Normalizer.normalize(ch, Normalizer.Form.NFD);
        String base = d.substring(0, Character.charCount(d.codePointAt(0)));
        String written = LETTERS.containsKey(base.charAt(0)) ? LETTERS.get(base.charAt(0)) : base.equals("i") && d.length() > 1 ? "\\i" : base;
        for (int j = base.length(); j < d.length(); j++) {
            String accent = ACCENTS.get(d.charAt(j));
            if (accent != null) {
                written = "\\" + accent + (Character.isLetter(accent.charAt(0)) ? "{" + written + "}" : written.startsWith("\\") ? "{" + written + "}" : written);
            }
        }
        if (!encoder.canEncode(written)) {
            return "?"; // no LaTeX for it and not in the charset: the charset's own replacement, as before
        }
        return written.equals(base) ? base : "{" + written + "}";
    }
}
