package dev.idiom.wrappers;

import dev.idiom.events.Field;
import dev.idiom.events.Metadata;
import java.time.Instant;
import java.util.Optional;
import java.util.Set;

/**
 * An account whose whole library is private (a Zotero library nobody else reads, a file or a peer
 * the admin says is private): every record it gives is a private copy, whatever the tool says of it.
 */
public final class PrivateLibrary implements AnnotationTool {
    private final AnnotationTool tool;

    public PrivateLibrary(AnnotationTool tool) {
        this.tool = tool;
    }

    @Override
    public String kind() {
        return tool.kind();
    }

    @Override
    public boolean keepsPrivate() {
        return true;
    }

    @Override
    public String account() {
        return tool.account();
    }

    @Override
    public ToolLimits limits() {
        return tool.limits();
    }

    @Override
    public Set<Field> fieldsKept() {
        return tool.fieldsKept();
    }

    @Override
    public boolean versionNamesContent() {
        return tool.versionNamesContent();
    }

    @Override
    public boolean listingMayMissRecords() {
        return tool.listingMayMissRecords();
    }

    @Override
    public Metadata tagsAsRead(Metadata remote, Metadata synced) {
        return tool.tagsAsRead(remote, synced);
    }

    @Override
    public ChangePage changedSince(String cursor) {
        ChangePage p = tool.changedSince(cursor);
        return new ChangePage(p.records().stream().map(RemoteRecord::asPrivate).toList(), p.deleted(), p.skipped(), p.cursor(), p.more(),
                p.complete());
    }

    @Override
    public AnnotationTool answeringAtOnce() {
        AnnotationTool now = tool.answeringAtOnce();
        return now == tool ? this : new PrivateLibrary(now);
    }

    @Override
    public Optional<String> refusal(Metadata wanted) {
        return tool.refusal(wanted);
    }

    @Override
    public String probeId() {
        return tool.probeId();
    }

    @Override
    public String deleteKeeping(String remoteId, String knownVersion) {
        return tool.deleteKeeping(remoteId, knownVersion);
    }

    @Override
    public Optional<RemoteRecord> restore(String remoteId, String kept) {
        return tool.restore(remoteId, kept).map(RemoteRecord::asPrivate);
    }

    /** Zotero's trash serves a private library as any other (before, a private library's restore made a new copy). */
    @Override
    public Optional<RemoteRecord> restore(String remoteId) {
        return tool.restore(remoteId).map(RemoteRecord::asPrivate);
    }

    @Override
    public Optional<RemoteRecord> fetch(String remoteId) {
        return tool.fetch(remoteId).map(RemoteRecord::asPrivate);
    }

    @Override
    public RemoteRecord create(Metadata metadata, boolean keepPrivate) {
        return made(tool.create(metadata, true), keepPrivate);
    }

    @Override
    public boolean madeFor(RemoteRecord r, java.util.UUID origin) {
        return tool.madeFor(r, origin);
    }

    @Override
    public boolean namesOrigin() {
        return tool.namesOrigin();
    }

    @Override
    public RemoteRecord create(Metadata metadata, boolean keepPrivate, java.util.UUID origin) {
        return made(tool.create(metadata, true, origin), keepPrivate);
    }

    @Override
    public java.util.List<Made> createAll(java.util.List<NewCopy> copies) {
        java.util.List<Made> made = tool.createAll(copies.stream().map(c -> new NewCopy(c.metadata(), true, c.origin(), c.form())).toList());
        java.util.List<Made> out = new java.util.ArrayList<>();
        for (int i = 0; i < made.size(); i++) {
            Made m = made.get(i);
            out.add(m.record() == null ? m : new Made(made(m.record(), copies.get(i).keepPrivate()), null));
        }
        return out;
    }

    /**
     * A copy Idiom wrote here of a DE that is not private holds nothing private: the tool keeps it
     * private as it keeps the whole library, but the link does not make its DE private (privacy follows
     * the content), or whether a file that cannot keep records private gets the DE would depend on
     * which copy was made first.
     */
    private static RemoteRecord made(RemoteRecord r, boolean keepPrivate) {
        return r.withPrivateCopy(keepPrivate);
    }

    @Override
    public RemoteRecord create(NewCopy copy) {
        return made(tool.create(new NewCopy(copy.metadata(), true, copy.origin(), copy.form())), copy.keepPrivate());
    }

    @Override
    public boolean takesFormOf(String kind) {
        return tool.takesFormOf(kind);
    }

    @Override
    public RemoteRecord update(RemoteRecord known, Metadata wanted) {
        return made(tool.update(known, wanted), known.privateCopy()); // Idiom's write keeps the copy as private as it was
    }

    @Override
    public Metadata writable(Metadata wanted, Metadata known) {
        return tool.writable(wanted, known);
    }

    @Override
    public String tagAsWritten(String tag) {
        return tool.tagAsWritten(tag);
    }

    @Override
    public boolean succeeds(RemoteRecord now, RemoteRecord former) {
        return tool.succeeds(now, former);
    }

    @Override
    public Instant modifiedAt(RemoteRecord record) {
        return tool.modifiedAt(record);
    }

    @Override
    public void delete(String remoteId, String knownVersion) {
        tool.delete(remoteId, knownVersion);
    }
}
