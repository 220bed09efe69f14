package dev.idiom.services.app.zotero;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Zotero's {@code parsedDate}: a free-text date's year, month and day as far as they are written (2014, 2014-03, 2014-03-07). */
public final class ZoteroDates {
    private static final Pattern ISO = Pattern.compile("(\\d{4})(?:-(\\d{1,2})(?:-(\\d{1,2}))?)?");
    private static final Pattern YEAR = Pattern.compile("\\b(\\d{4})\\b");
    private static final String[] MONTHS = {"jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"};

    private ZoteroDates() {}

    /** The parsed date, or "" when no year is written. */
    public static String parsed(String date) {
        if (date == null || date.isBlank()) {
            return "";
        }
        Matcher iso = ISO.matcher(date.strip());
        if (iso.lookingAt()) {
            return iso.group(1) + (iso.group(2) == null ? "" : "-" + two(iso.group(2)) + (iso.group(3) == null ? "" : "-" + two(iso.group(3))));
        }
        Matcher year = YEAR.matcher(date);
        if (!year.find()) {
            return "";
        }
        String lower = date.toLowerCase(java.util.Locale.ROOT);
        for (int m = 0; m < 12; m++) {
            if (lower.contains(MONTHS[m])) {
                Matcher day = Pattern.compile("\\b(\\d{1,2})\\b").matcher(lower.replace(year.group(1), ""));
                return year.group(1) + "-" + two(Integer.toString(m + 1)) + (day.find() ? "-" + two(day.group(1)) : "");
            }
        }
        return year.group(1);
    }

    /** A date as it sorts: its parsed form, padded. */
    static String sortable(String date) {
        String p = parsed(date);
        return p.isEmpty() ? "" : (p + "-00-00").substring(0, 10);
    }

    private static String two(String n) {
        return n.length() == 1 ? "0" + n : n;
    }
}
