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
        return tool.create(metadata, true).asPrivate();
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
        return tool.create(metadata, true, origin).asPrivate();
    }

    @Override
    public java.util.List<Made> createAll(java.util.List<NewCopy> copies) {
        return tool.createAll(copies.stream().map(c -> new NewCopy(c.metadata(), true, c.origin())).toList()).stream()
                .map(m -> m.record() == null ? m : new Made(m.record().asPrivate(), null)).toList();
    }

    @Override
    public RemoteRecord update(RemoteRecord known, Metadata wanted) {
        return tool.update(known, wanted).asPrivate();
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
