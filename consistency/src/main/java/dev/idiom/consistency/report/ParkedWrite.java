package dev.idiom.consistency.report;

import java.util.UUID;

/**
 * A write a tool refused for good, parked until the DE changes or a curator retries it: which record
 * (its DE, its title, its copy there, or none yet for a copy not made), the tool's own words, and
 * how many times it was tried.
 */
public record ParkedWrite(UUID entityId, String title, String remoteId, String reason, int attempts) {
    /** What a curator can do about it. */
    public static final String ADVICE = "fix the record in Idiom (a change retries it at once) or in the tool, then retry the account's parked writes";
}
