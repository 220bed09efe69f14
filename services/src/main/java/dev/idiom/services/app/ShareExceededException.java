package dev.idiom.services.app;

/**
 * Refused before any work, so others keep their share: the caller's key already has work of this
 * kind under way (429 {@code Throttled}), or every place for it is taken (503 {@code Busy}).
 * Either way the client may retry after a second.
 */
public final class ShareExceededException extends RuntimeException {
    private final boolean busy;

    public ShareExceededException(boolean busy, String message) {
        super(message);
        this.busy = busy;
    }

    /** True: every place is taken (503); false: this key has its share already (429). */
    public boolean busy() {
        return busy;
    }
}
