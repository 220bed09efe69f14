package dev.idiom.events;

import java.text.Normalizer;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Set;

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

    /** The distinct folded words of {@code text}, at most 190 characters each. */
    public static Set<String> words(String text) {
        Set<String> words = new LinkedHashSet<>();
        for (String w : fold(text).split(" ")) {
            if (!w.isEmpty()) {
                words.add(w.length() > 190 ? w.substring(0, 190) : w);
            }
        }
        return words;
    }
}
