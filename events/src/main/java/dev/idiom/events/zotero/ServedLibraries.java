package dev.idiom.events.zotero;

import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * The storage of the Zotero libraries Idiom serves: each library's objects (items, collections,
 * searches) as the API's {@code data} JSON with the library version of their last write, what was
 * deleted at which version, the settings, and the API keys clients present. Every write request is
 * one {@link #write} under the library's lock and takes the next library version, so a version only
 * grows and names exactly one write.
 */
public interface ServedLibraries {
    /** A served library: {@code kind} user or group, {@code number} its id in the API's paths. */
    record Library(long id, String kind, long number, String account, String name, long version, String meta) {
        /** The library as the API's paths name it: {@code users/N} or {@code groups/N}. */
        public String path() {
            return ("group".equals(kind) ? "groups/" : "users/") + number;
        }
    }

    /** One object as stored: its type ({@code item}, {@code collection}, {@code search}), key, version, parent, trash flag and data. */
    /** An object as stored; {@code createdBy} and {@code modifiedBy} are user numbers (null: not known). */
    record StoredObject(String type, String key, long version, String parentKey, boolean trashed, String data, Long createdBy, Long modifiedBy) {}

    /** An object, tag or setting deleted at a library version. */
    record Deletion(String type, String key, long version) {}

    /** A setting's JSON value and the version it was last written at. */
    record Setting(String name, String value, long version) {}

    /** A client's key: the user it is for, a name, the access it grants (the API's JSON). */
    record ClientKey(String hash, long userNumber, String name, String access, Instant createdAt) {}

    /** The name and password a user's clients sign in with to get a key; the password kept only as a salted hash. */
    record SignIn(long userNumber, String username, String passwordHash) {}

    Optional<Library> library(String kind, long number);

    Optional<Library> byAccount(String account);

    /** Every library of this kind. */
    List<Library> libraries(String kind);

    /** Makes a library at version 0 ({@code number} 0: the next free number of its kind). */
    Library create(String kind, long number, String account, String name, String meta);

    /** Sets a library's name and meta (a group's data). */
    void describe(long library, String name, String meta);

    /** Empties a library (objects, deletions, settings); its version goes on growing (the emptying takes the next one), as the dataserver clears one. */
    void clear(long library);

    /** Removes a library and everything in it (a user library: the user's sign-in too). */
    void drop(long library);

    /** The library's current version (a cheap read: what a cached reading is checked against). */
    long version(long library);

    /** Every object of the type, trashed ones too. */
    List<StoredObject> objects(long library, String type);

    List<Deletion> deletions(long library, long since);

    List<Setting> settings(long library);

    /** The work of one write request, in one transaction, under the library's lock. */
    <T> T write(long library, Function<LibraryWrite, T> work);

    /** What a write request may do inside {@link #write}. */
    interface LibraryWrite {
        /** The library's version before this write. */
        long version();

        /** The version this write's changes take now (the library's version after it, unless {@link #nextObject()}); asking makes the write count as one. */
        long next();

        /**
         * The changes after this take the version after {@link #next()}'s, if a change took that one: each
         * object of a batch has its own version, as the dataserver gives them.
         */
        void nextObject();

        /** The library's version after this write: its last change's, or {@link #version()} if it changed nothing. */
        long after();

        Optional<StoredObject> object(String type, String key);

        List<StoredObject> objects(String type, Collection<String> keys);

        /** Writes the object at {@link #next()} (its version is set so); a deletion of the same key is forgotten. */
        void put(String type, String key, String parentKey, boolean trashed, String data);

        /**
         * Writes the object as {@link #put(String, String, String, boolean, String)} does, by {@code user}:
         * its maker stays who made it first (before a deletion too); {@code changedIt}: the write counts as
         * the user's change (not one of collections or relations alone).
         */
        void put(String type, String key, String parentKey, boolean trashed, String data, Long user, boolean changedIt);

        /** Deletes the object and records its deletion at {@link #next()}. */
        void delete(String type, String key);

        Optional<Setting> setting(String name);

        void putSetting(String name, String value);

        void deleteSetting(String name);

        /**
         * Removes a setting that is about an object no longer there (an attachment's
         * {@code lastPageIndex_…}), with no deletion recorded; in every library that has it when
         * {@code everywhere} (a group item's, which each member keeps in their own library).
         */
        void forgetSetting(String name, boolean everywhere);

        /** Records a tag's deletion at {@link #next()} (tags live in their items; this is for {@code deleted?since=}). */
        void tagDeleted(String tag);
    }

    void addKey(ClientKey key);

    Optional<ClientKey> key(String hash);

    List<ClientKey> keys(long userNumber);

    boolean removeKey(String hash);

    /** Sets the user's sign-in (in place of one it had); a name another user signs in with is refused. */
    void putSignIn(SignIn signIn);

    /** The sign-in of that name (names are compared as stored: exactly). */
    Optional<SignIn> signIn(String username);

    Optional<SignIn> signInOf(long userNumber);
}
