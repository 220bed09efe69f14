package dev.idiom.wrappers.registry;

import dev.idiom.events.InvalidValueException;
import dev.idiom.events.accounts.CallTurns;
import dev.idiom.wrappers.AnnotationTool;
import dev.idiom.wrappers.PrivateLibrary;
import dev.idiom.wrappers.ToolLimits;
import dev.idiom.wrappers.bibsonomy.BibSonomyTool;
import dev.idiom.wrappers.bibtex.BibTeXFile;
import dev.idiom.wrappers.bookmarks.BookmarkFile;
import dev.idiom.wrappers.bookmarks.BrowserFile;
import dev.idiom.wrappers.http.CallBounds;
import dev.idiom.wrappers.http.CallGate;
import dev.idiom.wrappers.http.Pacing;
import dev.idiom.wrappers.http.ToolHosts;
import dev.idiom.wrappers.http.ToolHttp;
import dev.idiom.wrappers.http.KeyBackoff;
import dev.idiom.wrappers.idiom.IdiomPeer;
import dev.idiom.wrappers.pinboard.PinboardTool;
import dev.idiom.wrappers.zotero.ZoteroTool;
import java.net.URI;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The kinds of tool Idiom wraps, each with how an account of it is checked and opened: the one
 * place that knows which adapter serves a kind. One HTTP client is kept per account, so its pacing
 * (a tool's least interval, a backoff it asked for) holds across every adapter opened on it.
 */
public final class ToolRegistry {
    /** Browsers syncing through floccus: an XBEL file Idiom serves over WebDAV ({@code /dav/{account}/{file}}). */
    public static final String BROWSERS = "xbel-dav";
    /** A Zotero library Idiom serves itself (the Zotero Web API at Idiom's root): its clients' writes reach Idiom as any Zotero's do. */
    public static final String SERVED_ZOTERO = "zotero-api";
    /** What a served library's account keeps as its baseUrl: the library is reached at Idiom's own port, whichever that is now. */
    public static final String SERVED_BASE = "served";
    /** Every kind an account can be of. */
    public static final Set<String> KINDS = Set.of("zotero", "pinboard", "bibsonomy", "idiom", "bibtex", "bookmarks", BROWSERS, SERVED_ZOTERO);
    /** The file a browsers' account's baseUrl names in its WebDAV folder (floccus' default: bookmarks.xbel). */
    public static final String DAV_FILE_PATTERN = "^[A-Za-z0-9][A-Za-z0-9._-]{0,99}\\.(xbel|html)$";
    /** The kinds that are a file in {@code files-dir}, not a web service. */
    public static final Set<String> FILE_KINDS = Set.of("bibtex", "bookmarks");
    /** A Zotero library as its API paths name it: it becomes part of every URL, so nothing else (no '?', no '../'). */
    public static final String ZOTERO_LIBRARY_PATTERN = "^(users|groups)/[0-9]{1,20}$";
    /** Another web tool's account (a BibSonomy or Pinboard user name): one plain path segment, or none. */
    public static final String USER_PATTERN = "^[A-Za-z0-9._@+-]{0,64}$";
    /**
     * Tries of one call before the caller hears of the failure: short, because the consistency
     * engine retries a failed push from the outbox with its own backoff (and an import resumes from its cursor).
     */
    static final int ATTEMPTS = 3;

    /**
     * An account as opening it needs it: its secret opened (null: none).
     *
     * @param createsPrivate records Idiom creates there are private to the account
     * @param privateLibrary every record of the account is private (its adapter says so of each)
     */
    public record Account(String name, String kind, String baseUrl, String account, String secret, boolean createsPrivate, boolean privateLibrary) {}

    private final Clock clock;
    private final Pacing pacing;
    private final ToolHosts hosts;
    private final CallBounds bounds;
    private final CallTurns turns;
    private final FilesDir files;
    private final Map<String, ToolHttp> http = new ConcurrentHashMap<>();
    /** Where this process serves the Zotero Web API (its own loopback address), once its port is open. */
    private volatile URI served;
    /** Each API key's {@code Backoff}, shared by every account called with it. */
    private final Map<String, KeyBackoff> backoffs = new ConcurrentHashMap<>();

    /**
     * @param hosts which hosts the accounts' tools may be called at (checked again before every call)
     * @param bounds the largest answer and the longest call
     * @param turns the database's turns at the calls a tool limits on its own, shared by every node (null: this process's own)
     * @param files the folder file accounts live in
     */
    public ToolRegistry(Clock clock, Pacing pacing, ToolHosts hosts, CallBounds bounds, CallTurns turns, FilesDir files) {
        this.clock = clock;
        this.pacing = pacing;
        this.hosts = hosts;
        this.bounds = bounds;
        this.turns = turns;
        this.files = files;
    }

    public static boolean isFile(String kind) {
        return FILE_KINDS.contains(kind);
    }

    /** The folder file accounts live in. */
    public FilesDir files() {
        return files;
    }

    /**
     * Refuses an account its kind cannot have: an unknown kind, a Zotero library that is not
     * {@code users/N} or {@code groups/N}, a user name that is not one plain path segment, a file
     * outside {@code files-dir}, a host the configuration does not allow.
     */
    public void check(String kind, String baseUrl, String account) {
        if (kind == null || !KINDS.contains(kind)) {
            throw new InvalidValueException("kind must be one of " + new TreeSet<>(KINDS) + ", got '" + kind + "'");
        }
        if (SERVED_ZOTERO.equals(kind)) {
            if (account == null || !account.strip().matches(ZOTERO_LIBRARY_PATTERN) || !SERVED_BASE.equals(baseUrl == null ? null : baseUrl.strip())) {
                throw new InvalidValueException("a zotero-api account's library is made by Idiom (PUT it with the kind alone)");
            }
            return;
        }
        if ("zotero".equals(kind) && (account == null || !account.strip().matches(ZOTERO_LIBRARY_PATTERN))) {
            throw new InvalidValueException("account of a zotero account is its library, users/<id> or groups/<id>, got '"
                    + (account == null ? "" : account) + "'");
        }
        if (BROWSERS.equals(kind)) {
            if (baseUrl == null || !baseUrl.strip().matches(DAV_FILE_PATTERN)) {
                throw new InvalidValueException("baseUrl of an xbel-dav account is the bookmark file's name as floccus' profile gives it, such as "
                        + "bookmarks.xbel (letters, digits, '.', '_', '-', ending in .xbel, or in .html for floccus' HTML profile), got '" + baseUrl + "'");
            }
            return;
        }
        if (!"zotero".equals(kind) && !isFile(kind) && account != null && !account.strip().matches(USER_PATTERN)) {
            throw new InvalidValueException("account of a " + kind + " account is a user name (letters, digits, '.', '_', '@', '+', '-'), got '"
                    + account + "'");
        }
        if (isFile(kind)) {
            files.resolve(baseUrl);
        } else {
            try {
                hosts.check(URI.create(baseUrl.strip()));
            } catch (dev.idiom.wrappers.ToolException refused) {
                throw new InvalidValueException("baseUrl: " + refused.getMessage());
            }
        }
    }

    /** The adapter of an account (a file's path is checked again: a link may have been planted since it was configured). */
    public AnnotationTool open(Account a) {
        String secret = a.secret() == null ? "" : a.secret();
        AnnotationTool tool = switch (a.kind()) {
            case "zotero" -> new ZoteroTool(URI.create(a.baseUrl()), a.account(), secret, http(a, "Zotero", ZoteroTool.LIMITS));
            // Idiom's own address, never one an admin gave: the loopback call is allowed whatever local-tool-hosts says
            case SERVED_ZOTERO -> new ZoteroTool(served(), a.account(), secret, http(a, "Zotero", ZoteroTool.LIMITS, ToolHosts.ANY), SERVED_ZOTERO);
            case "pinboard" -> new PinboardTool(URI.create(a.baseUrl()), secret, http(a, "Pinboard", PinboardTool.LIMITS), clock, pacing, a.createsPrivate());
            case "bibsonomy" -> new BibSonomyTool(URI.create(a.baseUrl()), a.account(), secret, http(a, "BibSonomy", BibSonomyTool.LIMITS),
                    a.createsPrivate());
            case "idiom" -> new IdiomPeer(URI.create(a.baseUrl()), secret, http(a, "Idiom", IdiomPeer.LIMITS));
            case "bibtex", "bookmarks" -> file(a.kind(), files.resolve(a.baseUrl()));
            case BROWSERS -> browsers(files.davFolder(a.name()).resolve(a.baseUrl().strip()), a.name());
            default -> throw new InvalidValueException("unknown tool kind " + a.kind());
        };
        return a.privateLibrary() ? new PrivateLibrary(tool) : tool;
    }

    /** Says where this process now serves the Zotero Web API (its own address, as its clients' {@code apiUrl} names it here). */
    public void servedAt(URI root) {
        this.served = root;
    }

    private URI served() {
        URI at = served;
        if (at == null) {
            throw new dev.idiom.wrappers.ToolException("a served Zotero library is reached at Idiom's own port, and this process serves none "
                    + "(a command, or a server still starting): it syncs when the server runs");
        }
        return at;
    }

    /** A browsers' account's bookmark file: XBEL, or Netscape HTML for floccus' HTML profile (by its name). */
    public AnnotationTool browsers(Path file, String account) {
        return BrowserFile.of(file, account, clock);
    }

    /** A local file: bibtex (.bib) or bookmarks (Netscape HTML). */
    public AnnotationTool file(String kind, Path file) {
        return switch (kind) {
            case "bibtex" -> new BibTeXFile(file);
            case "bookmarks" -> new BookmarkFile(file, clock);
            default -> throw new InvalidValueException("only bibtex and bookmarks are files; '" + kind + "' needs a configured account");
        };
    }

    private ToolHttp http(Account a, String toolName, ToolLimits limits) {
        return http(a, toolName, limits, hosts);
    }

    private ToolHttp http(Account a, String toolName, ToolLimits limits, ToolHosts allowed) {
        return http.computeIfAbsent(a.name() + "\n" + a.baseUrl(), n -> new ToolHttp(toolName, limits, clock, pacing, ATTEMPTS, allowed, bounds,
                gate(a.kind(), a.account() == null ? "" : a.account()), backoffs.computeIfAbsent(keyOf(a), k -> new KeyBackoff())));
    }

    /** The API key an account is called with, at its service (a digest: the key itself is kept nowhere in the clear). */
    private static String keyOf(Account a) {
        URI base = URI.create(a.baseUrl());
        return a.kind() + "\n" + base.getScheme() + "://" + base.getAuthority() + "\n"
                + dev.idiom.events.Fingerprint.of(a.secret() == null ? "" : a.secret());
    }

    /** The account's turns at the calls its tool limits on its own: the database's when there is one, so every node's calls count. */
    private CallGate gate(String kind, String account) {
        return turns == null ? CallGate.inMemory() : new CallGate() {
            @Override
            public Optional<Instant> take(String call, Instant now, Duration interval) {
                return turns.take(kind, account, call, now, interval);
            }

            @Override
            public void answered(String call, Instant at, Duration interval) {
                turns.answered(kind, account, call, at, interval);
            }

            @Override
            public void refused(String call, Instant at, Duration interval) {
                turns.refused(kind, account, call, at, interval);
            }
        };
    }
}
