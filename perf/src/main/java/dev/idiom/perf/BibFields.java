package dev.idiom.perf;

import java.text.Normalizer;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The entries of a .bib text as the measurement compares them: key → field name (lower case) → the
 * value as written, without its outer delimiters, and {@code @type}. A reader of its own, brace- and
 * quote-aware, so that the measure does not see entries through the adapter it measures.
 */
final class BibFields {
    private BibFields() {}

    static Map<String, Map<String, String>> entries(String text) {
        Map<String, Map<String, String>> out = new LinkedHashMap<>();
        int i = 0;
        int n = text.length();
        while ((i = text.indexOf('@', i)) >= 0) {
            int open = i + 1;
            while (open < n && (Character.isLetterOrDigit(text.charAt(open)) || text.charAt(open) == '_' || text.charAt(open) == '-')) {
                open++;
            }
            String type = text.substring(i + 1, open).toLowerCase(Locale.ROOT);
            while (open < n && Character.isWhitespace(text.charAt(open))) {
                open++;
            }
            if (open >= n || (text.charAt(open) != '{' && text.charAt(open) != '(') || Set.of("string", "comment", "preamble").contains(type)
                    || type.isEmpty()) {
                i = open;
                continue;
            }
            char close = text.charAt(open) == '{' ? '}' : ')';
            int comma = text.indexOf(',', open);
            if (comma < 0) {
                break;
            }
            String key = text.substring(open + 1, comma).strip();
            Map<String, String> fields = new LinkedHashMap<>();
            fields.put("@type", type);
            int p = comma + 1;
            while (p < n) {
                while (p < n && (Character.isWhitespace(text.charAt(p)) || text.charAt(p) == ',')) {
                    p++;
                }
                if (p >= n || text.charAt(p) == close) {
                    p++;
                    break;
                }
                int eq = text.indexOf('=', p);
                if (eq < 0) {
                    p = n;
                    break;
                }
                String name = text.substring(p, eq).strip().toLowerCase(Locale.ROOT);
                p = eq + 1;
                StringBuilder value = new StringBuilder();
                while (p < n) {
                    while (p < n && Character.isWhitespace(text.charAt(p))) {
                        p++;
                    }
                    if (p >= n) {
                        break;
                    }
                    char c = text.charAt(p);
                    if (c == '{') {
                        int depth = 0;
                        int start = p + 1;
                        for (; p < n; p++) {
                            depth += text.charAt(p) == '{' ? 1 : text.charAt(p) == '}' ? -1 : 0;
                            if (depth == 0) {
                                break;
                            }
                        }
                        value.append(text, start, Math.min(p, n));
                        p++;
                    } else if (c == '"') {
                        int start = p + 1;
                        int depth = 0;
                        for (p = start; p < n && (text.charAt(p) != '"' || depth > 0); p++) {
                            depth += text.charAt(p) == '{' ? 1 : text.charAt(p) == '}' ? -1 : 0;
                        }
                        value.append(text, start, Math.min(p, n));
                        p++;
                    } else {
                        int start = p;
                        while (p < n && !Character.isWhitespace(text.charAt(p)) && text.charAt(p) != ',' && text.charAt(p) != close
                                && text.charAt(p) != '#') {
                            p++;
                        }
                        value.append(text, start, p);
                    }
                    while (p < n && Character.isWhitespace(text.charAt(p))) {
                        p++;
                    }
                    if (p < n && text.charAt(p) == '#') {
                        p++;
                        continue;
                    }
                    break;
                }
                if (!name.isEmpty()) {
                    fields.put(name, value.toString());
                }
            }
            out.putIfAbsent(key, fields);
            i = p;
        }
        return out;
    }

    /** Text as compared: accents off, LaTeX commands and braces out, letters and digits only, lower case. */
    static String plain(String s) {
        String t = Normalizer.normalize(s, Normalizer.Form.NFD).replaceAll("\\p{M}", "").replaceAll("\\\\[A-Za-z]+", "");
        return t.replaceAll("[^\\p{L}\\p{N}]", "").toLowerCase(Locale.ROOT);
    }
}
