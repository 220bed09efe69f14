package dev.idiom.wrappers;

/**
 * A record a tool returned that could not be read, nothing of it imported; or, when {@code imported},
 * a record that was imported without one of its values (kept aside: it stays whole in the tool's copy).
 */
public record Skipped(String remoteId, String reason, boolean imported) {
    public Skipped(String remoteId, String reason) {
        this(remoteId, reason, false);
    }

    /** A value of record {@code remoteId} past the canonical record's bound, left in the copy: {@code what} says which and where. */
    public static Skipped keptAside(String remoteId, String what) {
        return notice(remoteId, what);
    }

    /** Record {@code remoteId} was read, but not all of it as written ({@code what} says how): reported beside the values kept aside. */
    public static Skipped notice(String remoteId, String what) {
        return new Skipped(remoteId, what, true);
    }
}
