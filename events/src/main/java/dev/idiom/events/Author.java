package dev.idiom.events;

import java.io.Serializable;

/** One author of a work, as the canonical metadata keeps it: family name and given names. */
public record Author(String family, String given) implements Serializable {
    public Author {
        family = family == null ? "" : family.strip();
        given = given == null ? "" : given.strip();
        if (family.isEmpty()) {
            throw new InvalidValueException("an author needs a family name");
        }
        Field.checkedText("an author's family name", family, 500);
        Field.checkedText("an author's given names", given, 500);
    }

    /** Parses "Family, Given" (or a bare "Family"). */
    public static Author parse(String text) {
        int comma = text.indexOf(',');
        return comma < 0 ? new Author(text, "") : new Author(text.substring(0, comma), text.substring(comma + 1));
    }

    @Override
    public String toString() {
        return given.isEmpty() ? family : family + ", " + given;
    }
}
