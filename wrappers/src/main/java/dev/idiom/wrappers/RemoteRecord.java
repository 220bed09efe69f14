package dev.idiom.wrappers;

import dev.idiom.events.Metadata;

/**
 * A record as a tool holds it, in canonical form.
 *
 * @param remoteId the tool's id of it (a key, a URL, a hash)
 * @param version the tool's version or change signature (null if it has none)
 */
public record RemoteRecord(String remoteId, String version, Metadata metadata) {}
