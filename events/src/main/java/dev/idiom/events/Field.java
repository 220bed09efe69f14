package dev.idiom.events;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * The fields of a DE's canonical metadata (DESIGN.md), with the one definition of what a valid
 * value of each is. Values are {@code String}, {@code Integer} (year), {@code List<Author>}
 * (authors) or {@code SortedSet<String>} (tags); {@code null} clears a field.
 */
public enum Field {
    TYPE("type"), TITLE("title"), AUTHORS("authors"), YEAR("year"), VENUE("venue"), VOLUME("volume"),
    PAGES("pages"), DOI("doi"), URL("url"), ABSTRACT("abstract"), TAGS("tags"), NOTES("notes");

    /** The work types a DE can have. */
    public static final Set<String> TYPES = Set.of("article", "inproceedings", "book", "thesis", "report", "webpage", "misc");
    private static final int MAX_TEXT = 20_000;
    private static final int MAX_SHORT = 1_000;
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    private final String jsonName;

    Field(String jsonName) {
        this.jsonName = jsonName;
    }

    public String jsonName() {
        return jsonName;
    }

    public static Field named(String name) {
        for (Field f : values()) {
            if (f.jsonName.equals(name)) {
                return f;
            }
        }
        throw new InvalidValueException("unknown field '" + name + "'; fields are " + Arrays.stream(values()).map(Field::jsonName).toList());
    }

    /** Validates and converts a JSON value (null or JSON null clears the field). */
    public Object fromJson(JsonNode node) {
        if (node == null || node.isNull()) {
            return this == TAGS ? new TreeSet<String>() : this == AUTHORS ? List.of() : null;
        }
        return switch (this) {
            case YEAR -> {
                if (!node.isIntegralNumber()) {
                    throw new InvalidValueException("year must be a whole number, got " + node);
                }
                yield validYear(node.asLong());
            }
            case AUTHORS -> {
                if (!node.isArray()) {
                    throw new InvalidValueException("authors must be an array of {family, given}");
                }
                List<Author> authors = new ArrayList<>();
                for (JsonNode a : node) {
                    if (a.isTextual()) {
                        authors.add(Author.parse(a.asText()));
                    } else if (a.isObject() && a.path("family").isTextual()) {
                        authors.add(new Author(a.path("family").asText(), a.path("given").asText("")));
                    } else {
                        throw new InvalidValueException("each author must be {\"family\": …, \"given\": …}, got " + a);
                    }
                }
                yield List.copyOf(authors);
            }
            case TAGS -> {
                if (!node.isArray()) {
                    throw new InvalidValueException("tags must be an array of strings");
                }
                SortedSet<String> tags = new TreeSet<>();
                for (JsonNode t : node) {
                    if (!t.isTextual()) {
                        throw new InvalidValueException("each tag must be a string, got " + t);
                    }
                    tags.add(validTag(t.asText()));
                }
                yield tags;
            }
            default -> {
                if (!node.isTextual() && !node.isNumber()) {
                    throw new InvalidValueException(jsonName + " must be a string, got " + node.getNodeType());
                }
                yield fromText(node.asText());
            }
        };
    }

    /**
     * Validates and converts a plain-text value, as SOAP's updateDE carries it: authors as
     * "Family, Given; Family, Given", tags separated by commas; empty text clears the field.
     */
    public Object fromText(String text) {
        String t = text == null ? "" : text.strip();
        switch (this) {
            case YEAR -> {
                if (t.isEmpty()) {
                    return null;
                }
                try {
                    return validYear(Long.parseLong(t));
                } catch (NumberFormatException e) {
                    throw new InvalidValueException("year must be a whole number, got '" + t + "'");
                }
            }
            case AUTHORS -> {
                List<Author> authors = new ArrayList<>();
                for (String part : t.split(";")) {
                    if (!part.isBlank()) {
                        authors.add(Author.parse(part));
                    }
                }
                return List.copyOf(authors);
            }
            case TAGS -> {
                SortedSet<String> tags = new TreeSet<>();
                for (String part : t.split(",")) {
                    if (!part.isBlank()) {
                        tags.add(validTag(part));
                    }
                }
                return tags;
            }
            case TYPE -> {
                if (t.isEmpty()) {
                    return null;
                }
                String type = t.toLowerCase(Locale.ROOT);
                if (!TYPES.contains(type)) {
                    throw new InvalidValueException("type must be one of " + new TreeSet<>(TYPES) + ", got '" + t + "'");
                }
                return type;
            }
            default -> {
                if (t.isEmpty()) {
                    return null;
                }
                return checkedText(jsonName, t, (this == ABSTRACT || this == NOTES) ? MAX_TEXT : MAX_SHORT);
            }
        }
    }

    /** The JSON form of a value of this field. */
    public JsonNode toJson(Object value) {
        if (value == null) {
            return JSON.nullNode();
        }
        return switch (this) {
            case YEAR -> JSON.numberNode((Integer) value);
            case AUTHORS -> {
                ArrayNode arr = JSON.arrayNode();
                for (Object o : (List<?>) value) {
                    Author a = (Author) o;
                    ObjectNode n = arr.addObject();
                    n.put("family", a.family());
                    n.put("given", a.given());
                }
                yield arr;
            }
            case TAGS -> {
                ArrayNode arr = JSON.arrayNode();
                ((Set<?>) value).forEach(tag -> arr.add((String) tag));
                yield arr;
            }
            default -> JSON.textNode((String) value);
        };
    }

    /** The plain-text form (the inverse of {@link #fromText}). */
    public String toText(Object value) {
        if (value == null) {
            return "";
        }
        return switch (this) {
            case AUTHORS -> String.join("; ", ((List<?>) value).stream().map(Object::toString).toList());
            case TAGS -> String.join(", ", ((Set<?>) value).stream().map(Object::toString).toList());
            default -> value.toString();
        };
    }

    /**
     * A text value within its length, and without characters XML 1.0 cannot carry (C0 controls
     * but tab and line breaks, U+FFFE, U+FFFF, unpaired surrogates): every value must be readable
     * over SOAP as over REST.
     */
    /** Longer than {@code max} characters as JSON Schema's maxLength and MySQL's VARCHAR count them: code points. */
    public static boolean longerThan(String t, int max) {
        return t.length() > max && t.codePointCount(0, t.length()) > max;
    }

    static String checkedText(String what, String t, int max) {
        if (longerThan(t, max)) {
            throw new InvalidValueException(what + " is longer than " + max + " characters");
        }
        for (int i = 0; i < t.length(); i++) {
            char c = t.charAt(i);
            boolean control = c < 0x20 && c != '\t' && c != '\n' && c != '\r';
            boolean unpaired = Character.isHighSurrogate(c) ? i + 1 >= t.length() || !Character.isLowSurrogate(t.charAt(++i)) : Character.isLowSurrogate(c);
            if (control || c == '\uFFFE' || c == '\uFFFF' || unpaired) {
                throw new InvalidValueException(what + " holds the character U+" + String.format("%04X", (int) c)
                        + " at " + i + ", which XML cannot carry; remove it");
            }
        }
        return t;
    }

    private static Integer validYear(long year) {
        if (year < 1 || year > 9999) {
            throw new InvalidValueException("year must be between 1 and 9999, got " + year);
        }
        return (int) year;
    }

    static String validTag(String raw) {
        String tag = raw.strip();
        if (tag.isEmpty()) {
            throw new InvalidValueException("a tag cannot be empty");
        }
        return checkedText("a tag", tag, 190);
    }
}
