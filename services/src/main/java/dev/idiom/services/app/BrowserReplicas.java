package dev.idiom.services.app;

import dev.idiom.services.tools.ToolAccounts;
import dev.idiom.services.tools.Tools;
import dev.idiom.wrappers.ToolException;
import dev.idiom.wrappers.bookmarks.BrowserLock;
import dev.idiom.wrappers.bookmarks.BrowserFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Browsers as replicas, through floccus' "XBEL in a WebDAV folder" profile: an xbel-dav account
 * is a WebDAV folder Idiom serves ({@code /dav/NAME/}) holding the account's bookmark file and
 * whatever else a client puts there (floccus' lock and temporary files). Writing the bookmark file
 * is a pull of the account; a browser about to read it first gets what Idiom owes it (a push);
 * while a browser's lock is fresh, Idiom's writes wait (see {@link BrowserLock}).
 */
public final class BrowserReplicas {
    private static final Logger LOG = Logger.getLogger(BrowserReplicas.class.getName());
    /**
     * A lock put again this soon after the last put is a second browser racing the first (which
     * read "no lock" just before): floccus puts its own lock again only every two minutes.
     */
    static final Duration RACE = Duration.ofSeconds(60);

    /** An account's folder as a browser that gave its password sees it. */
    public record Folder(String account, Path root, String bookmarkFile) {
        public Path bookmarks() {
            return root.resolve(bookmarkFile);
        }

        /** The file is floccus' HTML profile's (Netscape bookmark HTML), not XBEL. */
        public boolean html() {
            return bookmarkFile.endsWith(".html");
        }

        /** The bookmark file's media type. */
        public String contentType() {
            return html() ? "text/html" : "application/xml";
        }

        /** floccus' lock file beside the bookmark file. */
        public Path lockFile() {
            return lock().file();
        }

        BrowserLock lock() {
            return BrowserLock.of(bookmarks());
        }
    }

    private final Tools tools;
    private final ReplicaSync sync;
    private final Clock clock;

    public BrowserReplicas(Tools tools, ReplicaSync sync, Clock clock) {
        this.tools = tools;
        this.sync = sync;
        this.clock = clock;
    }

    /** The folder of the xbel-dav account {@code name} if {@code password} is its password; empty otherwise (no such account, another kind, wrong). */
    public Optional<Folder> open(String name, String password) {
        if (name == null || password == null || !ToolAccounts.validName(name)) {
            return Optional.empty();
        }
        Optional<String> expected = tools.accounts().browserPassword(name);
        if (expected.isEmpty() || !MessageDigest.isEqual(expected.get().getBytes(StandardCharsets.UTF_8), password.getBytes(StandardCharsets.UTF_8))) {
            return Optional.empty();
        }
        String file = tools.accounts().list().stream().filter(a -> a.name().equals(name)).findFirst().orElseThrow().baseUrl();
        return Optional.of(new Folder(name, tools.accounts().files().davFolder(name), file));
    }

    /**
     * Why a lock cannot be put now, if it cannot: another browser put one moments ago. A fresh lock
     * put again later is its holder's own renewal, and an old one was abandoned.
     */
    public Optional<String> lockRefusal(Folder f) {
        Optional<Instant> held = f.lock().heldSince(clock.instant());
        if (held.isPresent() && held.get().plus(RACE).isAfter(clock.instant())) {
            return Optional.of("another browser is syncing " + f.bookmarkFile() + " (its lock was put at " + held.get() + "); try again when it is done");
        }
        return Optional.empty();
    }

    /** A browser is about to lock the file or read it without a lock: what Idiom owes the account is written first, unless a browser holds the file. */
    public void beforeBrowserReads(Folder f) {
        if (f.lock().heldSince(clock.instant()).isEmpty()) {
            syncNow(f.account(), "before a browser reads it");
        }
    }

    /** A browser reads the file under a lock (fresh or abandoned): the lock is its now, so Idiom's writes wait until it is done. */
    public void readUnderLock(Folder f) {
        try {
            if (java.nio.file.Files.exists(f.lock().file())) {
                f.lock().touch(clock.instant());
            }
        } catch (java.io.IOException gone) {
            // removed meanwhile: the sync it belonged to is over
        }
    }

    /**
     * A client wrote the bookmark file: read as XBEL or floccus' HTML (or refused with why, nothing written), put in
     * place, and pulled at once (its changes become events; deletions past the account's share are held).
     *
     * @throws dev.idiom.events.InvalidValueException the text is no XBEL Idiom can read
     */
    public void bookmarksWritten(Folder f, String text) {
        try {
            BrowserFile.of(f.bookmarks(), f.account(), clock).replace(text);
        } catch (ToolException unreadable) {
            throw new dev.idiom.events.InvalidValueException(unreadable.getMessage());
        }
        syncNow(f.account(), "after a browser wrote it");
    }

    /** A browser's sync is over (its lock deleted): what Idiom held back meanwhile is written. */
    public void browserDone(Folder f) {
        syncNow(f.account(), "after a browser's sync");
    }

    private void syncNow(String account, String when) {
        try {
            sync.sync(account, false, (s, done, size, last) -> { });
        } catch (RuntimeException failed) { // logged; the file stays as written, and the scheduled pull and pushes meet it again
            LOG.log(Level.WARNING, "sync of browsers' account " + account + " " + when + " failed: " + failed.getMessage());
        }
    }
}
