package dev.idiom.consistency.report;

/** What one owed push came to. */
public enum PushOutcome {
    /** The tool acknowledged the DE's content. */
    PUSHED,
    /**
     * The replica already held the DE's content in every field the tool keeps: no remote call; or a
     * write left it as it was (it cannot hold a value as the DE has it: that value is its own until the DE's changes).
     */
    ALREADY_IN_SYNC,
    /** The replica had changed remotely: its changes were merged into the DE; the push follows. */
    MERGED_REMOTE_CHANGES,
    /** The tool could not be reached or answered an error worth retrying: due again later. */
    RETRY_LATER,
    /** The tool refused the record for good, or no account holds the replica: parked with the reason. */
    PARKED,
    /** The DE or the replica no longer exists: nothing owed. */
    GONE,
    /** A copy was made in the account because its replication rule selects the DE. */
    COPIED,
    /** The account's copy was deleted there because its replication rule no longer selects the DE. */
    REMOVED,
    /** Nothing written: the account is receive-only, or its rule no longer asks for the copy, or a curator deleted that copy in the tool. */
    NOT_SENT
}
