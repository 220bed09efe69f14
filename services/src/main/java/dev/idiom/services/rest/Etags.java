package dev.idiom.services.rest;

import dev.idiom.events.InvalidValueException;

/** ETags are the DE's version in quotes ("7"); these read If-Match / If-None-Match. */
final class Etags {
    private Etags() {}

    /** True if the header lists this version (or is *). Weak tags compare equal here. */
    static boolean matches(String header, int version) {
        for (String tag : header.split(",")) {
            String t = tag.strip();
            if (t.equals("*") || unquote(t).equals(Integer.toString(version))) {
                return true;
            }
        }
        return false;
    }

    private static final java.util.regex.Pattern OURS = java.util.regex.Pattern.compile("(W/)?\"[0-9]{1,9}\"");

    /** The version an If-Match names: one ETag as this service gives them out ("3" or W/"3"), else 400. */
    static int version(String ifMatch) {
        String t = ifMatch.strip();
        if (!OURS.matcher(t).matches()) {
            throw new InvalidValueException("If-Match must be one ETag as this service gives them, e.g. \"3\" (W/\"3\" too), got " + ifMatch);
        }
        return Integer.parseInt(unquote(t));
    }

    private static String unquote(String t) {
        if (t.startsWith("W/")) {
            t = t.substring(2);
        }
        if (t.length() >= 2 && t.startsWith("\"") && t.endsWith("\"")) {
            t = t.substring(1, t.length() - 1);
        }
        return t;
    }
}
