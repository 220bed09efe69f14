package dev.idiom.events;

import java.util.regex.Pattern;

/**
 * A search over DEs; null criteria match everything.
 *
 * @param text free text, ranked: every word must occur in some field (title, authors, venue,
 *     abstract, tags, notes), typos and word beginnings tolerated, "quoted phrases" kept whole
 * @param tag a tag (folded: case and accents ignored), exact
 * @param author an author's family name (folded), exact
 * @param yearFrom lowest year, inclusive
 * @param yearTo highest year, inclusive (before {@code yearFrom}: an empty range, nothing matches)
 * @param type a record type (article, book, …)
 * @param venue a venue (folded), exact
 * @param tool a tool the DE has a replica in
 * @param cursor the {@code next} of the previous page, or null
 * @param limit page size, 1–200
 * @param privateRecords the asker may see private DEs whole; otherwise hidden DEs are not found, counted or faceted, and
 *     DEs with private parts are matched by their public parts only ({@link Visibility})
 */
public record SearchQuery(String text, String tag, String author, Integer yearFrom, Integer yearTo, String type, String venue, String tool,
                          String cursor, int limit, boolean privateRecords) {

    /** A search by a key that sees private records. */
    public SearchQuery(String text, String tag, String author, Integer yearFrom, Integer yearTo, String type, String venue, String tool,
                       String cursor, int limit) {
        this(text, tag, author, yearFrom, yearTo, type, venue, tool, cursor, limit, true);
    }
    /** The longest criterion accepted: longer than any tag, name or title could be. */
    public static final int MAX_CRITERION = 1000;
    /** A cursor as this service writes them: searcher generation, score bits, entity id. */
    public static final String CURSOR_PATTERN = "^[0-9a-f]{1,16}\\.[0-9a-f]{1,8}\\.[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$";
    private static final Pattern CURSOR = Pattern.compile(CURSOR_PATTERN);

    public SearchQuery {
        String[][] criteria = {{"q", text}, {"tag", tag}, {"author", author}, {"type", type}, {"venue", venue}, {"tool", tool}};
        for (String[] criterion : criteria) {
            if (criterion[1] != null && Field.longerThan(criterion[1], MAX_CRITERION)) {
                throw new InvalidValueException(criterion[0] + " is at most " + MAX_CRITERION + " characters");
            }
        }
        if (limit < 1 || limit > 200) {
            throw new InvalidValueException("limit must be between 1 and 200, got " + limit);
        }
        if (cursor != null && !cursor.isEmpty() && !CURSOR.matcher(cursor).matches()) {
            throw new InvalidValueException("cursor is not one this service gave out: " + cursor);
        }
        text = blankToNull(text);
        tag = blankToNull(tag);
        author = blankToNull(author);
        type = Field.currentType(blankToNull(type));
        venue = blankToNull(venue);
        tool = blankToNull(tool);
        cursor = blankToNull(cursor);
    }

    /** The first page of a plain text search. */
    public static SearchQuery text(String text, int limit) {
        return new SearchQuery(text, null, null, null, null, null, null, null, null, limit);
    }

    /** The same search, the page after {@code next}. */
    public SearchQuery after(String next) {
        return new SearchQuery(text, tag, author, yearFrom, yearTo, type, venue, tool, next, limit, privateRecords);
    }

    /** The same search by a key that may ({@code true}) or may not see private records. */
    public SearchQuery seeingPrivate(boolean may) {
        return new SearchQuery(text, tag, author, yearFrom, yearTo, type, venue, tool, cursor, limit, may);
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s;
    }

    /** How the {@code tool} filter names one account of a tool: its kind and its account as the copies name it. */
    public static String toolAccount(String tool, String account) {
        return tool + "/" + (account == null ? "" : account);
    }
}
