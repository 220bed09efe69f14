package dev.idiom.wrappers;

import dev.idiom.events.Metadata;
import java.util.Optional;

/**
 * One annotation tool (or file) holding copies of records: list what changed since a cursor,
 * fetch one, create, update with the last known remote version as a precondition where the tool
 * has one, delete. Failures are {@link ToolException}s.
 */
public interface AnnotationTool {

    /** The tool's kind: "zotero", "pinboard", "bibsonomy", "bibtex", "bookmarks", "xbel-dav", "idiom", "zotero-api" (a Zotero library Idiom serves). */
    String kind();

    /** Which account, library or file of the tool this is (part of a replica's identity). */
    String account();

    /** How hard the tool may be driven. */
    ToolLimits limits();

    /**
     * The canonical fields this tool holds. A sync compares and merges only these: a field the tool
     * cannot store is neither taken as cleared by it nor pushed to it (it stays in Idiom and in the
     * replica's shadow). Default: every field but the tool kinds' extras (each kind keeps its own).
     */
    default java.util.Set<dev.idiom.events.Field> fieldsKept() {
        return java.util.EnumSet.complementOf(java.util.EnumSet.copyOf(dev.idiom.events.Field.EXTRAS));
    }

    /**
     * Records changed since {@code cursor} (null: everything), one page at a time; pass the
     * returned cursor to continue. Records that cannot be read are listed as skipped, with a reason.
     */
    ChangePage changedSince(String cursor);

    Optional<RemoteRecord> fetch(String remoteId);

    /**
     * Creates the record (private, where the tool has privacy, unless the account is configured
     * otherwise); returns it with its new remote id, version and shadow.
     */
    default RemoteRecord create(Metadata metadata) {
        return create(metadata, false);
    }

    /**
     * Creates the record; {@code keepPrivate}: the DE is private somewhere, so the record is
     * created private wherever the tool can say so, whatever the account's setting for new records.
     */
    RemoteRecord create(Metadata metadata, boolean keepPrivate);

    /**
     * Creates the copy of the DE {@code origin}. A tool that takes identities made by the client
     * (Zotero's item keys) derives the record's from the DE and the account, so a create made again
     * after a lost answer or a crash meets the first record instead of making a second. Default:
     * {@link #create(Metadata, boolean)}.
     */
    default RemoteRecord create(Metadata metadata, boolean keepPrivate, java.util.UUID origin) {
        return create(metadata, keepPrivate);
    }

    /**
     * True if {@code r} is the record Idiom made here as the copy of DE {@code origin} (its id
     * derives from the DE, as Zotero's item keys do): read back before its link was recorded (the
     * answer lost, a crash between), it is that DE's copy, never a new record. Default: false (the
     * tool keeps no origin).
     */
    default boolean madeFor(RemoteRecord r, java.util.UUID origin) {
        return false;
    }

    /**
     * True if the records Idiom makes here carry their DE's origin ({@link #madeFor} can tell them,
     * and making one again meets the first). Where they do not (a file, a bookmark service), a copy
     * tried before is looked for among the records the account holds before it is made again.
     */
    default boolean namesOrigin() {
        return false;
    }

    /**
     * True if a record Idiom creates here can be kept private (Pinboard's {@code shared=no},
     * BibSonomy's private group, a bookmark's {@code PRIVATE}, a peer's private mark, an account set
     * private as a whole). A replication rule copies a private DE only where this is true. Default: false.
     */
    default boolean keepsPrivate() {
        return false;
    }

    /** A copy to make: its content, whether it must be private, and the DE it is a copy of. */
    /**
     * A copy to make; {@code form}: another copy of the DE as a tool of this one's form holds it (a
     * Zotero item's {@code data}, from another Zotero library), or null: what Idiom does not model
     * (tag types, a creator's field mode, {@code extra}'s lines) then travels from it.
     */
    record NewCopy(Metadata metadata, boolean keepPrivate, java.util.UUID origin, String form) {
        public NewCopy(Metadata metadata, boolean keepPrivate, java.util.UUID origin) {
            this(metadata, keepPrivate, origin, null);
        }
    }

    /** True if a record of a tool of {@code kind} is in this tool's own form (see {@link NewCopy#form}). */
    default boolean takesFormOf(String kind) {
        return false;
    }

    /** Makes one copy (see {@link NewCopy}). Default: {@link #create(Metadata, boolean, java.util.UUID)}, the form unused. */
    default RemoteRecord create(NewCopy copy) {
        return create(copy.metadata(), copy.keepPrivate(), copy.origin());
    }

    /** What making one copy came to: the record made, or why not ({@link RecordRefusedException}: for good; another {@link ToolException}: for now). */
    record Made(RemoteRecord record, ToolException failure) {}

    /**
     * Makes the copies in as few calls as the tool takes (Zotero: 50 items a request; a file: one
     * rewrite); one result per copy, in order. Default: one {@link #create(Metadata, boolean, java.util.UUID)} each.
     */
    default java.util.List<Made> createAll(java.util.List<NewCopy> copies) {
        java.util.List<Made> out = new java.util.ArrayList<>();
        for (NewCopy c : copies) {
            try {
                out.add(new Made(create(c.metadata(), c.keepPrivate(), c.origin()), null));
            } catch (ToolException failed) {
                out.add(new Made(null, failed));
            }
        }
        return out;
    }

    /**
     * What of {@code wanted} this tool would hold after a write, given the copy it holds now
     * ({@code known}: the state last synced, null for a new record): tags the tool would act on
     * are left out unless they came from this copy (see BibSonomy). A sync compares against
     * this, so a tag left out is not owed forever. Default: all of it.
     */
    default Metadata writable(Metadata wanted, Metadata known) {
        return wanted;
    }

    /**
     * The form this tool stores a tag in (Pinboard and BibSonomy separate tags by spaces, so a
     * space inside a tag is written "_"). A tag read back is turned into Idiom's form only through
     * the tags the copy was last synced with ({@link #tagsAsRead}), so a tag that has a "_" of its
     * own stays as it is: every tag is a fixpoint. A tag the tool cannot hold at all is left out by
     * {@link #writable}. Default: as it is.
     */
    default String tagAsWritten(String tag) {
        return tag;
    }

    /** The written form of tools that separate tags by spaces (Pinboard, BibSonomy): runs of white space inside a tag as one "_". */
    static String spacesAsUnderscores(String tag) {
        return tag.strip().replaceAll("\\s+", "_");
    }

    /**
     * {@code remote} with each tag that is the written form of a tag of {@code synced} (the copy as
     * last synced) read as that tag: what the copy holds, in Idiom's words.
     */
    default Metadata tagsAsRead(Metadata remote, Metadata synced) {
        if (synced == null || synced.tags().isEmpty()) {
            return remote;
        }
        java.util.Map<String, String> written = new java.util.HashMap<>();
        for (String t : synced.tags()) {
            String w = tagAsWritten(t);
            if (!w.equals(t)) {
                written.put(w, t);
            }
        }
        if (written.isEmpty() || remote.tags().stream().noneMatch(written::containsKey)) {
            return remote;
        }
        java.util.SortedSet<String> tags = new java.util.TreeSet<>();
        remote.tags().forEach(t -> tags.add(written.getOrDefault(t, t)));
        return remote.with(dev.idiom.events.Field.TAGS, tags);
    }

    /**
     * Writes the fields that differ between {@code known.metadata()} (the state last synced) and
     * {@code wanted} on top of {@code known.shadow()}, leaving everything else the record has as
     * it is. A field the record's type cannot hold is not sent. Some tools give the record a new
     * id on a change (BibSonomy's hashes, a Pinboard URL): use the returned id from then on.
     *
     * @param known the copy as last synced: remote id, version (the precondition), synced metadata, shadow
     * @throws RemoteChangedException the record changed remotely since {@code known.version()}
     */
    RemoteRecord update(RemoteRecord known, Metadata wanted);

    /**
     * True if {@code now}, listed under a new remote id, is the copy Idiom knew as {@code former}
     * (a tool that re-keys records on edits made in the tool itself). Default: ids are stable.
     */
    default boolean succeeds(RemoteRecord now, RemoteRecord former) {
        return false;
    }

    /**
     * When the tool says this record last changed, for last-writer-wins conflicts; null when the
     * tool does not say (then Idiom's value wins). Default: null.
     */
    default java.time.Instant modifiedAt(RemoteRecord record) {
        return null;
    }

    /** An ISO-8601 time as tools write them (an instant, or a local time with an offset), or null if it is none. */
    static java.time.Instant isoTime(String text) {
        if (text == null || text.isBlank()) {
            return null;
        }
        try {
            return java.time.OffsetDateTime.parse(text.strip()).toInstant();
        } catch (java.time.format.DateTimeParseException e) {
            return null;
        }
    }

    /** @throws RemoteChangedException the record changed remotely since {@code knownVersion} */
    void delete(String remoteId, String knownVersion);

    /**
     * True if the tool's version of a record names its content: read at the version it was last
     * synced at, a record holds what it held then (Zotero's item versions, a file entry's
     * fingerprint, Pinboard's change signature). A copy that reads otherwise at that version was
     * read otherwise by Idiom, not changed by anyone: it is re-based on the new reading, not merged
     * into its DE, so a better reading rewrites no library. Default false: a version that may stay
     * while the content changes (a change date to the second) leaves every difference to the merge.
     */
    default boolean versionNamesContent() {
        return false;
    }

    /**
     * True if a complete listing can leave out a record that exists (offset paging while records
     * are deleted shifts the pages): a record it does not list is fetched before it is taken for deleted.
     */
    default boolean listingMayMissRecords() {
        return false;
    }

    /**
     * Takes a record this tool keeps in its trash (after {@link #delete}) back out, as it now is;
     * empty if the tool has no trash or no longer has the record (the caller then makes a new copy).
     */
    default java.util.Optional<RemoteRecord> restore(String remoteId) {
        return java.util.Optional.empty();
    }

    /**
     * This tool for a caller who wants an answer now (a curator's sync, a dry run): a call the tool
     * allows only later fails at once ({@link ToolTurnException}, saying when) instead of waiting for
     * its turn, as the scheduled pulls do. Default: the tool itself (it has no such calls).
     */
    default AnnotationTool answeringAtOnce() {
        return this;
    }

    /**
     * Why this tool would refuse a record holding {@code wanted} as it stands, known before any call
     * (a Pinboard bookmark needs a URL), with what would let it through; empty when it would take it.
     * Creates refuse with this reason, and a dry run names the writes it would stop.
     */
    default java.util.Optional<String> refusal(Metadata wanted) {
        return java.util.Optional.empty();
    }

    /**
     * Checks, with one cheap read, that the tool answers to this account's key (a file: that it reads);
     * throws the tool's refusal ({@link ToolException}) when it does not.
     */
    default void verify() {
        fetch(probeId());
    }

    /** A remote id in this tool's form that names no record, for {@link #verify}'s read. */
    default String probeId() {
        return "idiom-account-check";
    }

    /**
     * {@link #delete}, keeping what a later {@link #restore(String, String)} needs to put the record
     * back as it was (a file entry's own text and its place), or null when the tool keeps it itself
     * (Zotero's trash) or cannot.
     */
    default String deleteKeeping(String remoteId, String knownVersion) {
        delete(remoteId, knownVersion);
        return null;
    }

    /**
     * The record back as it was before {@link #deleteKeeping} took it, from what that kept (null: as
     * {@link #restore(String)}); empty if it cannot be (the caller then makes a new copy).
     */
    default java.util.Optional<RemoteRecord> restore(String remoteId, String kept) {
        return restore(remoteId);
    }
}
