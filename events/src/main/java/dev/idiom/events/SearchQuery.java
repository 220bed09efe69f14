package dev.idiom.events;

import java.util.regex.Pattern;

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
    /** The longest criterion accepted: longer than any tag, name or title could be. */
    public static final int MAX_CRITERION = 1000;
    private static final Pattern ID = Pattern.compile("[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}");

    public SearchQuery {
        for (String[] criterion : new String[][] {{"tag", tag}, {"author", author}, {"q", words}}) {
            if (criterion[1] != null && Field.longerThan(criterion[1], MAX_CRITERION)) {
                throw new InvalidValueException(criterion[0] + " is at most " + MAX_CRITERION + " characters");
            }
        }
        if (limit < 1 || limit > 200) {
            throw new InvalidValueException("limit must be between 1 and 200, got " + limit);
        }
        // an id as this service writes them (UUID.fromString alone also takes forms like 1-1-1-1-1)
        if (cursor != null && !cursor.isEmpty() && !ID.matcher(cursor).matches()) {
            throw new InvalidValueException("cursor is not one this service gave out: " + cursor);
        }
    }
}
