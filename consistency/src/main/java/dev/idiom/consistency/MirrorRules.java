package dev.idiom.consistency;

import dev.idiom.events.DigitalEntity;
import dev.idiom.events.Replica;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The replication rules of every configured account at one moment, each with the accounts its
 * {@code from} names resolved to the kind and account replicas carry: what the planner, a push and
 * a pull decide with.
 */
final class MirrorRules {
    /** One account's rule, resolved. */
    record Selection(ToolDirectory.Account account, Set<String> fromKeys) {
        MirrorRule rule() {
            return account.rule();
        }

        /** True if the account should hold {@code de}. */
        boolean selects(DigitalEntity de) {
            return account.rule().selects(de, r -> fromKeys.contains(key(r.tool(), r.account())));
        }

        /** True if {@code r} is a copy in this account. */
        boolean holds(Replica r) {
            return key(r.tool(), r.account()).equals(key(account.kind(), account.account()));
        }
    }

    private final Map<String, Selection> byReplicaAccount = new HashMap<>();
    private final List<Selection> all;
    private final List<ToolDirectory.Account> accounts;

    private MirrorRules(List<ToolDirectory.Account> accounts) {
        this.accounts = accounts;
        Map<String, ToolDirectory.Account> byName = accounts.stream().collect(Collectors.toMap(ToolDirectory.Account::name, a -> a, (a, b) -> a));
        all = accounts.stream().map(a -> new Selection(a, a.rule().from().stream().map(byName::get).filter(java.util.Objects::nonNull)
                .map(f -> key(f.kind(), f.account())).collect(Collectors.toSet()))).toList();
        all.forEach(s -> byReplicaAccount.putIfAbsent(key(s.account().kind(), s.account().account()), s));
    }

    static MirrorRules of(ToolDirectory tools) {
        return new MirrorRules(tools.configured());
    }

    /** The same rules, but the account called {@code name} with {@code candidate} (a rule previewed before it is saved). */
    MirrorRules with(String name, MirrorRule candidate) {
        if (accounts.stream().noneMatch(a -> name.equals(a.name()))) {
            throw new dev.idiom.consistency.report.UnknownToolAccountException(name);
        }
        return new MirrorRules(accounts.stream().map(a -> name.equals(a.name()) ? new ToolDirectory.Account(a.name(), a.kind(), a.account(), candidate) : a)
                .toList());
    }

    /** Every account's selection. */
    List<Selection> all() {
        return all;
    }

    /** The rule of the account holding copies as {@code kind}/{@code account}: none if it is not configured. */
    Selection of(String kind, String account) {
        Selection s = byReplicaAccount.get(key(kind, account));
        return s != null ? s : new Selection(new ToolDirectory.Account(null, kind, account, MirrorRule.NONE), Set.of());
    }

    private static String key(String kind, String account) {
        return kind + "\n" + (account == null ? "" : account);
    }
}
