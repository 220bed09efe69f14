package dev.idiom.consistency.report;

/** Told after each record of an import or a pull: how far into the current page, and the tally so far. */
@FunctionalInterface
public interface Progress {
    Progress SILENT = (soFar, doneInPage, pageSize, lastPage) -> {};

    void step(ImportSummary soFar, int doneInPage, int pageSize, boolean lastPage);
}
