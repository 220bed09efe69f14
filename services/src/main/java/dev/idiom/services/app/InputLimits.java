package dev.idiom.services.app;

import dev.idiom.events.Field;
import dev.idiom.events.InvalidValueException;
import dev.idiom.events.Metadata;
import java.util.Collection;
import java.util.Map;

/**
 * The configurable caps on what a caller may send (config keys {@code max-tags},
 * {@code max-authors} — for every list of names: authors, editors, translators — {@code max-json-depth}); field lengths are the domain's own
 * ({@link Field}). A write over a cap is refused whole, naming the cap.
 */
public record InputLimits(int maxTags, int maxAuthors, int maxJsonDepth) {
    public static final InputLimits DEFAULTS = new InputLimits(200, 500, 32);

    public void check(Metadata m) {
        for (Field f : Field.values()) {
            check(f, m.get(f));
        }
    }

    public void check(Map<Field, Object> values) {
        values.forEach(this::check);
    }

    /**
     * A list as the caller sent it, before duplicates collapse: the document says {@code maxItems}
     * of what is sent, so 201 copies of one tag are over a cap of 200 although they make one tag.
     */
    public void checkSent(Field f, int entries) {
        check(f, java.util.Collections.nCopies(entries, Boolean.TRUE));
    }

    private void check(Field f, Object value) {
        int cap = f == Field.TAGS ? maxTags : f.names() ? maxAuthors : Integer.MAX_VALUE; // max-authors caps every list of names
        if (value instanceof Collection<?> c && c.size() > cap) {
            throw new InvalidValueException(f.jsonName() + " has " + c.size() + " entries; at most " + cap + " are accepted (max-"
                    + (f == Field.TAGS ? "tags" : "authors") + ")");
        }
    }
}
