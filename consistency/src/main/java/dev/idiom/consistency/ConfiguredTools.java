package dev.idiom.consistency;

import dev.idiom.consistency.report.UnknownToolAccountException;
import dev.idiom.events.accounts.SecretBox;
import dev.idiom.events.accounts.StoredToolAccount;
import dev.idiom.events.accounts.ToolAccountRepository;
import dev.idiom.wrappers.AnnotationTool;
import dev.idiom.wrappers.registry.ToolRegistry;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The configured tool accounts as the engine reaches them: each account's adapter opened once
 * (its secret opened once) and kept until the account changes, and one rule for which account a
 * replica is in — the adapter's own ({@link AnnotationTool#account()}: a file's name, the user a
 * Pinboard token is for), used alike by pushes, pulls and conflict policies.
 */
public final class ConfiguredTools implements ToolDirectory {
    private record Kept(StoredToolAccount stored, AnnotationTool tool) {}

    private final ToolAccountRepository accounts;
    private final SecretBox secrets;
    private final ToolRegistry registry;
    private final Map<String, Kept> opened = new ConcurrentHashMap<>();

    public ConfiguredTools(ToolAccountRepository accounts, SecretBox secrets, ToolRegistry registry) {
        this.accounts = accounts;
        this.secrets = secrets;
        this.registry = registry;
    }

    public ToolRegistry registry() {
        return registry;
    }

    /** The adapter of the account called {@code name}. */
    @Override
    public AnnotationTool open(String name) {
        return opened(stored(name).orElseThrow(() -> new UnknownToolAccountException(name)));
    }

    /** The account called {@code name} as stored; empty for a name no account can have. */
    private Optional<StoredToolAccount> stored(String name) {
        return name != null && name.matches("[A-Za-z0-9._-]{1,64}") ? accounts.find(name) : Optional.empty();
    }

    @Override
    public List<String> names() {
        return accounts.list().stream().map(StoredToolAccount::name).toList();
    }

    /** The configured account whose adapter holds replicas of this kind and account. */
    @Override
    public Optional<AnnotationTool> open(String kind, String account) {
        String wanted = account == null ? "" : account;
        return accounts.list().stream().filter(a -> a.kind().equals(kind) && replicaAccount(a).equals(wanted)).findFirst().map(this::opened);
    }

    @Override
    public List<Account> configured() {
        return accounts.list().stream().map(a -> new Account(a.name(), a.kind(), replicaAccount(a),
                MirrorRule.stored(a.mirror(), a.direction()).withDeletions(a.deletions()))).toList();
    }

    /** The policy of the account holding this replica (by the same rule as every lookup of a copy); prefer-idiom where none is configured. */
    @Override
    public ConflictPolicy policy(String kind, String account) {
        String wanted = account == null ? "" : account;
        return accounts.list().stream().filter(a -> a.kind().equals(kind) && replicaAccount(a).equals(wanted)).findFirst()
                .map(a -> ConflictPolicy.named(a.conflictPolicy())).orElse(ConflictPolicy.PREFER_IDIOM);
    }

    /** The account as its replicas name it: the adapter's; as stored when it cannot be opened now (then no replica can be in it either). */
    private String replicaAccount(StoredToolAccount a) {
        try {
            return opened(a).account();
        } catch (RuntimeException unopened) {
            return a.account() == null ? "" : a.account();
        }
    }

    /**
     * The kept adapter while the account is as it was stored when it was opened; else opened anew.
     * A file account is opened each time: its path is checked again, as a link may have been planted since.
     */
    private AnnotationTool opened(StoredToolAccount a) {
        Kept k = opened.get(a.name());
        if (k != null && k.stored().equals(a)) {
            return k.tool();
        }
        AnnotationTool tool = registry.open(new ToolRegistry.Account(a.name(), a.kind(), a.baseUrl(), a.account(),
                a.sealedSecret() == null ? null : secrets.open(a.sealedSecret(), a.binding()), a.createsPrivate(), a.privateLibrary()));
        if (!ToolRegistry.isFile(a.kind())) {
            opened.put(a.name(), new Kept(a, tool));
        }
        return tool;
    }
}
