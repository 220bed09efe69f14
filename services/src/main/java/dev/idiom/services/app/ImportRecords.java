package dev.idiom.services.app;

import dev.idiom.consistency.Pull;
import dev.idiom.consistency.report.ImportOutcome;
import dev.idiom.consistency.report.ImportSummary;
import dev.idiom.consistency.report.Progress;
import dev.idiom.services.tools.Tools;
import dev.idiom.wrappers.AnnotationTool;
import dev.idiom.wrappers.RemoteRecord;
import java.nio.file.Path;

/**
 * The import use cases: a configured tool account's records (or what changed since the last
 * import), a local file's, or one record (download). Each record becomes a major event, merges
 * into the DE of the same work, or brings a replica's remote changes in; the engine's
 * {@link Pull} decides and writes.
 */
public final class ImportRecords {
    private final Pull pull;
    private final Tools tools;

    public ImportRecords(Pull pull, Tools tools) {
        this.pull = pull;
        this.tools = tools;
    }

    /** Imports what changed since the last import from the configured tool account {@code name} (or all). */
    public ImportSummary importAccount(String name, boolean fromStart, Progress progress) {
        return pull.importAll(tools.open(name), fromStart, progress);
    }

    /** Imports a whole file of this kind ({@code bibtex}, {@code bookmarks}). */
    public ImportSummary importFile(String kind, Path file, Progress progress) {
        return pull.importAll(tools.file(kind, file), true, progress);
    }

    /** Download: one record, by its remote id, from the configured tool account {@code name}. */
    public ImportOutcome download(String name, String remoteId) {
        return pull.download(tools.open(name), remoteId);
    }

    /** Imports from this tool (tests give tools of their own). */
    public ImportSummary importAll(AnnotationTool tool, boolean fromStart, Progress progress) {
        return pull.importAll(tool, fromStart, progress);
    }

    /** Download from this tool (tests give tools of their own). */
    public ImportOutcome download(AnnotationTool tool, String remoteId) {
        return pull.download(tool, remoteId);
    }

    /** One record from a tool (tests give tools of their own). */
    public ImportOutcome importOne(AnnotationTool tool, RemoteRecord r) {
        return pull.one(tool, r);
    }
}
