package dev.idiom.events;

import java.text.Normalizer;
import java.util.Locale;

/** Text folded for matching: lower case, accents and punctuation removed. */
public final class Normalized {
    private Normalized() {}

    public static String fold(String text) {
        if (text == null) {
            return "";
        }
        String decomposed = Normalizer.normalize(text, Normalizer.Form.NFD).replaceAll("\\p{M}+", "");
        return decomposed.toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}\\p{N}]+", " ").strip();
    }
}
