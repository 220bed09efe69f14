package dev.idiom.wrappers.bookmarks;

import dev.idiom.events.Field;
import dev.idiom.events.Metadata;
import dev.idiom.wrappers.AnnotationTool;
import dev.idiom.wrappers.RemoteRecord;
import dev.idiom.wrappers.ToolLimits;
import java.nio.file.Path;
import java.time.Clock;
import java.util.EnumSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What a bookmark file browsers sync through floccus is, whichever of floccus' formats it is in
 * ({@link XbelFile}, {@link FloccusHtml}): an account's copies keyed by URL, with what floccus
 * keeps when it writes the file — URL, title, the folders a bookmark is in — and floccus' id
 * following a bookmark to a new URL; Idiom's writes wait while a browser holds the lock.
 */
public abstract sealed class BrowserFile implements AnnotationTool permits XbelFile, FloccusHtml {
    /** One monitor per file, whoever opened it: the engine's writes and a browser's whole-file replacement never interleave. */
    private static final Map<Path, Object> MONITORS = new ConcurrentHashMap<>();

    protected final Path file;
    protected final Clock clock;
    protected final Object monitor;
    private final String account;

    /** @param account the Idiom account the file belongs to (its copies' account) */
    BrowserFile(Path file, String account, Clock clock) {
        this.file = file.toAbsolutePath();
        this.account = account;
        this.clock = clock;
        this.monitor = MONITORS.computeIfAbsent(this.file, f -> new Object());
    }

    /**
     * The whole file as a browser (or another WebDAV client) wrote it, in place of what is there,
     * once it reads as this format; Idiom's writes are never interleaved with it.
     *
     * @throws dev.idiom.wrappers.ToolException the text is not a file of this format Idiom can read (nothing is written)
     */
    public final void replace(String text) {
        check(text);
        synchronized (monitor) {
            FileText.write(file, text);
        }
    }

    /** The file of a browsers' account: floccus' HTML profile's for a name ending in .html, else XBEL. */
    public static BrowserFile of(Path file, String account, Clock clock) {
        return file.getFileName().toString().endsWith(".html") ? new FloccusHtml(file, account, clock) : new XbelFile(file, account, clock);
    }

    /**
     * Refuses, saying why, a text that is not a file of this format.
     *
     * @throws dev.idiom.wrappers.ToolException it is not
     */
    abstract void check(String text);

    @Override
    public final String kind() {
        return "xbel-dav";
    }

    @Override
    public final String account() {
        return account;
    }

    @Override
    public final ToolLimits limits() {
        return ToolLimits.LOCAL_FILE;
    }

    @Override
    public final boolean keepsPrivate() {
        return true;
    }

    /** What floccus keeps when it writes the file: a bookmark's URL, its title and the folders it is in. */
    @Override
    public final Set<Field> fieldsKept() {
        return EnumSet.of(Field.TITLE, Field.URL, Field.TAGS);
    }

    /** A bookmark that moved to a new URL in a browser keeps its floccus id: it is the copy Idiom knew under the old URL. */
    @Override
    public final boolean succeeds(RemoteRecord now, RemoteRecord former) {
        return now.shadow() != null && now.shadow().equals(former.shadow());
    }

    /**
     * Folders are where a bookmark sits, which only the browser changes: a copy holds the folders it
     * is in, whatever tags its DE has; and no description (floccus drops it when it writes the file).
     */
    @Override
    public final Metadata writable(Metadata wanted, Metadata known) {
        return wanted.with(Field.TAGS, known == null ? new TreeSet<>() : new TreeSet<>(known.tags())).with(Field.NOTES, null);
    }

    @Override
    public final Optional<String> refusal(Metadata wanted) {
        if (wanted.url() == null || !(wanted.url().startsWith("http://") || wanted.url().startsWith("https://"))) {
            return Optional.of("a browser bookmark needs a web address (http or https); give the record a URL");
        }
        return Optional.empty();
    }

    /** Idiom's writes wait while a browser syncs the file: it read the file at the start and will write it whole at the end. */
    final void waitForBrowser() {
        BrowserLock.of(file).refuseWritesWhileHeld(clock.instant());
    }

    private static final java.util.regex.Pattern HIGHEST = java.util.regex.Pattern.compile("<!--- highestId :(\\d+):");
    private static final java.util.regex.Pattern ID = java.util.regex.Pattern.compile("(?i)\\sid\\s*=\\s*[\"']([0-9]{1,18})[\"']");

    /** The id after every id in the file and floccus' {@code highestId}: floccus numbers its items from there. */
    static long nextId(String text) {
        long highest = 0;
        java.util.regex.Matcher h = HIGHEST.matcher(text);
        if (h.find()) {
            highest = Long.parseLong(h.group(1));
        }
        java.util.regex.Matcher m = ID.matcher(text);
        while (m.find()) {
            highest = Math.max(highest, Long.parseLong(m.group(1)));
        }
        return highest + 1;
    }

    /** The text with floccus' {@code highestId} comment saying {@code highest}, if it has the comment. */
    static String withHighestId(String text, long highest) {
        java.util.regex.Matcher h = HIGHEST.matcher(text);
        return h.find() ? text.substring(0, h.start(1)) + highest + text.substring(h.end(1)) : text;
    }
}
