package dev.idiom.consistency.report;

/** A download named a record the tool account does not hold: 404 / fault {@code NotFound}, as an unknown DE is. */
public final class UnknownRemoteRecordException extends RuntimeException {
    public UnknownRemoteRecordException(String tool, String account, String remoteId) {
        super(tool + (account == null || account.isEmpty() ? "" : " " + account) + " has no record " + remoteId);
    }
}
