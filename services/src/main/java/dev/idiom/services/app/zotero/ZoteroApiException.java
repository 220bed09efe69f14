package dev.idiom.services.app.zotero;

/** A request the Zotero API refuses as a whole: the status it answers and its message (plain text, as api.zotero.org answers). */
public final class ZoteroApiException extends RuntimeException {
    private final int status;
    private final long libraryVersion;

    public ZoteroApiException(int status, String message) {
        this(status, message, -1);
    }

    /** @param libraryVersion sent as {@code Last-Modified-Version} (a 412 names the library's version), or -1 */
    public ZoteroApiException(int status, String message, long libraryVersion) {
        super(message, null, false, false);
        this.status = status;
        this.libraryVersion = libraryVersion;
    }

    public int status() {
        return status;
    }

    public long libraryVersion() {
        return libraryVersion;
    }
}
