package dev.idiom.services.app.zotero;

/** A request the Zotero API refuses as a whole: the status it answers and its message (plain text, as api.zotero.org answers). */
public final class ZoteroApiException extends RuntimeException {
    private final int status;
    private final long libraryVersion;
    /** What a failed object's answer names besides its message (the API's {@code data}: {@code parentItem}, {@code collection} …). */
    private final java.util.Map<String, String> data;
    private final boolean wrongCredentials;
    private final long retryAfterSeconds;

    public ZoteroApiException(int status, String message) {
        this(status, message, -1);
    }

    /** A refusal of one object that names what it refers to, as the API's {@code failed[i].data}. */
    public ZoteroApiException(int status, String message, String name, String value) {
        this(status, message, -1, java.util.Map.of(name, value), false, 0);
    }

    /** @param libraryVersion sent as {@code Last-Modified-Version} (a 412 names the library's version), or -1 */
    public ZoteroApiException(int status, String message, long libraryVersion) {
        this(status, message, libraryVersion, java.util.Map.of(), false, 0);
    }

    private ZoteroApiException(int status, String message, long libraryVersion, java.util.Map<String, String> data, boolean wrongCredentials,
                               long retryAfterSeconds) {
        super(message, null, false, false);
        this.status = status;
        this.libraryVersion = libraryVersion;
        this.data = data;
        this.wrongCredentials = wrongCredentials;
        this.retryAfterSeconds = retryAfterSeconds;
    }

    /** A wrong key or password (403): counted against the client, which past a bound is throttled (429). */
    public static ZoteroApiException wrongCredentials(String message) {
        return new ZoteroApiException(403, message, -1, java.util.Map.of(), true, 0);
    }

    /** 429 Too Many Requests, to be retried after {@code seconds} ({@code Retry-After}). */
    public static ZoteroApiException throttled(String message, long seconds) {
        return new ZoteroApiException(429, message, -1, java.util.Map.of(), false, seconds);
    }

    public boolean isWrongCredentials() {
        return wrongCredentials;
    }

    /** Seconds the client should wait before it retries ({@code Retry-After}), or 0: no advice. */
    public long retryAfterSeconds() {
        return retryAfterSeconds;
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
