package dev.idiom.wrappers.bibtex;

import dev.idiom.wrappers.Braces;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A change to one entry written into the entry's own text: each changed field's value replaced
 * where it stands (in the delimiters it had), a removed field's line taken out, a new field added
 * after the last one in the entry's indentation and alignment, and every other byte left as it was
 * — so a version-controlled {@code .bib} shows a one-line diff for a one-field change.
 */
final class EntrySplice {
    /** Where one field sits in the entry's text. */
    private record Span(String name, int nameStart, int valueStart, int valueEnd) {}

    private final String text;
    private final int typeStart;
    private final int typeEnd;
    private final int keyStart;
    private final int keyEnd;
    private final List<Span> fields;
    private final int close;

    private EntrySplice(String text, int typeStart, int typeEnd, int keyStart, int keyEnd, List<Span> fields, int close) {
        this.text = text;
        this.typeStart = typeStart;
        this.typeEnd = typeEnd;
        this.keyStart = keyStart;
        this.keyEnd = keyEnd;
        this.fields = fields;
        this.close = close;
    }

    /** The entry at the start of {@code text} (up to its closing delimiter), or null when it cannot be read field by field. */
    static EntrySplice of(String text) {
        int at = text.indexOf('@');
        int open = at < 0 ? -1 : indexOfAny(text, "{(", at);
        if (open < 0) {
            return null;
        }
        char closer = text.charAt(open) == '{' ? '}' : ')';
        int typeStart = at + 1;
        while (typeStart < open && Character.isWhitespace(text.charAt(typeStart))) {
            typeStart++;
        }
        int typeEnd = typeStart;
        while (typeEnd < open && isNameChar(text.charAt(typeEnd))) {
            typeEnd++;
        }
        int keyEnd = open + 1;
        while (keyEnd < text.length() && text.charAt(keyEnd) != ',' && text.charAt(keyEnd) != closer) {
            keyEnd++;
        }
        if (keyEnd >= text.length()) {
            return null;
        }
        List<Span> fields = new ArrayList<>();
        int i = keyEnd;
        while (i < text.length()) {
            while (i < text.length() && (Character.isWhitespace(text.charAt(i)) || text.charAt(i) == ',')) {
                i++;
            }
            if (i >= text.length()) {
                return null;
            }
            if (text.charAt(i) == closer) {
                return new EntrySplice(text, typeStart, typeEnd, open + 1, keyEnd, fields, i);
            }
            int nameStart = i;
            while (i < text.length() && isNameChar(text.charAt(i))) {
                i++;
            }
            String name = text.substring(nameStart, i);
            while (i < text.length() && Character.isWhitespace(text.charAt(i))) {
                i++;
            }
            if (name.isEmpty() || i >= text.length() || text.charAt(i) != '=') {
                return null;
            }
            i++;
            while (i < text.length() && Character.isWhitespace(text.charAt(i))) {
                i++;
            }
            int valueStart = i;
            int valueEnd = valueEnd(text, i, closer);
            if (valueEnd < 0) {
                return null;
            }
            fields.add(new Span(name.toLowerCase(Locale.ROOT), nameStart, valueStart, valueEnd));
            i = valueEnd;
        }
        return null;
    }

    private static boolean isNameChar(char c) {
        return Character.isLetterOrDigit(c) || c == '_' || c == '-' || c == ':' || c == '.' || c == '+';
    }

    private static int indexOfAny(String s, String chars, int from) {
        for (int i = from; i < s.length(); i++) {
            if (chars.indexOf(s.charAt(i)) >= 0) {
                return i;
            }
        }
        return -1;
    }

    /** The end of a value: parts ({…}, "…", a word or number) joined by #, up to a comma or the entry's end at depth 0; -1 if unbalanced. */
    private static int valueEnd(String s, int i, char closer) {
        int last = i;
        while (i < s.length()) {
            char c = s.charAt(i);
            if (c == '{' || c == '"') {
                i = c == '{' ? Braces.closing(s, i) : Braces.first(s, i + 1, j -> s.charAt(j) == '"');
                if (i < 0) {
                    return -1;
                }
                last = ++i;
            } else if (c == ',' || c == closer) {
                return last;
            } else if (Character.isWhitespace(c) || c == '#') {
                i++;
            } else {
                while (i < s.length() && !Character.isWhitespace(s.charAt(i)) && s.charAt(i) != ',' && s.charAt(i) != closer && s.charAt(i) != '#') {
                    i++;
                }
                last = i;
            }
        }
        return -1;
    }

    /**
     * The entry's text with {@code changes} written in: field name (any case) → its new value as
     * written ({@code {…}} or a macro), or null to remove the field; {@code key}, if not null, as the
     * entry's new key. Fields are changed in place, removed with their line, added after the last;
     * null when the edits cannot all be made in place.
     */
    String with(Map<String, String> changes, String key) {
        return with(changes, key, null);
    }

    /** As above, with {@code type}, if not null, as the entry's new type (written where the old one stood, in the case it is given). */
    String with(Map<String, String> changes, String key, String type) {
        Map<String, String> pending = new LinkedHashMap<>();
        changes.forEach((k, v) -> pending.put(k.toLowerCase(Locale.ROOT), v));
        List<int[]> spans = new ArrayList<>(); // start, end, index into texts
        List<String> texts = new ArrayList<>();
        List<String> added = new ArrayList<>();
        for (Map.Entry<String, String> c : pending.entrySet()) {
            if (c.getValue() != null && fields.stream().noneMatch(f -> f.name().equals(c.getKey()))) {
                added.add(c.getKey());
            }
        }
        if (!added.isEmpty()) {
            int at = insertionPoint();
            spans.add(new int[] {at, at, texts.size()});
            texts.add(additions(added, pending));
        }
        for (Span f : fields) {
            if (pending.containsKey(f.name())) {
                String value = pending.get(f.name());
                int[] range = value == null ? lineOf(f) : new int[] {f.valueStart(), f.valueEnd()};
                spans.add(new int[] {range[0], range[1], texts.size()});
                texts.add(value == null ? "" : inOwnDelimiters(text.substring(f.valueStart(), f.valueEnd()), value));
            }
        }
        if (key != null) {
            spans.add(new int[] {keyStart, keyEnd, texts.size()});
            texts.add(key);
        }
        if (type != null) {
            spans.add(new int[] {typeStart, typeEnd, texts.size()});
            texts.add(type);
        }
        spans.sort((a, b) -> a[0] != b[0] ? Integer.compare(b[0], a[0]) : Integer.compare(b[1], a[1]));
        StringBuilder out = new StringBuilder(text);
        int floor = Integer.MAX_VALUE;
        for (int[] span : spans) {
            if (span[1] > floor) {
                return null; // two edits overlap (the last field removed and a field added after it): the caller formats the entry anew
            }
            out.replace(span[0], span[1], texts.get(span[2]));
            floor = span[0];
        }
        return out.toString();
    }

    /** A value the entry had in quotes stays in quotes when the new one can be (no quote inside). */
    private static String inOwnDelimiters(String old, String value) {
        if (old.startsWith("\"") && value.startsWith("{") && value.endsWith("}") && value.indexOf('"') < 0) {
            return "\"" + value.substring(1, value.length() - 1) + "\"";
        }
        return value;
    }

    /** From the start of the field's line (when it has one to itself) to after its comma and line break. */
    private int[] lineOf(Span f) {
        int start = f.nameStart();
        int lineStart = text.lastIndexOf('\n', start - 1) + 1;
        boolean alone = text.substring(lineStart, start).isBlank();
        int end = f.valueEnd();
        int j = end;
        while (j < text.length() && (text.charAt(j) == ' ' || text.charAt(j) == '\t')) {
            j++;
        }
        if (j < text.length() && text.charAt(j) == ',') {
            end = j + 1;
        }
        if (alone) {
            int k = end;
            while (k < text.length() && (text.charAt(k) == ' ' || text.charAt(k) == '\t')) {
                k++;
            }
            if (k < text.length() && text.charAt(k) == '\r') {
                k++;
            }
            if (k < text.length() && text.charAt(k) == '\n') {
                return new int[] {lineStart, k + 1};
            }
            return new int[] {lineStart, end};
        }
        while (end < text.length() && text.charAt(end) == ' ') {
            end++;
        }
        return new int[] {start, end};
    }

    /** After the last field (and its trailing comma, if it has one); right after the key in an entry without fields. */
    private int insertionPoint() {
        if (fields.isEmpty()) {
            return keyEnd;
        }
        int end = fields.getLast().valueEnd();
        int j = end;
        while (j < close && (text.charAt(j) == ' ' || text.charAt(j) == '\t')) {
            j++;
        }
        return j < close && text.charAt(j) == ',' ? j + 1 : end;
    }

    /** New fields in the entry's style: the last field's indentation, its column for "=", its line breaks, and a trailing comma if it has one. */
    private String additions(List<String> names, Map<String, String> values) {
        String newline = text.contains("\r\n") ? "\r\n" : "\n";
        String indent = "  ";
        int equalsColumn = -1;
        boolean trailingComma = false;
        if (!fields.isEmpty()) {
            Span last = fields.getLast();
            int lineStart = text.lastIndexOf('\n', last.nameStart() - 1) + 1;
            String before = text.substring(lineStart, last.nameStart());
            indent = before.isBlank() ? before : " ";
            int eq = text.indexOf('=', last.nameStart());
            equalsColumn = eq - lineStart;
            trailingComma = insertionPoint() != last.valueEnd();
        }
        boolean oneLine = !fields.isEmpty() && !text.substring(text.lastIndexOf('\n', fields.getLast().nameStart() - 1) + 1,
                fields.getLast().nameStart()).isBlank();
        StringBuilder b = new StringBuilder();
        for (String name : names) {
            String head = indent + name;
            int pad = equalsColumn - head.length();
            String field = head + (pad > 0 ? " ".repeat(pad) : " ") + "= " + values.get(name);
            if (oneLine) {
                b.append(trailingComma ? " " : ", ").append(field.strip()).append(trailingComma ? "," : "");
            } else {
                b.append(trailingComma ? "" : ",").append(newline).append(field).append(trailingComma ? "," : "");
            }
        }
        return b.toString();
    }
}
