package dev.idiom.events;

/**
 * Major event: a record was imported from a tool, or created directly ({@code tool} "idiom").
 * The first event of a DE; on an existing DE it links one more replica and fills the DE's empty
 * fields from the record (tags are united), never overwriting a value the DE has.
 *
 * @param metadata the record's full canonical metadata, as the tool had it
 * @param tool the annotation tool it came from ("idiom" when created directly)
 * @param account which account or file of that tool (null when created directly)
 * @param remoteId its id in that tool (the new DE's id when created directly)
 * @param remoteVersion the tool's version or signature of the record (null if the tool has none)
 * @param identityHint the tool's id of the work across its users (BibSonomy's interhash), or null
 * @param shadow the record in the tool's own form, kept for write-backs (null if unknown)
 * @param privateCopy the record is private in its tool
 */
public record RecordImported(Metadata metadata, String tool, String account, String remoteId, String remoteVersion, String identityHint,
        String shadow, boolean privateCopy) implements EntityEvent, ReplicaEvent {

    public RecordImported(Metadata metadata, String tool, String account, String remoteId, String remoteVersion, String identityHint, String shadow) {
        this(metadata, tool, account, remoteId, remoteVersion, identityHint, shadow, false);
    }

    /** A record created directly in Idiom. */
    public RecordImported(Metadata metadata, String tool, String remoteId) {
        this(metadata, tool, null, remoteId, null, null, null);
    }

    /** A record from a tool that gives no identity hint. */
    public RecordImported(Metadata metadata, String tool, String account, String remoteId, String remoteVersion) {
        this(metadata, tool, account, remoteId, remoteVersion, null, null);
    }

    /**
     * True when the record came from an annotation tool (and so forms a replica): every tool, another
     * Idiom instance included (its account is its address); not a record created directly here
     * (tool "idiom" with no account).
     */
    public boolean fromTool() {
        return !"idiom".equals(tool) || account != null && !account.isEmpty();
    }
}
