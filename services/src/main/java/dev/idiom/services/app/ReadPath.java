package dev.idiom.services.app;

import dev.idiom.events.InvalidValueException;

/** Where MoreInfo reads from: the cache (read-through, the default) or straight from the database. */
public enum ReadPath {
    CACHE, DB;

    public static ReadPath parse(String s) {
        if (s == null || s.isBlank() || s.equalsIgnoreCase("cache")) {
            return CACHE;
        }
        if (s.equalsIgnoreCase("db")) {
            return DB;
        }
        throw new InvalidValueException("source must be 'cache' or 'db', got '" + s + "'");
    }
}
