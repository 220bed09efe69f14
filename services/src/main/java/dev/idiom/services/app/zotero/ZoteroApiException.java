package dev.idiom.services.app.zotero;

/** A request the Zotero API refuses as a whole: the status it answers and its message (plain text, as api.zotero.org answers). */
public final class ZoteroApiException extends RuntimeException {
    private final int status;
    private final long libraryVersion;
    /** What a failed object's answer names besides its message (the API's {@code data}: {@code parentItem}, {@code collection} …). */
    private final java.util.Map<String, String> data;

    public ZoteroApiException(int status, String message) {
        this(status, message, -1);
    }

    /** A refusal of one object that names what it refers to, as the API's {@code failed[i].data}. */
    public ZoteroApiException(int status, String message, String name, String value) {
        super(message, null, false, false);
        this.status = status;
        this.libraryVersion = -1;
        this.data = java.util.Map.of(name, value);
    }

    /** @param libraryVersion sent as {@code Last-Modified-Version} (a 412 names the library's version), or -1 */
    public ZoteroApiException(int status, String message, long libraryVersion) {
        super(message, null, false, false);
        this.status = status;
        this.libraryVersion = libraryVersion;
        this.data = java.util.Map.of();
    }

    public java.util.Map<String, String> data() {
        return data;
    }

    public int status() {
        return status;
    }

    public long libraryVersion() {
        return libraryVersion;
    }
}
