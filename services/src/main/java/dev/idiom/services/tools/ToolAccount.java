package dev.idiom.services.tools;

/**
 * A configured tool account as anyone may see it: never with its secret.
 *
 * @param name what imports and uploads call it
 * @param kind zotero, pinboard, bibsonomy, idiom, bibtex, bookmarks or xbel-dav (browsers through floccus)
 * @param baseUrl the API root (for bibtex and bookmarks the file's path; for xbel-dav the bookmark file's name in its WebDAV folder)
 * @param account the library ("users/123"), user name, or empty
 * @param hasSecret whether a key or token is stored for it
 * @param newRecords "private" (the default) or "public": how records Idiom creates there are shared,
 *     where the tool has privacy (Pinboard, BibSonomy)
 * @param conflictPolicy which side wins a field changed both in Idiom and in this account's replica
 * @param privateLibrary every record of this account is a private copy (see {@code Visibility})
 * @param replication which DEs the account should hold and which way copies flow
 */
public record ToolAccount(String name, String kind, String baseUrl, String account, boolean hasSecret, String newRecords, String conflictPolicy,
                          boolean privateLibrary, dev.idiom.consistency.MirrorRule replication) {
    /** The replication rule as the API shows it: "none", "all" or the filter. */
    public com.fasterxml.jackson.databind.JsonNode mirror() {
        return replication.view();
    }

    /** Which way copies flow: "both", "receive-only" or "send-only". */
    public String direction() {
        return replication.direction().text();
    }

    public String deletions() {
        return replication.deletions();
    }

    public boolean createsPrivate() {
        return !"public".equals(newRecords);
    }

    @Override
    public String toString() {
        return "ToolAccount[" + name + ", " + kind + ", " + baseUrl + ", " + account + ", secret " + (hasSecret ? "set" : "none") + ", new records "
                + newRecords + ", conflicts " + conflictPolicy
                + (privateLibrary ? ", private library" : "") + (replication.mirrors() ? ", mirror " + replication : "")
                + (replication.direction() == dev.idiom.consistency.MirrorRule.Direction.BOTH ? "" : ", " + replication.direction().text()) + "]";
    }
}
