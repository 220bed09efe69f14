package dev.idiom.wrappers.bookmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * floccus' lock beside a bookmark file it syncs over WebDAV: {@code <file>.lock}, put when a sync
 * starts, put again every two minutes while it runs, deleted at its end. floccus takes a lock
 * whose last change is older than 15 minutes for abandoned, and so does Idiom: while the lock is
 * fresh the file is the browser's, and Idiom's own writes to it wait.
 *
 * @param file the lock file
 */
public record BrowserLock(Path file) {
    /** How long a lock holds after it was last put (floccus' {@code LOCK_TIMEOUT}). */
    public static final Duration FRESH = Duration.ofMinutes(15);

    /** The lock of this bookmark file. */
    public static BrowserLock of(Path bookmarkFile) {
        return new BrowserLock(bookmarkFile.resolveSibling(bookmarkFile.getFileName() + ".lock"));
    }

    /** When the lock was last put, if it is there and fresh at {@code now}. */
    public Optional<Instant> heldSince(Instant now) {
        try {
            if (!Files.isRegularFile(file)) {
                return Optional.empty();
            }
            Instant put = Files.getLastModifiedTime(file).toInstant();
            return put.plus(FRESH).isAfter(now) ? Optional.of(put) : Optional.empty();
        } catch (IOException gone) { // deleted between the two calls: not held
            return Optional.empty();
        }
    }

    /**
     * Refuses a write by Idiom while a browser holds the file: the browser read it when its sync
     * began and writes it whole at the end. The write is tried again soon (not parked).
     */
    public void refuseWritesWhileHeld(Instant now) {
        Optional<Instant> held = heldSince(now);
        if (held.isPresent()) {
            String name = file.getFileName().toString();
            throw new dev.idiom.wrappers.ToolException("a browser is syncing " + name.substring(0, name.length() - ".lock".length())
                    + " (floccus' lock, put " + held.get() + "): Idiom's changes are written once it is done", null, Duration.ofSeconds(5));
        }
    }

    /** Marks the lock as put at {@code at} (a sync that reads the file under a lock holds it). */
    public void touch(Instant at) throws IOException {
        Files.setLastModifiedTime(file, FileTime.from(at));
    }
}
