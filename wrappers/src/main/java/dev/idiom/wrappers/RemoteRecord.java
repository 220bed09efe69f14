package dev.idiom.wrappers;

import dev.idiom.events.Metadata;

/**
 * A record as a tool holds it, in canonical form, with the tool's own form of it beside.
 *
 * @param remoteId the tool's id of it (a key, a URL, a hash)
 * @param version the tool's version or change signature (null if it has none)
 * @param identityHint the tool's own id of the work across its users (BibSonomy's interhash), or null
 * @param shadow the record exactly as the tool returned it, in the tool's own form (JSON, XML),
 *     opaque outside its adapter; a write-back starts from it so that what Idiom does not model
 *     (collections, privacy, keys, extra fields) survives. Null when unknown.
 * @param privateCopy the record is private in the tool (a Pinboard bookmark not shared, a BibSonomy
 *     post in no public group, a bookmark marked PRIVATE, every record of an account kept private)
 */
public record RemoteRecord(String remoteId, String version, Metadata metadata, String identityHint, String shadow, boolean privateCopy) {

    public RemoteRecord(String remoteId, String version, Metadata metadata, String identityHint, String shadow) {
        this(remoteId, version, metadata, identityHint, shadow, false);
    }

    /** The same record, private. */
    public RemoteRecord asPrivate() {
        return withPrivateCopy(true);
    }

    /** The same record, private or not. */
    public RemoteRecord withPrivateCopy(boolean p) {
        return privateCopy == p ? this : new RemoteRecord(remoteId, version, metadata, identityHint, shadow, p);
    }

    public RemoteRecord(String remoteId, String version, Metadata metadata) {
        this(remoteId, version, metadata, null, null);
    }

    public RemoteRecord(String remoteId, String version, Metadata metadata, String identityHint) {
        this(remoteId, version, metadata, identityHint, null);
    }
}
