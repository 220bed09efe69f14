package dev.idiom.services.app.zotero;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.idiom.events.zotero.ServedLibraries;
import dev.idiom.events.zotero.ServedLibraries.ClientKey;
import dev.idiom.events.zotero.ServedLibraries.Library;
import dev.idiom.events.zotero.ServedLibraries.StoredObject;
import dev.idiom.services.app.zotero.LibraryView.Stored;
import dev.idiom.wrappers.zotero.ZoteroSchema;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Set;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The Zotero libraries Idiom serves, as the Zotero API's face uses them: who a key is and what it
 * may read and write, each library's current view, and writes by the API's rules. Every write
 * request takes one new library version; reads answer from the view of the current version.
 */
public final class ServedZotero {
    private final ServedLibraries store;
    private final ZoteroKeys keys;
    private final ObjectWrites writes;
    private final ZoteroSchema schema;
    private final ItemTemplates types;
    private final Map<Long, LibraryView> views = new ConcurrentHashMap<>();
    private final ServedAccounts accounts;
    private final WriteTokens tokens;

    private final String testRoot;

    private final Clock clock;
    private LibraryStream stream;
    private final LoginSessions logins;
    private final SignIns signIns;

    /** @param testRoot the test root's {@code name:password} (Zotero's API suite), or null: none */
    public ServedZotero(ServedLibraries store, Clock clock, String testRoot) {
        this.store = store;
        this.clock = clock;
        this.testRoot = testRoot;
        this.keys = new ZoteroKeys(store, clock);
        this.schema = ZoteroSchema.published();
        this.writes = new ObjectWrites(schema, clock);
        this.types = new ItemTemplates(schema);
        this.signIns = new SignIns(store);
        this.accounts = new ServedAccounts(store, keys, signIns, views::clear);
        this.tokens = new WriteTokens(clock);
        this.logins = new LoginSessions(keys, clock, this::username);
    }

    /** The names and passwords clients sign in with to be given a key ({@code POST /keys}). */
    public SignIns signIns() {
        return signIns;
    }

    /** Zotero desktop's web logins ({@code keys/sessions}). */
    public LoginSessions logins() {
        return logins;
    }

    /** Zotero's streaming API over these libraries (made on first use). */
    public synchronized LibraryStream stream() {
        if (stream == null) {
            stream = new LibraryStream(store, this);
        }
        return stream;
    }

    /** The service's time source (what an answer with no stored time of its own says now). */
    public Clock clock() {
        return clock;
    }

    /** The served libraries that are tool accounts. */
    public ServedAccounts accounts() {
        return accounts;
    }

    /** The test root's {@code name:password}, or null. */
    public String testRoot() {
        return testRoot;
    }

    public ZoteroKeys keys() {
        return keys;
    }

    /** The item types this server's schema has. */
    public ItemTemplates types() {
        return types;
    }

    /** The key a request presents, or 403 as api.zotero.org answers an unknown one. */
    public ClientKey caller(String key) {
        return keys.find(key).orElseThrow(() -> ZoteroApiException.wrongCredentials("Invalid key"));
    }

    /** The library a path names ({@code users}/{@code groups} and its number), or 404. */
    public Library library(String kind, long number) {
        return store.library(kind, number).orElseThrow(() -> new ZoteroApiException(404, "Not found"));
    }

    /** The name a user signs in with (a served account's: the account's), else the user's library's name. */
    public String username(long userNumber) {
        return signIns.username(userNumber).orElseGet(() -> displayName(userNumber));
    }

    /** The name a user is shown by: the user's library's. */
    public String displayName(long userNumber) {
        return store.library("user", userNumber).map(Library::name).orElse("user " + userNumber);
    }

    /** Whether the user owns or is a member of the group (by its number), as a key's group access asks. */
    public boolean memberOf(long userNumber, long groupNumber) {
        return store.library("group", groupNumber).map(g -> isMember(userNumber, g)).orElse(false);
    }

    /** The library of a user, made on first use (a user of a key always has a library). */
    public Library userLibrary(long userNumber) {
        return store.library("user", userNumber).orElseGet(() -> store.create("user", userNumber, null, "user " + userNumber, "{}"));
    }

    /** Refuses (403) a key that may not read, or with {@code write} may not write, the library. */
    public void check(ClientKey key, Library library, boolean write) {
        JsonNode access = ZoteroKeys.access(key);
        boolean ok;
        if ("user".equals(library.kind())) {
            JsonNode user = access.path("user");
            ok = key.userNumber() == library.number() && user.path("library").asBoolean(false) && (!write || user.path("write").asBoolean(false));
        } else {
            JsonNode g = access.path("groups").has(Long.toString(library.number())) ? access.path("groups").path(Long.toString(library.number()))
                    : access.path("groups").path("all");
            ok = isMember(key.userNumber(), library) && g.path("library").asBoolean(false) && (!write || g.path("write").asBoolean(false));
        }
        if (!ok) {
            throw new ZoteroApiException(403, write ? "Write access denied" : "Forbidden");
        }
    }

    /** The settings only a group's owner or admins may change (the dataserver's adminOnlySettings). */
    public static final Set<String> ADMIN_ONLY_SETTINGS = Set.of("attachmentRenameTemplate", "autoRenameFiles", "autoRenameFilesFileTypes");

    /** Whether this key may change {@code setting} in the library: in a group, an admin-only one is its owner's or admins'. */
    public boolean mayChangeSetting(ClientKey key, Library library, String setting) {
        if (!"group".equals(library.kind()) || !ADMIN_ONLY_SETTINGS.contains(setting) || key == null) {
            return true;
        }
        JsonNode meta = LibraryView.parse(library.meta());
        if (meta.path("owner").asLong() == key.userNumber()) {
            return true;
        }
        for (JsonNode a : meta.path("admins")) {
            if (a.asLong() == key.userNumber()) {
                return true;
            }
        }
        return false;
    }

    private static boolean isMember(long user, Library group) {
        JsonNode meta = LibraryView.parse(group.meta());
        if (meta.path("owner").asLong() == user) {
            return true;
        }
        for (JsonNode m : meta.path("members")) {
            if (m.asLong() == user) {
                return true;
            }
        }
        return false;
    }

    /** The library as it is now: the kept view while no write came since, else read anew. */
    public LibraryView view(Library library) {
        long version = store.version(library.id());
        if (version < 0) {
            throw new ZoteroApiException(404, "Not found");
        }
        LibraryView kept = views.get(library.id());
        if (kept != null && kept.version() == version) {
            return kept;
        }
        LibraryView fresh = LibraryView.read(store, library, version);
        views.put(library.id(), fresh);
        return fresh;
    }

    /** Refuses (412) a write whose {@code If-Unmodified-Since-Version} is not the library's version. */
    private static void precondition(ServedLibraries.LibraryWrite w, Long unmodifiedSince) {
        if (unmodifiedSince != null && unmodifiedSince != w.version()) {
            throw new ZoteroApiException(412, "Library has been modified since specified version (expected " + unmodifiedSince + ", found " + w.version()
                    + ")", w.version());
        }
    }

    /** A POST's answer: each object's outcome, and the library's version after it. */
    public record Posted(List<ObjectWrites.Outcome> outcomes, long version) {
        public Map<String, ObjectNode> successful() {
            Map<String, ObjectNode> out = new LinkedHashMap<>();
            outcomes.stream().filter(o -> o.written() != null).forEach(o -> out.put(Integer.toString(o.index()), o.written()));
            return out;
        }
    }

    /** Writes at most 50 objects, each answered on its own; {@code writeToken} (null: none) used before with this key is refused (412). */
    public Posted post(Library library, String type, JsonNode body, Long unmodifiedSince, ClientKey key, String writeToken, boolean zoteroClient) {
        String keyHash = key == null ? "" : key.hash();
        tokens.check(keyHash, writeToken);
        Posted posted = postObjects(library, type, body, unmodifiedSince, client(key, zoteroClient, library));
        tokens.written(keyHash, writeToken);
        return posted;
    }

    private static ObjectWrites.Client client(ClientKey key, boolean zoteroClient, Library library) {
        return new ObjectWrites.Client(key == null ? -1 : key.userNumber(), zoteroClient, library.path());
    }

    private Posted postObjects(Library library, String type, JsonNode body, Long unmodifiedSince, ObjectWrites.Client client) {
        if (!body.isArray()) {
            throw new ZoteroApiException(400, "Uploaded data must be a JSON array");
        }
        if (body.size() > ObjectWrites.MAX_OBJECTS) {
            throw new ZoteroApiException(413, "Only " + ObjectWrites.MAX_OBJECTS + " objects can be written at a time");
        }
        return store.write(library.id(), w -> {
            precondition(w, unmodifiedSince);
            List<ObjectWrites.Outcome> outcomes = writes.post(w, type, body, unmodifiedSince != null, client);
            return new Posted(outcomes, w.after());
        });
    }

    /** A PUT or PATCH of one object ({@code header}: its If-Unmodified-Since-Version, or null); answers the library's version after. */
    public long put(Library library, String type, String key, ObjectNode data, Long header, boolean patch, ClientKey caller, boolean zoteroClient) {
        // unchanged: the object's own version, as the dataserver answers a write that changed nothing
        return store.write(library.id(), w -> writes.put(w, type, key, data, header, patch, client(caller, zoteroClient, library)) ? w.next()
                : w.object(type, key).map(StoredObject::version).orElse(w.version()));
    }

    /** Deletes one object at its version; answers the library's version after. */
    public long delete(Library library, String type, String key, Long expected) {
        if (expected == null) {
            throw new ZoteroApiException(428, "If-Unmodified-Since-Version not provided");
        }
        List<String> all = withChildren(library, type, List.of(key));
        return store.write(library.id(), w -> {
            var existing = w.object(type, key);
            if (existing.isEmpty()) {
                throw new ZoteroApiException(404, ObjectWrites.label(type) + " not found");
            }
            if (existing.get().version() > expected) {
                throw new ZoteroApiException(412, ObjectWrites.label(type) + " has been modified since specified version (expected " + expected
                        + ", found " + existing.get().version() + ")", w.version());
            }
            writes.delete(w, type, all, library.path());
            return w.next();
        });
    }

    /** Deletes the objects named ({@code ?itemKey=}), the library at the version named. */
    public long deleteAll(Library library, String type, List<String> keys, Long unmodifiedSince) {
        if (unmodifiedSince == null) {
            throw new ZoteroApiException(428, "If-Unmodified-Since-Version not provided");
        }
        if (keys.size() > ObjectWrites.MAX_OBJECTS) {
            throw new ZoteroApiException(413, "Only " + ObjectWrites.MAX_OBJECTS + " objects can be deleted at a time");
        }
        List<String> all = withChildren(library, type, keys);
        return store.write(library.id(), w -> {
            precondition(w, unmodifiedSince);
            if (w.objects(type, all).isEmpty()) {
                return w.version();
            }
            writes.delete(w, type, all, library.path());
            return w.next();
        });
    }

    /** An item's children (and theirs: an attachment's annotations) go with it; a collection's subcollections with it. */
    private List<String> withChildren(Library library, String type, List<String> keys) {
        List<String> all = new ArrayList<>(keys);
        var objects = view(library).of(type).values();
        for (int from = 0; from < all.size(); from++) {
            String parent = all.get(from);
            objects.forEach(o -> {
                if (parent.equals(o.parentKey()) && !all.contains(o.key())) {
                    all.add(o.key());
                }
            });
        }
        return all;
    }

    /** Objects deleted since a version, by type (as {@code deleted?since=} answers: collections, searches, items, tags, settings). */
    public Map<String, List<String>> deleted(Library library, long since) {
        Map<String, List<String>> out = new LinkedHashMap<>();
        for (String t : List.of("collections", "searches", "items", "tags", "settings")) {
            out.put(t, new ArrayList<>());
        }
        for (ServedLibraries.Deletion d : store.deletions(library.id(), since)) {
            out.get(d.type().equals("search") ? "searches" : d.type() + "s").add(d.key());
        }
        return out;
    }

    /** The library's tags with each one's type and number of items, as {@code GET tags} lists them. */
    /**
     * A tag as a listing shows it: its type, how many of the items carry it, and its version (the
     * oldest version of an item carrying it: a tag is as new as its first use that still stands).
     */
    public record TagUse(int type, int numItems, long version) {}

    /** The tags of these items, by name (one per name whatever its case, as the dataserver keeps them). */
    public Map<String, TagUse> tags(LibraryView view, List<Stored> items) {
        Map<String, TagUse> out = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        for (Stored i : items) {
            for (JsonNode t : i.data().path("tags")) {
                out.merge(t.path("tag").asText(), new TagUse(t.path("type").asInt(0), 1, i.version()),
                        (a, b) -> new TagUse(a.type(), a.numItems() + 1, Math.min(a.version(), b.version())));
            }
        }
        return out;
    }

    /** Removes tags from every item that has them (each such item takes the new version), recording each tag's deletion. */
    public long deleteTags(Library library, List<String> tags, Long unmodifiedSince) {
        if (unmodifiedSince == null) {
            throw new ZoteroApiException(428, "If-Unmodified-Since-Version not provided");
        }
        List<Stored> items = view(library).of("item").values().stream().toList();
        return store.write(library.id(), w -> {
            precondition(w, unmodifiedSince);
            boolean any = false;
            for (Stored i : items) {
                ObjectNode data = i.data().deepCopy();
                var kept = data.putArray("tags");
                boolean changed = false;
                for (JsonNode t : i.data().path("tags")) {
                    if (tags.contains(t.path("tag").asText())) {
                        changed = true;
                    } else {
                        kept.add(t);
                    }
                }
                if (changed) {
                    w.put("item", i.key(), i.parentKey(), i.trashed(), data.toString());
                    any = true;
                }
            }
            for (String t : tags) {
                w.tagDeleted(t);
                any = true;
            }
            return any ? w.next() : w.version();
        });
    }

    public List<ServedLibraries.Setting> settings(Library library) {
        return store.settings(library.id());
    }

    /** Writes settings ({@code {name: {value}}}); answers the library's version after. */
    public long putSettings(Library library, JsonNode body, Long unmodifiedSince) {
        return putSettings(library, body, unmodifiedSince, null, null);
    }

    /** {@code settings/{name}}: one setting, its {@code If-Unmodified-Since-Version} the setting's own version (0: it must not exist yet). */
    public long putSetting(Library library, String name, JsonNode body, Long settingVersion) {
        ObjectNode one = com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode();
        one.set(name, body);
        return putSettings(library, one, null, name, settingVersion);
    }

    private long putSettings(Library library, JsonNode body, Long unmodifiedSince, String single, Long settingVersion) {
        if (!body.isObject()) {
            throw new ZoteroApiException(400, "Uploaded data must be a JSON object");
        }
        return store.write(library.id(), w -> {
            precondition(w, unmodifiedSince);
            if (single != null) {
                settingPrecondition(w, single, settingVersion);
            }
            boolean any = false;
            for (var p : body.properties()) {
                SettingRules.check(p.getKey(), p.getValue(), "user".equals(library.kind()));
                JsonNode given = p.getValue().get("version");
                var stored = w.setting(p.getKey());
                if (given != null && stored.isPresent() && stored.get().version() > given.asLong()) {
                    throw new ZoteroApiException(412, "Setting '" + p.getKey() + "' has been modified since specified version (expected " + given.asLong()
                            + ", found " + stored.get().version() + ")", w.version());
                }
                String value = p.getValue().get("value").toString();
                if (w.setting(p.getKey()).map(s -> !s.value().equals(value)).orElse(true)) {
                    w.putSetting(p.getKey(), value);
                    any = true;
                }
            }
            return any ? w.next() : w.version();
        });
    }

    /** The dataserver's single-object version check, for a setting: a missing one at a version above 0, or a newer one, is 412. */
    private static void settingPrecondition(ServedLibraries.LibraryWrite w, String name, Long expected) {
        if (expected == null) {
            return;
        }
        var stored = w.setting(name);
        if (stored.isEmpty() && expected > 0) {
            throw new ZoteroApiException(412, "Setting '" + name + "' doesn't exist (expected version " + expected + ")", w.version());
        }
        if (stored.isPresent() && stored.get().version() > expected) {
            throw new ZoteroApiException(412, "Setting '" + name + "' has been modified since specified version (expected " + expected + ", found "
                    + stored.get().version() + ")", w.version());
        }
    }

    /** {@code DELETE settings/{name}}, its {@code If-Unmodified-Since-Version} the setting's own version. */
    public long deleteSetting(Library library, String name, Long settingVersion) {
        return store.write(library.id(), w -> {
            if (w.setting(name).isPresent()) {
                settingPrecondition(w, name, settingVersion);
            }
            if (w.setting(name).isEmpty()) {
                throw new ZoteroApiException(404, "Setting '" + name + "' not found");
            }
            w.deleteSetting(name);
            return w.next();
        });
    }

    /** Deletes the settings named ({@code DELETE settings?settingKey=a,b}, at most 50); names the library has not are let be. */
    public long deleteSettings(Library library, List<String> names, Long unmodifiedSince) {
        if (names.size() > ObjectWrites.MAX_OBJECTS) {
            throw new ZoteroApiException(400, "Cannot delete more than " + ObjectWrites.MAX_OBJECTS + " settings at once");
        }
        return store.write(library.id(), w -> {
            precondition(w, unmodifiedSince);
            boolean any = false;
            for (String name : names) {
                if (w.setting(name).isPresent()) {
                    w.deleteSetting(name);
                    any = true;
                }
            }
            return any ? w.next() : w.version();
        });
    }

    // ---- the test root's set-up (Zotero's own API suite), served only when a test root is configured

    /** Wipes both users' libraries and gives each a new full-access key: the suite's {@code test/setup}. */
    public Map<Long, String> setUpForTests(long user1, long user2) {
        Map<Long, String> out = new LinkedHashMap<>();
        for (long u : List.of(user1, user2)) {
            Library lib = userLibrary(u);
            store.clear(lib.id());
            views.remove(lib.id());
            // every key but the engine's, if the user is a served account's (the suite may run over accounts' libraries)
            keys.forUser(u).stream().filter(k -> !k.name().equals(ServedAccounts.ENGINE_KEY)).forEach(k -> store.removeKey(k.hash()));
            out.put(u, keys.issue(u, "test key"));
        }
        return out;
    }

    public void clear(Library library) {
        store.clear(library.id());
        views.remove(library.id());
    }

    /** The groups a user owns or is a member of. */
    public List<Library> groupsOf(long user) {
        return store.libraries("group").stream().filter(g -> isMember(user, g)).toList();
    }

    public Library createGroup(String name, ObjectNode meta) {
        Library g = store.create("group", 0, null, name, meta.toString());
        meta.put("id", g.number());
        store.describe(g.id(), name, meta.toString());
        return store.library("group", g.number()).orElseThrow();
    }

    public void describeGroup(Library group, ObjectNode meta) {
        store.describe(group.id(), meta.path("name").asText(group.name()), meta.toString());
    }

    public void dropGroup(Library group) {
        store.drop(group.id());
        views.remove(group.id());
    }
}
