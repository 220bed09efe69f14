package dev.idiom.services.tools;

import dev.idiom.consistency.ConflictPolicy;
import dev.idiom.consistency.ToolDirectory;
import dev.idiom.events.InvalidValueException;
import dev.idiom.events.accounts.mysql.MySqlCallTurns;
import dev.idiom.wrappers.AnnotationTool;
import dev.idiom.wrappers.ToolException;
import dev.idiom.wrappers.PrivateLibrary;
import dev.idiom.wrappers.ToolLimits;
import dev.idiom.wrappers.bibsonomy.BibSonomyTool;
import dev.idiom.wrappers.bibtex.BibTeXFile;
import dev.idiom.wrappers.bookmarks.BookmarkFile;
import dev.idiom.wrappers.http.CallBounds;
import dev.idiom.wrappers.http.CallGate;
import dev.idiom.wrappers.http.Pacing;
import dev.idiom.wrappers.http.ToolHosts;
import dev.idiom.wrappers.http.ToolHttp;
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
import java.util.concurrent.ConcurrentHashMap;

/** Opens the adapter for a configured account or a local file; the consistency engine's way to a replica's tool. */
public final class Tools implements ToolDirectory {
    private final ToolAccounts accounts;
    private final Clock clock;
    private final Pacing pacing;
    private final Map<String, ToolHttp> http = new ConcurrentHashMap<>();
    private final MySqlCallTurns turns;
    /**
     * Tries of one call before the caller hears of the failure: short, because the consistency
     * engine retries a failed push from the outbox with its own backoff (and an import resumes from its cursor).
     */
    static final int ATTEMPTS = 3;

    private final ToolHosts hosts;
    private final CallBounds bounds;

    public Tools(ToolAccounts accounts, Clock clock, Pacing pacing) {
        this(accounts, clock, pacing, ToolHosts.ANY, CallBounds.DEFAULTS);
    }

    /**
     * @param hosts which hosts the accounts' tools may be called at (checked again before every call)
     * @param bounds the largest answer and the longest call
     */
    public Tools(ToolAccounts accounts, Clock clock, Pacing pacing, ToolHosts hosts, CallBounds bounds) {
        this(accounts, clock, pacing, hosts, bounds, null);
    }

    /** @param turns the database's turns at the calls a tool limits on its own, shared by every node (null: this process's own) */
    public Tools(ToolAccounts accounts, Clock clock, Pacing pacing, ToolHosts hosts, CallBounds bounds, MySqlCallTurns turns) {
        this.turns = turns;
        this.accounts = accounts;
        this.clock = clock;
        this.pacing = pacing;
        this.hosts = hosts;
        this.bounds = bounds;
    }

    public ToolAccounts accounts() {
        return accounts;
    }

    /**
     * A search's {@code tool} filter as the index reads it: a tool kind as given ({@code zotero}), or
     * the name of a configured account turned into that account's copies ({@code kind/account});
     * anything else as given, which then matches nothing.
     */
    public String filter(String tool) {
        if (tool == null || ToolAccounts.KINDS.contains(tool) || !ToolAccounts.validName(tool) || accounts.open(tool).isEmpty()) {
            return tool;
        }
        AnnotationTool t = open(tool);
        return dev.idiom.events.SearchQuery.toolAccount(t.kind(), t.account());
    }

    /** The adapter of the account called {@code name}. */
    @Override
    public AnnotationTool open(String name) {
        ToolAccounts.Opened a = accounts.open(name)
                .orElseThrow(() -> new UnknownToolAccountException(name));
        String kind = a.account().kind();
        String base = a.account().baseUrl();
        String secret = a.secret() == null ? "" : a.secret();
        AnnotationTool tool = switch (kind) {
            case "zotero" -> new ZoteroTool(URI.create(base), a.account().account(), secret, http(a, "Zotero", ZoteroTool.LIMITS));
            case "pinboard" -> new PinboardTool(URI.create(base), secret, http(a, "Pinboard", PinboardTool.LIMITS), clock, pacing,
                    a.account().createsPrivate());
            case "bibsonomy" -> new BibSonomyTool(URI.create(base), a.account().account(), secret, http(a, "BibSonomy", BibSonomyTool.LIMITS),
                    a.account().createsPrivate());
            case "idiom" -> new IdiomPeer(URI.create(base), secret, http(a, "Idiom", IdiomPeer.LIMITS));
            case "bibtex", "bookmarks" -> file(kind, accounts.files().resolve(base)); // checked again: a link may have been planted since
            default -> throw new InvalidValueException("unknown tool kind " + kind);
        };
        return a.account().privateLibrary() ? new PrivateLibrary(tool) : tool;
    }

    @Override
    public java.util.List<String> names() {
        return accounts.list().stream().map(ToolAccount::name).toList();
    }

    /** The configured account whose adapter holds replicas of this kind and account. */
    @Override
    public Optional<AnnotationTool> open(String kind, String account) {
        String wanted = account == null ? "" : account;
        for (ToolAccount a : accounts.list()) {
            if (a.kind().equals(kind)) {
                AnnotationTool tool = open(a.name());
                if (tool.account().equals(wanted) || (tool.account().isEmpty() && wanted.isEmpty())) {
                    return Optional.of(tool);
                }
            }
        }
        return Optional.empty();
    }

    @Override
    public java.util.List<Account> configured() {
        // the account as replicas name it is the adapter's (a file's name, the Pinboard user its token is for), not the stored field
        return accounts.list().stream().map(a -> new Account(a.name(), a.kind(), replicaAccount(a), a.replication())).toList();
    }

    private String replicaAccount(ToolAccount a) {
        try {
            return open(a.name()).account();
        } catch (RuntimeException unopened) { // its secret or file cannot be opened now: no replica can be in it either
            return a.account();
        }
    }

    @Override
    public ConflictPolicy policy(String kind, String account) {
        // the account as replicas name it is the adapter's (a file's name, a Pinboard token's user), as for every other lookup by copy
        String wanted = account == null ? "" : account;
        for (ToolAccount a : accounts.list()) {
            if (a.kind().equals(kind) && replicaAccount(a).equals(wanted)) {
                return ConflictPolicy.named(a.conflictPolicy());
            }
        }
        return accounts.conflictPolicy(kind, account);
    }

    /**
     * Saves an account ({@code put}) and checks it: a file account's file exists (with {@code create},
     * an empty one is made now), an API account's tool answers to its key (one cheap read). When the
     * check fails the account is as it was before (or absent) and the answer says why; {@code check}
     * false saves without asking the tool or the file.
     */
    public ToolAccount saveChecked(String name, boolean create, boolean check, java.util.function.Supplier<ToolAccount> put) {
        // a name the account table cannot hold is refused by put, before any lookup of it
        java.util.Optional<dev.idiom.events.accounts.StoredToolAccount> before = ToolAccounts.validName(name) ? accounts.stored(name) : java.util.Optional.empty();
        ToolAccount saved = put.get();
        try {
            if (FILE_KINDS.contains(saved.kind())) {
                Path file = accounts.files().resolve(saved.baseUrl());
                if (!java.nio.file.Files.exists(file)) {
                    if (create) {
                        java.nio.file.Files.createDirectories(file.getParent());
                        java.nio.file.Files.createFile(file);
                    } else if (check) { // a request the files-dir as it stands does not allow: 409, like any state that refuses it
                        throw new dev.idiom.consistency.report.SyncRefusedException("the file " + file + " does not exist: say \"create\": true to have Idiom"
                                + " make it, or check the path (?check=false saves anyway)");
                    }
                }
            }
            if (check) {
                open(name).verify();
            }
            return saved;
        } catch (java.io.IOException e) {
            accounts.putBack(name, before);
            throw new InvalidValueException("the file for account '" + name + "' could not be made: " + e.getMessage());
        } catch (dev.idiom.wrappers.ToolAuthException refused) { // the tool's own refusal: 502 ToolAuth, as any call it refuses
            accounts.putBack(name, before);
            throw new dev.idiom.wrappers.ToolAuthException("the account was not saved: " + refused.getMessage() + " (?check=false saves it anyway)");
        } catch (ToolException failed) { // the tool did not answer as it should: 502 ToolFailed
            accounts.putBack(name, before);
            throw new ToolException("the account was not saved: " + failed.getMessage() + " (?check=false saves it anyway)", failed);
        } catch (RuntimeException failed) {
            accounts.putBack(name, before);
            throw failed;
        }
    }

    private static final java.util.Set<String> FILE_KINDS = java.util.Set.of("bibtex", "bookmarks");

    /** A local file: bibtex (.bib) or bookmarks (Netscape HTML). */
    public AnnotationTool file(String kind, Path file) {
        return switch (kind) {
            case "bibtex" -> new BibTeXFile(file);
            case "bookmarks" -> new BookmarkFile(file, clock);
            default -> throw new InvalidValueException("only bibtex and bookmarks are files; '" + kind + "' needs a configured account");
        };
    }

    /**
     * One client per account, kept: its pacing (a tool's least interval, a {@code Backoff} it
     * asked for) must hold across every adapter opened on the account, not per call.
     */
    private ToolHttp http(ToolAccounts.Opened a, String toolName, ToolLimits limits) {
        return http.computeIfAbsent(a.account().name() + "\n" + a.account().baseUrl(), n -> new ToolHttp(toolName, limits, clock, pacing, ATTEMPTS, hosts,
                bounds, gate(a.account().kind(), a.account().account() == null ? "" : a.account().account())));
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
