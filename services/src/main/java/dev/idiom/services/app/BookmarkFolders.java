package dev.idiom.services.app;

import dev.idiom.events.InvalidValueException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The files of browsers' accounts' folders and their rules, whatever protocol reaches them (WebDAV
 * today): the bookmark file is the account's library (writing it is a pull, reading it first writes
 * what Idiom owes the browsers), floccus' lock file holds Idiom's writes back while a browser syncs
 * and lets them go when deleted, every other file is kept as a file. One writer at a time in a
 * folder; a file is replaced whole (a reader sees the old or the new). A refusal says why and changes
 * nothing ({@link Refused}).
 */
public final class BookmarkFolders implements AutoCloseable {
    /** What Idiom's own temporary files end in: never listed, never a client's name. */
    public static final String TEMP = ".idiom-tmp";

    /** Why an operation on a folder was refused; the face says it in its protocol's words. */
    public enum Refusal { NOT_FOUND, EXISTS, CONFLICT, NOT_ALLOWED, PROTECTED, STALE, UNREADABLE, LOCKED, BAD_REQUEST }

    /** A refused operation on a folder: nothing was changed. */
    public static final class Refused extends RuntimeException {
        private final Refusal why;

        public Refused(Refusal why, String message) {
            super(message, null, false, false);
            this.why = why;
        }

        public Refusal why() {
            return why;
        }
    }

    /** A file or collection in an account's folder, and its path as clients name it (segments, decoded). */
    public record Item(BrowserReplicas.Folder folder, Path file, List<String> segments) {
        public boolean isRoot() {
            return segments.isEmpty();
        }

        public boolean isBookmarks() {
            return file.equals(folder.bookmarks());
        }

        public boolean isLock() {
            return file.equals(folder.lockFile());
        }

        public boolean exists() {
            return Files.exists(file);
        }

        public boolean isCollection() {
            return Files.isDirectory(file);
        }

        /** The item as clients name it ({@code a/b.xbel}). */
        public String name() {
            return String.join("/", segments);
        }

        String parentName() {
            return segments.size() <= 1 ? "/" : String.join("/", segments.subList(0, segments.size() - 1)) + "/";
        }

        /** The content type the item is served with. */
        public String contentType() {
            return isBookmarks() ? folder.contentType() + ";charset=UTF-8" : isLock() ? "text/html;charset=UTF-8" : "application/octet-stream";
        }
    }

    /** Checks a write against the item's current tag (null: no such file) before anything changes; throws {@link Refused} to stop it. */
    @FunctionalInterface
    public interface Precondition {
        /** No condition: the file is not even read for its tag. */
        Precondition NONE = tag -> { };

        void check(String currentTag);
    }

    private final BrowserReplicas browsers;
    private final Clock clock;
    /** One writer at a time in an account's folder: a lock checked and put, a file replaced and pulled. */
    private final Map<String, Object> writers = new ConcurrentHashMap<>();
    /** What a browser's finished sync lets Idiom write, in the background (the browser does not wait for it). */
    private final ExecutorService after = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "idiom-browsers-after-sync");
        t.setDaemon(true);
        return t;
    });

    public BookmarkFolders(BrowserReplicas browsers, Clock clock) {
        this.browsers = browsers;
        this.clock = clock;
    }

    /** The account's folder if the password opens it. */
    public Optional<BrowserReplicas.Folder> open(String account, String password) {
        return browsers.open(account, password);
    }

    public Item item(BrowserReplicas.Folder folder, List<String> segments) {
        Path file = folder.root();
        for (String s : segments) {
            file = file.resolve(s);
        }
        return new Item(folder, file, List.copyOf(segments));
    }

    /** Before the bookmark file is read: what Idiom owes the browsers goes in (held back while a browser's sync holds the lock). */
    public void beforeRead(Item item) {
        if (!item.isBookmarks()) {
            return;
        }
        if (Files.exists(item.folder().lockFile())) {
            browsers.readUnderLock(item.folder());
        } else {
            browsers.beforeBrowserReads(item.folder());
        }
    }

    /** Writes a file whole: the bookmark file is read as bookmarks and pulled (or refused, unreadable); the lock only when the folder allows it. */
    public boolean put(Item item, byte[] content, Precondition precondition) throws IOException {
        synchronized (writer(item.folder())) {
            if (item.isRoot() || item.isCollection()) {
                throw new Refused(Refusal.NOT_ALLOWED, "a collection cannot be written as a file");
            }
            if (!Files.isDirectory(item.file().getParent())) {
                throw new Refused(Refusal.CONFLICT, "the collection " + item.parentName() + " does not exist (MKCOL makes it)");
            }
            boolean existed = Files.isRegularFile(item.file());
            if (precondition != Precondition.NONE) {
                precondition.check(existed ? tag(item) : null);
            }
            if (item.isLock()) {
                lockAllowed(item.folder());
                if (!existed) {
                    browsers.beforeBrowserReads(item.folder()); // what Idiom owes the browsers goes in before the file is theirs
                }
                write(item.file(), content);
                Files.setLastModifiedTime(item.file(), FileTime.from(clock.instant()));
            } else if (item.isBookmarks()) {
                bookmarks(item, content);
            } else {
                write(item.file(), content);
            }
            return existed;
        }
    }

    /** Deletes a file or a whole collection; the lock's deletion lets Idiom's held writes go (in the background). */
    public void delete(Item item, boolean whole, Precondition precondition) throws IOException {
        synchronized (writer(item.folder())) {
            if (item.isRoot()) {
                throw new Refused(Refusal.PROTECTED, "the account's folder is not deleted over WebDAV");
            }
            if (item.isBookmarks()) {
                throw new Refused(Refusal.PROTECTED, item.folder().bookmarkFile() + " is the account's library: delete bookmarks in a browser, or remove the account");
            }
            if (!item.exists()) {
                throw new Refused(Refusal.NOT_FOUND, "no " + item.name() + " in this folder");
            }
            if (item.isCollection()) {
                if (!whole) {
                    throw new Refused(Refusal.BAD_REQUEST, "a collection is deleted whole: Depth must be infinity");
                }
            } else if (precondition != Precondition.NONE) {
                precondition.check(tag(item));
            }
            removeAll(item.file());
            if (item.isLock()) {
                after.execute(() -> browsers.browserDone(item.folder()));
            }
        }
    }

    public void makeCollection(Item item) throws IOException {
        synchronized (writer(item.folder())) {
            if (item.isRoot() || item.exists()) {
                throw new Refused(Refusal.EXISTS, item.name() + " already exists");
            }
            if (!Files.isDirectory(item.file().getParent())) {
                throw new Refused(Refusal.CONFLICT, "the collection " + item.parentName() + " does not exist");
            }
            Files.createDirectory(item.file());
        }
    }

    /**
     * Copies or moves an item within its folder; onto the bookmark file, the content is read as
     * bookmarks and pulled first (as floccus moves its temporary file there), refused before anything moved.
     *
     * @return whether the destination existed (and was replaced)
     */
    public boolean copyOrMove(Item from, Item to, boolean move, boolean overwrite, boolean shallow) throws IOException {
        synchronized (writer(from.folder())) {
            if (from.isRoot() || !from.exists()) {
                throw new Refused(from.isRoot() ? Refusal.PROTECTED : Refusal.NOT_FOUND, from.isRoot() ? "the account's folder stays where it is"
                        : "no " + from.name() + " in this folder");
            }
            if (move && from.isBookmarks()) {
                throw new Refused(Refusal.PROTECTED, from.folder().bookmarkFile() + " is the account's library and stays where it is (COPY it instead)");
            }
            if (to.isRoot() || to.file().equals(from.file()) || to.file().startsWith(from.file())) {
                throw new Refused(Refusal.PROTECTED, "a resource cannot be copied or moved onto itself or into itself");
            }
            if (!Files.isDirectory(to.file().getParent())) {
                throw new Refused(Refusal.CONFLICT, "the collection " + to.parentName() + " does not exist");
            }
            boolean existed = to.exists();
            if (existed && !overwrite) {
                throw new Refused(Refusal.STALE, to.name() + " exists and Overwrite is F");
            }
            if (from.isCollection() && move && shallow) {
                throw new Refused(Refusal.BAD_REQUEST, "a collection is moved whole: Depth must be infinity");
            }
            if (to.isBookmarks()) {
                if (from.isCollection()) {
                    throw new Refused(Refusal.CONFLICT, to.folder().bookmarkFile() + " is a file; a collection cannot take its place");
                }
                bookmarks(to, Files.readAllBytes(from.file()));
                if (move) {
                    Files.delete(from.file());
                }
                return existed;
            }
            if (to.isLock()) {
                lockAllowed(to.folder());
            }
            if (existed) {
                removeAll(to.file());
            }
            if (move) {
                Files.move(from.file(), to.file(), StandardCopyOption.ATOMIC_MOVE);
            } else {
                copy(from.file(), to.file(), shallow);
            }
            return existed;
        }
    }

    /** The current tag of a file: the same bytes, the same tag (an idle round keeps it). */
    public static String tag(Item item) throws IOException {
        return tag(Files.readAllBytes(item.file()));
    }

    /** A strong tag over the content (a quoted hex of its SHA-256's first half, as an HTTP ETag). */
    public static String tag(byte[] content) {
        try {
            byte[] d = MessageDigest.getInstance("SHA-256").digest(content);
            return "\"" + HexFormat.of().formatHex(d, 0, 16) + "\"";
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }

    /** A collection's members as clients see them (Idiom's own temporary files left out), in name order. */
    public static List<Path> children(Path dir) throws IOException {
        List<Path> out = new ArrayList<>();
        try (DirectoryStream<Path> s = Files.newDirectoryStream(dir)) {
            for (Path p : s) {
                if (!p.getFileName().toString().endsWith(TEMP)) {
                    out.add(p);
                }
            }
        }
        out.sort(null);
        return out;
    }

    @Override
    public void close() {
        after.shutdownNow();
    }

    private Object writer(BrowserReplicas.Folder folder) {
        return writers.computeIfAbsent(folder.account(), a -> new Object());
    }

    private void lockAllowed(BrowserReplicas.Folder folder) {
        Optional<String> refused = browsers.lockRefusal(folder);
        if (refused.isPresent()) {
            throw new Refused(Refusal.LOCKED, refused.get());
        }
    }

    /** The bookmark file written by a client: refused with why unless it is XBEL (or floccus' HTML) Idiom reads; then pulled. */
    private void bookmarks(Item item, byte[] content) {
        String text;
        try {
            text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(content)).toString();
        } catch (CharacterCodingException e) {
            throw new Refused(Refusal.UNREADABLE, "the bookmark file is not UTF-8 (XBEL files are written in UTF-8 here)");
        }
        try {
            browsers.bookmarksWritten(item.folder(), text);
        } catch (InvalidValueException unreadable) {
            throw new Refused(Refusal.UNREADABLE, unreadable.getMessage());
        }
    }

    /** Written whole to a temporary file, then moved over the old one: a reader sees one or the other. */
    private static void write(Path file, byte[] content) throws IOException {
        Path tmp = file.resolveSibling("." + file.getFileName() + TEMP);
        Files.write(tmp, content);
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    private static void copy(Path from, Path to, boolean shallow) throws IOException {
        if (!Files.isDirectory(from)) {
            Files.copy(from, to, StandardCopyOption.REPLACE_EXISTING);
            return;
        }
        Files.createDirectory(to);
        if (!shallow) {
            for (Path child : children(from)) {
                copy(child, to.resolve(child.getFileName().toString()), false);
            }
        }
    }

    private static void removeAll(Path p) throws IOException {
        if (Files.isDirectory(p, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            try (DirectoryStream<Path> s = Files.newDirectoryStream(p)) {
                for (Path child : s) {
                    removeAll(child);
                }
            }
        }
        Files.deleteIfExists(p);
    }
}
