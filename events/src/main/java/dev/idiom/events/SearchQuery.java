package dev.idiom.events;

import java.util.UUID;

/**
 * A search over DEs; null criteria match everything.
 *
 * @param tag a tag (folded: case and accents ignored)
 * @param author an author's family name (folded)
 * @param words words that must all occur in the title (folded)
 * @param cursor the last entity id of the previous page, or null
 * @param limit page size, 1–200
 */
public record SearchQuery(String tag, String author, String words, String cursor, int limit) {
    public SearchQuery {
        if (limit < 1 || limit > 200) {
            throw new InvalidValueException("limit must be between 1 and 200, got " + limit);
        }
        if (cursor != null && !cursor.isBlank()) {
            try {
                UUID.fromString(cursor);
            } catch (IllegalArgumentException e) {
                throw new InvalidValueException("cursor is not one this service gave out: " + cursor);
            }
        }
    }
}
