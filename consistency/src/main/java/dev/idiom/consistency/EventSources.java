package dev.idiom.consistency;

import dev.idiom.wrappers.AnnotationTool;

/** How the engine's events name where they came from, cut to the source column's size (200). */
final class EventSources {
    static final int MAX = 200;

    private EventSources() {}

    /** A record that came from (or was met in) the tool account: imports, pulls, merges met by a push, unlinks. */
    static String replica(AnnotationTool tool) {
        return cut("replica:" + tool.kind() + ":" + tool.account());
    }

    /** A push's acknowledgement. */
    static String push(String kind) {
        return cut("sync:push:" + kind);
    }

    /** An upload that made a new copy. */
    static String upload(String kind) {
        return cut("upload:" + kind);
    }

    /** A copy made, or removed, because an account's replication rule asked for it. */
    static String mirror(String kind) {
        return cut("mirror:" + kind);
    }

    /** A copy removed because its DE went to Idiom's trash, or made again because it came back. */
    static String deletion(String kind) {
        return cut("deleted:" + kind);
    }

    /** Copies unlinked because their tool account was removed. */
    static String accountRemoved(AnnotationTool tool) {
        return cut("removed:" + tool.kind() + ":" + tool.account());
    }

    /** True for an unlink that says nothing of what a curator wants in the account (a rule's removal, a deletion's, the account's removal). */
    static boolean byIdiom(String source) {
        return source != null && (source.startsWith("mirror:") || source.startsWith("removed:") || source.startsWith("deleted:"));
    }

    private static String cut(String s) {
        return s.length() > MAX ? s.substring(0, MAX) : s;
    }
}
