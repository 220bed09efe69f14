package dev.idiom.wrappers;

import dev.idiom.events.Metadata;

/**
 * A record as a tool holds it, in canonical form.
 *
 * @param remoteId the tool's id of it (a key, a URL, a hash)
 * @param version the tool's version or change signature (null if it has none)
 * @param identityHint the tool's own id of the work across its users (BibSonomy's interhash), or null
 */
public record RemoteRecord(String remoteId, String version, Metadata metadata, String identityHint) {

    public RemoteRecord(String remoteId, String version, Metadata metadata) {
        this(remoteId, version, metadata, null);
    }
}
