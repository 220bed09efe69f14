package dev.idiom.services.tools;

import dev.idiom.consistency.ConflictPolicy;
import dev.idiom.consistency.MirrorRule;
import dev.idiom.consistency.report.UnknownToolAccountException;
import dev.idiom.events.InvalidValueException;
import dev.idiom.events.accounts.SecretBox;
import dev.idiom.wrappers.registry.FilesDir;
import dev.idiom.wrappers.registry.ToolRegistry;
import dev.idiom.events.accounts.StoredToolAccount;
import dev.idiom.events.accounts.SyncState;
import dev.idiom.events.accounts.ToolAccountRepository;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.UnaryOperator;

/**
 * Tool accounts as the application keeps them: validated, secrets sealed before they are stored
 * and opened only to build an adapter; the import cursors per tool account. Storage is the
 * {@link ToolAccountRepository}'s.
 */
public final class ToolAccounts {
    public static final Set<String> KINDS = ToolRegistry.KINDS;
    /** Browsers syncing through floccus, over WebDAV. */
    public static final String BROWSERS = ToolRegistry.BROWSERS;
    /** A Zotero library Idiom serves (the Zotero Web API). */
    public static final String SERVED = ToolRegistry.SERVED_ZOTERO;
    private static final Set<String> FILE_KINDS = ToolRegistry.FILE_KINDS;

    /**
     * A network tool's API root, exactly as the OpenAPI document states it (so the document and the
     * check cannot disagree): http(s), a host name (its last label starts with a letter, as java.net.URI
     * wants) or an IPv4 address, an optional port (1–65535), an optional path of URI characters.
     */
    public static final String API_ROOT_PATTERN = "^[Hh][Tt][Tt][Pp][Ss]?://"
            + "(([A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?\\.)*[A-Za-z]([A-Za-z0-9-]*[A-Za-z0-9])?"
            + "|((25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])\\.){3}(25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9]))"
            + "(:([0-9]{1,4}|[1-5][0-9]{4}|6[0-4][0-9]{3}|65[0-4][0-9]{2}|655[0-2][0-9]|6553[0-5]))?(/(%[0-9A-Fa-f]{2}|[A-Za-z0-9._~!$&'()*+,;=:@/-])*)?$";
    private static final java.util.regex.Pattern API_ROOT = java.util.regex.Pattern.compile(API_ROOT_PATTERN);

    private final ToolAccountRepository repository;
    private final SecretBox secrets;
    private final Clock clock;
    private final ToolRegistry registry;
    private final FilesDir files;

    /** @param registry the kinds of account, each with its checks (the hosts a web tool may name, the folder file accounts live in) */
    public ToolAccounts(ToolAccountRepository repository, SecretBox secrets, Clock clock, ToolRegistry registry) {
        this.registry = registry;
        this.files = registry.files();
        this.repository = repository;
        this.secrets = secrets;
        this.clock = clock;
    }

    public ToolAccount put(String name, String kind, String baseUrl, String account, String secret) {
        return put(name, kind, baseUrl, account, secret, null, null);
    }

    /**
     * @param newRecords "private" or "public" (null: private) — how records Idiom creates in the tool are shared
     * @param conflictPolicy prefer-idiom (null: the default), prefer-remote or tool:KIND
     */
    public ToolAccount put(String name, String kind, String baseUrl, String account, String secret, String newRecords, String conflictPolicy) {
        return put(name, kind, baseUrl, account, secret, newRecords, conflictPolicy, false);
    }

    /**
     * @param privateLibrary every record of this account is private (a Zotero library nobody else reads, a file or a
     *     peer kept private): its DEs are seen only by keys allowed to see private records
     */
    public ToolAccount put(String name, String kind, String baseUrl, String account, String secret, String newRecords, String conflictPolicy,
                           boolean privateLibrary) {
        return put(name, kind, baseUrl, account, secret, newRecords, conflictPolicy, privateLibrary, MirrorRule.NONE);
    }

    /**
     * @param mirror the replication rule as a request gives it ("none", "all" or a filter; null: none)
     * @param direction "both" (null: the default), "receive-only" or "send-only"
     * @param deletions "keep" (null: the default) or "propagate"
     */
    public ToolAccount put(String name, String kind, String baseUrl, String account, String secret, String newRecords, String conflictPolicy,
                           boolean privateLibrary, com.fasterxml.jackson.databind.JsonNode mirror, String direction, String deletions) {
        return put(name, kind, baseUrl, account, secret, newRecords, conflictPolicy, privateLibrary, MirrorRule.of(mirror, direction).withDeletions(deletions));
    }

    /**
     * @param replication which DEs the account should hold ({@link MirrorRule#NONE}: only what it brings in or is given) and which way
     *     copies flow
     */
    public ToolAccount put(String name, String kind, String baseUrl, String account, String secret, String newRecords, String conflictPolicy,
                           boolean privateLibrary, MirrorRule replication) {
        if (!validName(name)) {
            throw new InvalidValueException("a tool account name is 1–64 letters, digits, '.', '_' or '-'");
        }
        if (kind == null || !KINDS.contains(kind)) {
            throw new InvalidValueException("kind must be one of " + new TreeSet<>(KINDS) + ", got '" + kind + "'");
        }
        if (ToolRegistry.BROWSERS.equals(kind) && (baseUrl == null || baseUrl.isBlank())) {
            baseUrl = BROWSER_FILE;
        }
        if (ToolRegistry.BROWSERS.equals(kind) && (secret == null || secret.isEmpty())) {
            throw new InvalidValueException("an xbel-dav account needs the password browsers give (the secret)");
        }
        if (SERVED.equals(kind) && (secret == null || secret.isEmpty())) {
            throw new InvalidValueException("a zotero-api account is made with the served library's own key (PUT /api/tools/NAME makes both)");
        }
        if (baseUrl == null || baseUrl.isBlank()) {
            throw new InvalidValueException("baseUrl is required (the API root, or the file's path for bibtex and bookmarks)");
        }
        // the columns' sizes, said here rather than as a database error
        if (baseUrl.length() > 1000 || (account != null && account.length() > 200) || (secret != null && secret.length() > 2000)) {
            throw new InvalidValueException("baseUrl is at most 1000 characters, account 200, secret 2000");
        }
        printable("baseUrl", baseUrl);
        printable("account", account);
        if (secret != null && !secret.chars().allMatch(c -> c >= 0x21 && c <= 0x7E)) {
            // it travels in an HTTP header or query (a bearer token, Basic auth, Pinboard's auth_token): every tool's keys are printable ASCII
            throw new InvalidValueException("secret holds a character outside printable ASCII (no spaces): API keys and tokens are printable ASCII");
        }
        if (!FILE_KINDS.contains(kind) && !ToolRegistry.BROWSERS.equals(kind) && !SERVED.equals(kind) && !API_ROOT.matcher(baseUrl).matches()) {
            throw new InvalidValueException("baseUrl of a " + kind + " account must be an http(s) URL with a host name or IPv4 address, "
                    + "such as https://api.zotero.org, got '" + baseUrl + "'");
        }
        registry.check(kind, baseUrl, account);
        refuseSecondAccountOnOneLibrary(name, kind, baseUrl.strip(), account == null ? "" : account.strip(), secret);
        String visibility = newRecords == null ? "private" : newRecords;
        if (!Set.of("private", "public").contains(visibility)) {
            throw new InvalidValueException("newRecords must be \"private\" or \"public\", got '" + newRecords + "'");
        }
        String policy = ConflictPolicy.named(conflictPolicy).name();
        String sealed = secret == null || secret.isEmpty() ? null
                : secrets.seal(secret, binding(name, kind, baseUrl.strip(), account == null ? "" : account.strip()));
        StoredToolAccount stored = new StoredToolAccount(name, kind, baseUrl.strip(), account == null ? "" : account.strip(), sealed, visibility,
                policy, clock.instant(), privateLibrary, replication.stored(), replication.direction().text(), replication.deletions());
        repository.save(stored);
        return view(stored);
    }

    /** The account as stored (its sealed secret included), to put back if saving a change of it must be undone. */
    Optional<StoredToolAccount> stored(String name) {
        return validName(name) ? repository.find(name) : Optional.empty();
    }

    /** Undoes a save: the account as it was stored before, or none if there was none. */
    void putBack(String name, Optional<StoredToolAccount> before) {
        if (before.isPresent()) {
            repository.save(before.get());
        } else {
            repository.forget(name);
        }
    }

    /**
     * Two accounts on one remote library (the same Zotero user or group, the same file, the same
     * Pinboard or BibSonomy user) would name the same copies: each sync, rule and removal of one would
     * act on the other's. The second is refused (409), naming the first.
     */
    private void refuseSecondAccountOnOneLibrary(String name, String kind, String baseUrl, String account, String secret) {
        String library = library(kind, baseUrl, account, secret);
        for (StoredToolAccount other : repository.list()) {
            if (other.name().equals(name) || !other.kind().equals(kind)) {
                continue;
            }
            String theirs;
            try {
                theirs = library(other.kind(), other.baseUrl(), other.account(), other.sealedSecret() == null || !secrets.ready() ? null
                        : secrets.open(other.sealedSecret(), binding(other)));
            } catch (RuntimeException unreadable) { // a file outside files-dir now, a secret that does not open: compared as stored
                theirs = other.kind() + "\n" + other.baseUrl() + "\n" + other.account();
            }
            if (library != null && library.equals(theirs)) {
                throw new dev.idiom.consistency.report.SyncRefusedException("tool account '" + other.name() + "' already names this " + kind
                        + " library (" + (FILE_KINDS.contains(kind) ? files.resolve(baseUrl) : baseUrl + " " + account).toString().strip()
                        + "): two accounts on one library would each act on the other's copies; change '" + other.name() + "' instead");
            }
        }
    }

    /** Which remote library an account names, as comparable text: a file's resolved path, else the API's host with the library or user. */
    private String library(String kind, String baseUrl, String account, String secret) {
        if (ToolRegistry.BROWSERS.equals(kind)) {
            return null; // a folder of its own, named for the account
        }
        if (FILE_KINDS.contains(kind)) {
            return kind + "\n" + files.resolve(baseUrl);
        }
        String host; // with its port: two services on one host are two services
        try {
            java.net.URI u = java.net.URI.create(baseUrl.strip());
            int port = u.getPort() == 443 && "https".equalsIgnoreCase(u.getScheme()) || u.getPort() == 80 && "http".equalsIgnoreCase(u.getScheme())
                    ? -1 : u.getPort();
            host = u.getHost() == null ? null : u.getHost() + (port < 0 ? "" : ":" + port);
        } catch (IllegalArgumentException e) {
            return null;
        }
        String user = account == null ? "" : account.strip().toLowerCase(java.util.Locale.ROOT);
        if (user.isEmpty() && secret != null && secret.indexOf(':') > 0) { // Pinboard's token names its user: "user:HEX"
            user = secret.substring(0, secret.indexOf(':')).toLowerCase(java.util.Locale.ROOT);
        }
        return user.isEmpty() ? null : kind + "\n" + (host == null ? "" : host.toLowerCase(java.util.Locale.ROOT)) + "\n" + user;
    }

    /**
     * Refuses to start when the stored tool secrets do not open with the configured key: a wrong or
     * missing {@code IDIOM_SECRET_KEY} would otherwise surface as failed syncs, one account at a time.
     */
    public void checkSecretKey() {
        List<StoredToolAccount> sealed = repository.list().stream().filter(a -> a.sealedSecret() != null).toList();
        if (sealed.isEmpty()) {
            return;
        }
        if (!secrets.ready()) {
            throw new IllegalArgumentException("tool accounts " + sealed.stream().map(StoredToolAccount::name).toList()
                    + " store sealed secrets but " + SecretBox.ENV + " is not set: start Idiom with the key they were sealed under");
        }
        List<String> unopened = sealed.stream().filter(a -> !secrets.opens(a.sealedSecret(), binding(a))).map(StoredToolAccount::name).toList();
        if (!unopened.isEmpty()) {
            throw new IllegalArgumentException(SecretBox.ENV + " does not open the stored secrets of tool accounts " + unopened
                    + ": start Idiom with the key they were sealed under (to change keys, use ./idiom rotate-secret-key)");
        }
    }

    /** Re-seals every stored secret under {@code next}, atomically; returns how many. */
    public int rotateSecretKey(SecretBox next) {
        if (!next.ready()) {
            throw new IllegalArgumentException("the new secret key is empty");
        }
        checkSecretKey();
        return repository.resealSecrets(a -> next.seal(secrets.open(a.sealedSecret(), binding(a)), binding(a)), clock.instant());
    }

    /**
     * Upgrade: secrets sealed before they were bound to their account are re-sealed bound (same key),
     * all or none; returns how many. Run at start-up, after the key is checked.
     */
    public int bindSecrets() {
        if (!secrets.ready() || repository.list().stream().allMatch(a -> a.sealedSecret() == null || SecretBox.bound(a.sealedSecret()))) {
            return 0;
        }
        return repository.resealSecrets(a -> SecretBox.bound(a.sealedSecret()) ? a.sealedSecret()
                : secrets.seal(secrets.open(a.sealedSecret(), binding(a)), binding(a)), clock.instant());
    }

    /** What a secret is bound to: the account's name, kind, address and library, as stored. */
    static String binding(String name, String kind, String baseUrl, String account) {
        return StoredToolAccount.binding(name, kind, baseUrl, account);
    }

    private static String binding(StoredToolAccount a) {
        return a.binding();
    }

    /** The file a browsers' account serves when none is named: floccus' default. */
    public static final String BROWSER_FILE = "bookmarks.xbel";
    private static final java.security.SecureRandom PASSWORDS = new java.security.SecureRandom();

    /**
     * A password for browsers to sync with: 24 random bytes, URL-safe Base64 (printable, no padding),
     * never starting with '-' or '_': a command-line client given it as an argument (rclone obscure,
     * litmus) would read one starting with '-' as an option (one in 64 did; a CI run met one).
     */
    public static String newBrowserPassword() {
        byte[] b = new byte[24];
        String password;
        do {
            PASSWORDS.nextBytes(b);
            password = java.util.Base64.getUrlEncoder().withoutPadding().encodeToString(b);
        } while (!Character.isLetterOrDigit(password.charAt(0)));
        return password;
    }

    /** A new password for the browsers' account {@code name}, in place of its old one (which stops working): said once, to the caller. */
    public String renewBrowserPassword(String name) {
        StoredToolAccount a = stored(name).filter(x -> BROWSERS.equals(x.kind())).orElseThrow(() -> new UnknownToolAccountException(name));
        String password = newBrowserPassword();
        repository.save(new StoredToolAccount(a.name(), a.kind(), a.baseUrl(), a.account(), secrets.seal(password, binding(a)), a.newRecords(),
                a.conflictPolicy(), clock.instant(), a.privateLibrary(), a.mirror(), a.direction(), a.deletions()));
        return password;
    }

    /** The password of a browsers' (xbel-dav) account, opened; empty for any other name. */
    public Optional<String> browserPassword(String name) {
        return secret(name, BROWSERS);
    }

    /** The key Idiom's engine calls a served Zotero library (zotero-api account) with, opened; empty for any other name. */
    public Optional<String> servedKey(String name) {
        return secret(name, SERVED);
    }

    /** The secret of the account {@code name} if it is of {@code kind}, opened. */
    private Optional<String> secret(String name, String kind) {
        return stored(name).filter(a -> kind.equals(a.kind()) && a.sealedSecret() != null && secrets.ready())
                .map(a -> secrets.open(a.sealedSecret(), binding(a)));
    }

    /** The folder file accounts live in. */
    public FilesDir files() {
        return files;
    }

    public List<ToolAccount> list() {
        return repository.list().stream().map(ToolAccounts::view).toList();
    }

    /** A replication rule as text (a command line's flag, a SOAP element): "none", "all" or a filter as JSON. */
    public static com.fasterxml.jackson.databind.JsonNode rule(String text) {
        return MirrorRule.text(text);
    }

    /**
     * Changes only the account's replication settings, keeping its address and sealed secret (a
     * curator changing a rule need not know the secret). Each argument null: as it is; {@code mirror}
     * as a request gives it ("none", "all" or a filter).
     */
    public ToolAccount replicate(String name, com.fasterxml.jackson.databind.JsonNode mirror, String direction, String deletions) {
        StoredToolAccount a = stored(name).orElseThrow(() -> new UnknownToolAccountException(name));
        MirrorRule rule = candidate(name, mirror, direction, deletions);
        StoredToolAccount changed = new StoredToolAccount(a.name(), a.kind(), a.baseUrl(), a.account(), a.sealedSecret(), a.newRecords(),
                a.conflictPolicy(), clock.instant(), a.privateLibrary(), rule.stored(), rule.direction().text(), rule.deletions());
        repository.save(changed);
        return view(changed);
    }

    /** The rule {@link #replicate} would save with these settings (each null: as it is), validated, not saved: for a preview. */
    public MirrorRule candidate(String name, com.fasterxml.jackson.databind.JsonNode mirror, String direction, String deletions) {
        StoredToolAccount a = stored(name).orElseThrow(() -> new UnknownToolAccountException(name));
        MirrorRule was = MirrorRule.stored(a.mirror(), a.direction()).withDeletions(a.deletions());
        return (mirror == null ? MirrorRule.stored(a.mirror(), direction == null ? a.direction() : direction)
                : MirrorRule.of(mirror, direction == null ? a.direction() : direction)).withDeletions(deletions == null ? was.deletions() : deletions);
    }

    private static void printable(String what, String value) {
        // as the document's pattern says: no C0 or C1 control (nor a lone surrogate, which JSON Schema cannot say)
        if (value != null && value.codePoints().anyMatch(c -> Character.isISOControl(c) || Character.getType(c) == Character.SURROGATE)) {
            throw new InvalidValueException(what + " holds a control character");
        }
    }

    /** Names are ASCII (the column is): any other name cannot exist, and must not reach the database as one. */
    public static boolean validName(String name) {
        return name != null && name.matches("[A-Za-z0-9._-]{1,64}");
    }

    private static ToolAccount view(StoredToolAccount a) {
        return new ToolAccount(a.name(), a.kind(), a.baseUrl(), a.account(), a.sealedSecret() != null, a.newRecords(), a.conflictPolicy(),
                a.privateLibrary(), MirrorRule.stored(a.mirror(), a.direction()).withDeletions(a.deletions()));
    }

    public Optional<String> cursor(String kind, String account) {
        return repository.cursor(kind, account);
    }

    /** Saved only after the events of the page it follows have committed. */
    public void saveCursor(String kind, String account, String cursor) {
        repository.saveCursor(kind, account, cursor, clock.instant());
    }

    /** The consistency engine's state of this tool account (kind + account as replicas name it). */
    public SyncState syncState(String kind, String account) {
        return repository.syncState(kind, account);
    }

    /** Changes the account's engine state under its row lock. */
    public SyncState updateSyncState(String kind, String account, UnaryOperator<SyncState> change) {
        return repository.updateSyncState(kind, account, change, clock.instant());
    }
}
