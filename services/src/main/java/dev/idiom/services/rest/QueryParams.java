package dev.idiom.services.rest;

import dev.idiom.events.InvalidValueException;
import java.util.regex.Pattern;

/**
 * Query parameters read as strictly as the OpenAPI document declares them: JAX-RS would take an
 * empty {@code limit=} as absent, {@code +5} as 5 and {@code allowDeletions=yes} as false.
 */
final class QueryParams {
    private static final Pattern WHOLE = Pattern.compile("-?[0-9]{1,19}");

    private QueryParams() {}

    /** A whole number within [min, max]; absent: {@code absent}. */
    static long whole(String name, String value, long absent, long min, long max) {
        if (value == null) {
            return absent;
        }
        if (!WHOLE.matcher(value).matches()) {
            throw new InvalidValueException(name + " must be a whole number, got '" + value + "'");
        }
        long v;
        try {
            v = Long.parseLong(value);
        } catch (NumberFormatException beyondLong) { // 19 digits past a long's range are past any range
            throw new InvalidValueException(name + " must be between " + min + " and " + max + ", got " + value);
        }
        if (v < min || v > max) {
            throw new InvalidValueException(name + " must be between " + min + " and " + max + ", got " + v);
        }
        return v;
    }

    /** A year (1–9999), or null when absent. */
    static Integer year(String name, String value) {
        return value == null ? null : (int) whole(name, value, 0, 1, 9999);
    }

    /** true or false; absent: false. */
    static boolean flag(String name, String value) {
        if (value == null) {
            return false;
        }
        return switch (value) {
            case "true" -> true;
            case "false" -> false;
            default -> throw new InvalidValueException(name + " is true or false, got '" + value + "'");
        };
    }
}
