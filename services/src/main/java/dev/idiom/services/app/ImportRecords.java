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
    /** An account's pull, as a sync runs it (its rules, deletions and holds): {@code ConsistencyEngine.importAccount}. */
    public interface AccountImport {
        ImportSummary run(AnnotationTool tool, boolean fromStart, Progress progress);
    }

    private final Pull pull;
    private final Tools tools;
    private final AccountImport accounts;

    public ImportRecords(Pull pull, Tools tools, AccountImport accounts) {
        this.pull = pull;
        this.tools = tools;
        this.accounts = accounts;
    }

    /**
     * Imports what changed since the last import from the configured tool account {@code name} (or
     * all): the same pull a sync runs, so the deletions it meets are applied (or held) rather than
     * passed over by the account's cursor.
     */
    public ImportSummary importAccount(String name, boolean fromStart, Progress progress) {
        return accounts.run(tools.open(name), fromStart, progress);
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
