package dev.idiom.consistency.report;

/**
 * A record imported without one of its values, which was longer than Idiom's record holds and
 * stays whole in the tool's copy.
 *
 * @param what which value, and where ("entry citavi: field comment: 27000 characters, past the record's 20000 …")
 */
public record KeptAside(String remoteId, String what) {}
