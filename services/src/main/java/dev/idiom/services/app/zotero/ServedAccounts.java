package dev.idiom.services.app.zotero;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.idiom.events.zotero.ServedLibraries;
import dev.idiom.events.zotero.ServedLibraries.ClientKey;
import dev.idiom.events.zotero.ServedLibraries.Library;
import java.util.Optional;

/**
 * The served libraries that are tool accounts ({@code kind: zotero-api}): each one library (a
 * user's, or a group the account's user owns) named for its account, read and written by Idiom's
 * engine with a key of its own, and by the clients with the key the account hands out once.
 */
public final class ServedAccounts {
    /** The name of the key the engine syncs the library with: never handed out, never renewed with the clients'. */
    static final String ENGINE_KEY = "Idiom's own sync";

    /**
     * A served account's library.
     *
     * @param path the library as the API's paths name it ({@code users/N} or {@code groups/N})
     * @param clientKey the clients' key, when this call made it (said once); else null
     * @param password the password clients sign in with under the account's name ({@code POST /keys}), when this call made it (said once); else null
     * @param made this call made the library (undone by {@link #undo} if saving the account then fails)
     */
    public record Served(Library library, long userNumber, String path, String engineKey, String clientKey, String password, boolean made) {
        public boolean group() {
            return "group".equals(library.kind());
        }
    }

    private final ServedLibraries store;
    private final ZoteroKeys keys;
    private final SignIns signIns;
    private final Runnable forgetViews;

    ServedAccounts(ServedLibraries store, ZoteroKeys keys, SignIns signIns, Runnable forgetViews) {
        this.store = store;
        this.keys = keys;
        this.signIns = signIns;
        this.forgetViews = forgetViews;
    }

    /**
     * The account's library: the one it has (its engine key still good), else a new one with a new
     * user, the engine's key and the clients' key.
     *
     * @param engineKey the key the account holds now (empty: a new account)
     */
    public Served forAccount(String account, boolean group, Optional<String> engineKey) {
        Optional<Library> kept = store.byAccount(account);
        Optional<ClientKey> key = engineKey.flatMap(keys::find);
        if (kept.isPresent() && key.isPresent() && group == "group".equals(kept.get().kind())) {
            Library l = kept.get();
            return new Served(l, key.get().userNumber(), path(l), engineKey.get(), null, null, false);
        }
        if (kept.isPresent()) {
            throw new dev.idiom.events.InvalidValueException("the served library of '" + account + "' is a " + kept.get().kind()
                    + " library: remove the account (DELETE /api/tools/" + account + ") to make it anew as a " + (group ? "group" : "user") + " library");
        }
        Library user = store.create("user", 0, group ? null : account, "Idiom account " + account, "{}");
        Library library = user;
        if (group) {
            ObjectNode meta = com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode().put("name", account).put("owner", user.number()).put("type", "Private")
                    .put("libraryEditing", "members").put("libraryReading", "members").put("fileEditing", "none");
            meta.putArray("members");
            Library g = store.create("group", 0, account, account, meta.toString());
            meta.put("id", g.number());
            store.describe(g.id(), account, meta.toString());
            library = store.library("group", g.number()).orElseThrow();
        }
        String engine = keys.issue(user.number(), ENGINE_KEY);
        String client = keys.issue(user.number(), account);
        String password = signIns.renew(user.number(), account);
        return new Served(library, user.number(), path(library), engine, client, password, true);
    }

    /** The user of a served account's library (a group's: its owner), if the account serves one. */
    public Optional<Long> userOf(String account) {
        return store.byAccount(account).map(l -> "group".equals(l.kind()) ? LibraryView.parse(l.meta()).path("owner").asLong() : l.number());
    }

    /**
     * Saves a served account: its library (made if new), then {@code save} given it; a save that
     * fails takes back the library and keys it made, so a refused account leaves nothing behind.
     */
    public <T> T save(String account, boolean group, Optional<String> engineKey, java.util.function.Function<Served, T> save) {
        Served served = forAccount(account, group, engineKey);
        try {
            return save.apply(served);
        } catch (RuntimeException refused) {
            undo(served);
            throw refused;
        }
    }

    /** A new password for the account's clients to sign in with under its name, in place of the old (refused from now on). */
    public String renewPassword(String account, String engineKey) {
        return signIns.renew(engineKey(account, engineKey).userNumber(), account);
    }

    /** A zotero-api account and the library Idiom serves for it, saved together; what was made is said in {@code served} once. */
    public record Saved(dev.idiom.services.tools.ToolAccount account, Served served) {}

    /**
     * Saves a zotero-api account: its served library (a user library, or with {@code group} a group
     * one; made if new, with the engine's key, the clients' key and the sign-in's password) and the
     * account that syncs it, checked by {@code tools}; a refused account leaves no library behind.
     */
    public Saved save(dev.idiom.services.tools.Tools tools, String name, boolean group, boolean check, String newRecords, String conflictPolicy,
                      boolean privateLibrary, com.fasterxml.jackson.databind.JsonNode mirror, String direction, String deletions) {
        var accounts = tools.accounts();
        return save(name, group, accounts.servedKey(name), s -> new Saved(tools.saveChecked(name, false, check, () -> accounts.put(name,
                dev.idiom.services.tools.ToolAccounts.SERVED, dev.idiom.wrappers.registry.ToolRegistry.SERVED_BASE, s.path(), s.engineKey(),
                newRecords, conflictPolicy, privateLibrary, mirror, direction, deletions)), s));
    }

    /** Takes back what {@link #forAccount} made, when the account it was for was not saved. */
    private void undo(Served served) {
        if (!served.made()) {
            return;
        }
        keys.forUser(served.userNumber()).forEach(k -> store.removeKey(k.hash()));
        store.library("user", served.userNumber()).ifPresent(u -> store.drop(u.id()));
        if (served.group()) {
            store.drop(served.library().id());
        }
        forgetViews.run();
    }

    /** A new clients' key for the account's library, in place of the old (refused from now on); the engine's key stays. */
    public String renewClientKey(String account, String engineKey) {
        ClientKey engine = engineKey(account, engineKey);
        for (ClientKey k : keys.forUser(engine.userNumber())) {
            if (!k.hash().equals(engine.hash())) {
                store.removeKey(k.hash());
            }
        }
        return keys.issue(engine.userNumber(), account);
    }

    private ClientKey engineKey(String account, String engineKey) {
        return keys.find(engineKey).orElseThrow(() -> new dev.idiom.events.InvalidValueException(
                "the served library of '" + account + "' has lost its engine key: remove the account and add it anew"));
    }

    private static String path(Library l) {
        return ("user".equals(l.kind()) ? "users/" : "groups/") + l.number();
    }
}
