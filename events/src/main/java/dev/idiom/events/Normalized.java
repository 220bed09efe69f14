package dev.idiom.events;

import java.text.Normalizer;
import java.util.Locale;
import java.util.regex.Pattern;

/** Text folded for matching: lower case, accents and punctuation removed. */
public final class Normalized {
    // compiled once: folding runs for every field of every DE indexed and every match key looked up
    private static final Pattern MARKS = Pattern.compile("\\p{M}+");
    private static final Pattern NOT_LETTER_OR_DIGIT = Pattern.compile("[^\\p{L}\\p{N}]+");

    private Normalized() {}

    public static String fold(String text) {
        if (text == null) {
            return "";
        }
        String decomposed = MARKS.matcher(Normalizer.normalize(text, Normalizer.Form.NFD)).replaceAll("");
        return NOT_LETTER_OR_DIGIT.matcher(decomposed.toLowerCase(Locale.ROOT)).replaceAll(" ").strip();
    }
}
