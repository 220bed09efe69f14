package dev.idiom.consistency;

import dev.idiom.events.InvalidValueException;

/**
 * Which side wins when a field was changed both in Idiom and in a replica since they last synced:
 * {@code prefer-idiom} (the default: Idiom's value stays), {@code prefer-remote}, or
 * {@code last-writer-wins} (the side changed later wins, by the DE's last change and the tool's
 * modification time; Idiom wins when the tool gives no time), or {@code tool:KIND} (that kind of
 * tool wins against Idiom; Idiom wins against the others), or {@code ask} (nobody wins yet: Idiom's
 * value stays in the DE, and the field is written to no copy until a curator settles the conflict).
 * Whichever wins, both values are kept in a {@code ConflictResolved} event.
 */
public record ConflictPolicy(String name) {
    public static final ConflictPolicy PREFER_IDIOM = new ConflictPolicy("prefer-idiom");
    public static final ConflictPolicy PREFER_REMOTE = new ConflictPolicy("prefer-remote");
    public static final ConflictPolicy LAST_WRITER_WINS = new ConflictPolicy("last-writer-wins");
    public static final ConflictPolicy ASK = new ConflictPolicy(dev.idiom.events.ConflictResolved.ASK);

    public ConflictPolicy {
        if (name == null || !(name.equals("prefer-idiom") || name.equals("prefer-remote") || name.equals("last-writer-wins") || name.equals("ask")
                || name.matches("tool:[a-z]{1,16}"))) {
            throw new InvalidValueException("a conflict policy is prefer-idiom, prefer-remote, last-writer-wins, ask or tool:KIND (e.g. tool:zotero), got '"
                    + name + "'");
        }
    }

    /** The policy called {@code name}; null (not given) is {@link #PREFER_IDIOM}. */
    public static ConflictPolicy named(String name) {
        return name == null ? PREFER_IDIOM : new ConflictPolicy(name);
    }

    /** True if the replica's value wins against Idiom's for a replica in a tool of {@code toolKind}. */
    public boolean remoteWins(String toolKind) {
        return remoteWins(toolKind, null, null);
    }

    /**
     * As above; under last-writer-wins the replica wins if it was changed after Idiom's last change.
     *
     * @param idiomChangedAt when the DE last changed (null if unknown)
     * @param remoteChangedAt when the tool says the record last changed (null if the tool does not say)
     */
    public boolean remoteWins(String toolKind, java.time.Instant idiomChangedAt, java.time.Instant remoteChangedAt) {
        if (name.equals("last-writer-wins")) {
            return idiomChangedAt != null && remoteChangedAt != null && remoteChangedAt.isAfter(idiomChangedAt);
        }
        return name.equals("prefer-remote") || name.equals("tool:" + toolKind);
    }

    @Override
    public String toString() {
        return name;
    }
}
