package dev.idiom.services.rest;

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

    /** The version an If-Match names; a tag that is not one of ours names none (-1), so it cannot match: 412. */
    static int version(String ifMatch) {
        try {
            return Integer.parseInt(unquote(ifMatch.strip()));
        } catch (NumberFormatException e) {
            return -1;
        }
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
