package dev.idiom.wrappers;

import dev.idiom.events.Metadata;
import java.util.Optional;

/**
 * One annotation tool (or file) holding copies of records: list what changed since a cursor,
 * fetch one, create, update with the last known remote version as a precondition where the tool
 * has one, delete. Failures are {@link ToolException}s.
 */
public interface AnnotationTool {

    /** The tool's kind: "zotero", "pinboard", "bibsonomy", "bibtex", "bookmarks", "idiom". */
    String kind();

    /** Which account, library or file of the tool this is (part of a replica's identity). */
    String account();

    /** How hard the tool may be driven. */
    ToolLimits limits();

    /**
     * Records changed since {@code cursor} (null: everything), one page at a time; pass the
     * returned cursor to continue. Records that cannot be read are listed as skipped, with a reason.
     */
    ChangePage changedSince(String cursor);

    Optional<RemoteRecord> fetch(String remoteId);

    /** Creates the record; returns it with its new remote id and version. */
    RemoteRecord create(Metadata metadata);

    /**
     * Replaces the record's fields. Some tools give the record a new id on every change
     * (BibSonomy's hashes): use the returned id from then on.
     *
     * @throws RemoteChangedException the record changed remotely since {@code knownVersion}
     */
    RemoteRecord update(String remoteId, Metadata metadata, String knownVersion);

    /** @throws RemoteChangedException the record changed remotely since {@code knownVersion} */
    void delete(String remoteId, String knownVersion);
}
