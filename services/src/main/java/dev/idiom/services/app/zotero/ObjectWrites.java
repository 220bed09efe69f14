package dev.idiom.services.app.zotero;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.idiom.events.zotero.ServedLibraries.LibraryWrite;
import dev.idiom.events.zotero.ServedLibraries.StoredObject;
import dev.idiom.wrappers.zotero.ZoteroItemRules;
import dev.idiom.wrappers.zotero.ZoteroSchema;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Writes to a served library by the API's rules (www.zotero.org/support/dev/web_api/v3/write_requests):
 * a POST of up to 50 objects answered object by object, an object's {@code version} (or the
 * request's {@code If-Unmodified-Since-Version}) checked against what is stored, a PATCH or a POST
 * of an existing object merging into it, a PUT replacing it, every change of one request at one new
 * library version, and an object that would not change left alone ("unchanged").
 */
public final class ObjectWrites {
    static final int MAX_OBJECTS = 50;
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String KEY_ALPHABET = "23456789ABCDEFGHIJKLMNPQRSTUVWXYZ";

    /** One object's answer in a POST: written (its new data), unchanged, or failed with the API's code. */
    public record Outcome(int index, String key, ObjectNode written, boolean unchanged, int code, String message, java.util.Map<String, String> data) {
        Outcome(int index, String key, ObjectNode written, boolean unchanged, int code, String message) {
            this(index, key, written, unchanged, code, message, java.util.Map.of());
        }

        public boolean failed() {
            return code != 0;
        }
    }

    private final ZoteroSchema schema;
    private final Clock clock;
    private final SecureRandom random = new SecureRandom();

    ObjectWrites(ZoteroSchema schema, Clock clock) {
        this.schema = schema;
        this.clock = clock;
    }

    /**
     * Who writes: the user whose key it is (-1: none), and whether it is a Zotero client (its
     * User-Agent names Zotero or Firefox), whose {@code dateModified} is kept as given, changed or not
     * (the dataserver's tmpZoteroClientDateModifiedHack).
     */
    record Client(long user, boolean keepsDateModified, String libraryPath) {}

    /** An item's URI as relations name it ({@code http://zotero.org/users/1/items/KEY}: zotero.org's, as clients write them). */
    static String itemUri(String libraryPath, String key) {
        return "http://zotero.org/" + libraryPath + "/items/" + key;
    }

    /**
     * Leaves out of an item's {@code dc:relation}s those another item of the library already makes
     * (it names this one back): related items are related both ways, stored once, as the dataserver
     * keeps them (an item sent back as read, its reverse relations in it, is unchanged).
     */
    private static void withoutReverseRelations(LibraryWrite w, String key, ObjectNode data, String libraryPath) {
        if (!data.path("relations").has("dc:relation") || libraryPath == null) {
            return;
        }
        String prefix = itemUri(libraryPath, "");
        String self = itemUri(libraryPath, key);
        List<String> kept = new ArrayList<>();
        for (String uri : LibraryView.related(data)) {
            boolean reverse = uri.startsWith(prefix) && w.object("item", uri.substring(prefix.length()))
                    .map(o -> LibraryView.related(LibraryView.parse(o.data())).contains(self)).orElse(false);
            if (!reverse) {
                kept.add(uri);
            }
        }
        LibraryView.relate(data, kept);
    }

    /** A POST's objects, each written, left unchanged or refused; {@code libraryPrecondition}: the request named the library's version. */
    List<Outcome> post(LibraryWrite w, String type, JsonNode body, boolean libraryPrecondition, Client client) {
        List<Outcome> out = new ArrayList<>();
        for (int i = 0; i < body.size(); i++) {
            JsonNode data = body.get(i);
            if (!data.isObject()) {
                out.add(new Outcome(i, "", null, false, 400, "Invalid value for index " + i + " in uploaded data; expected JSON " + type + " object"));
                continue;
            }
            w.nextObject(); // each object written takes its own version
            try {
                Outcome outcome = one(w, type, i, (ObjectNode) data, libraryPrecondition, client);
                if (outcome.unchanged() && !"item".equals(type)) {
                    w.next(); // the dataserver's way: an unchanged collection or search still takes its version ("for now", its suite says)
                }
                out.add(outcome);
            } catch (ZoteroApiException refused) {
                out.add(new Outcome(i, data.path("key").asText(""), null, false, refused.status(), refused.getMessage(), refused.data()));
            }
        }
        return out;
    }

    private Outcome one(LibraryWrite w, String type, int index, ObjectNode given, boolean libraryPrecondition, Client client) {
        ObjectNode data = editable(given);
        String key = data.hasNonNull("key") ? data.path("key").asText() : null;
        if (key != null && !key.matches("[23456789ABCDEFGHIJKLMNPQRSTUVWXYZ]{8}")) {
            throw new ZoteroApiException(400, "'" + key + "' is not a valid " + type + " key");
        }
        Optional<StoredObject> existing = key == null ? Optional.empty() : w.object(type, key);
        JsonNode version = data.get("version");
        if (existing.isPresent()) {
            if (version != null && version.asLong() != existing.get().version()) {
                throw new ZoteroApiException(412, label(type) + " has been modified since specified version (expected " + version.asText() + ", found "
                        + existing.get().version() + ")");
            }
            if (version == null && !libraryPrecondition) {
                throw new ZoteroApiException(428, "Either If-Unmodified-Since-Version or 'version' property must be provided for 'key'-based writes");
            }
            return write(w, type, index, key, merged(existing.get(), data), existing, client);
        }
        if (key != null && version == null && !libraryPrecondition) {
            // a key names an object that may exist: the writer must say which version it expects (0: none)
            throw new ZoteroApiException(428, "Either If-Unmodified-Since-Version or 'version' property must be provided for 'key'-based writes");
        }
        if (key != null && version != null && version.asLong() != 0) {
            throw new ZoteroApiException(404, label(type) + " doesn't exist (expected version " + version.asText() + "; use 0 instead)");
        }
        return write(w, type, index, key == null ? newKey() : key, data.deepCopy(), existing, client);
    }

    /**
     * A PUT (whole object) or PATCH (its properties merged in) of one object, its version from the
     * header or the body's {@code version} (the dataserver's checkSingleObjectWriteVersion); false: nothing changed.
     */
    boolean put(LibraryWrite w, String type, String key, ObjectNode given, Long header, boolean patch, Client client) {
        ObjectNode data = editable(given);
        Optional<StoredObject> existing = w.object(type, key);
        Long property = data.hasNonNull("version") ? data.path("version").asLong() : null;
        if (header != null && property != null && !header.equals(property)) {
            throw new ZoteroApiException(400, "If-Unmodified-Since-Version value does not match JSON 'version' property (" + header + " != " + property + ")");
        }
        Long expected = header != null ? header : property;
        if (existing.isEmpty()) {
            if (patch && expected == null) {
                throw new ZoteroApiException(404, label(type) + " not found (to create, use If-Unmodified-Since-Version: 0, JSON 'version' 0, or PUT method)");
            }
            if (expected != null && expected > 0) {
                throw new ZoteroApiException(412, label(type) + " not found (expected version " + expected + ")", w.version());
            }
        } else if (expected == null) {
            throw new ZoteroApiException(428, "Either If-Unmodified-Since-Version or object version property must be provided for key-based writes");
        } else if (existing.get().version() > expected) {
            throw new ZoteroApiException(412, label(type) + " has been modified since specified version (expected " + expected + ", found "
                    + existing.get().version() + ")", existing.get().version());
        }
        if (!patch && "item".equals(type)) {
            for (String required : List.of("collections", "relations")) {
                if (!data.has(required) && existing.isPresent()) {
                    throw new ZoteroApiException(400, "'" + required + "' property not provided");
                }
            }
        }
        ObjectNode next = patch && existing.isPresent() ? merged(existing.get(), data) : data.deepCopy();
        return !write(w, type, 0, key, next, existing, client).unchanged();
    }

    /** An object as the API answers it ({@code key}, {@code version}, {@code data}, …) is written by its {@code data} (the dataserver's extractEditableJSON). */
    private static ObjectNode editable(ObjectNode given) {
        return given.get("data") instanceof ObjectNode data ? data : given;
    }

    private static ObjectNode merged(StoredObject existing, ObjectNode changes) {
        ObjectNode next = LibraryView.parse(existing.data());
        changes.properties().forEach(p -> next.set(p.getKey(), p.getValue()));
        JsonNode parent = changes.path("parentItem");
        if (parent.isTextual() && !parent.asText().isEmpty() && !changes.has("collections")) {
            next.putArray("collections"); // made a child: out of its collections, as the dataserver moves it
        } else if (!changes.has("parentItem") && next.hasNonNull("parentItem") && !changes.path("collections").isEmpty()) {
            next.remove("parentItem"); // a child given collections is made top-level (the dataserver's implicit parentItem: false)
        }
        return next;
    }

    private Outcome write(LibraryWrite w, String type, int index, String key, ObjectNode data, Optional<StoredObject> existing, Client client) {
        data.remove("version");
        data.put("key", key);
        withoutControlCharacters(data);
        if ("item".equals(type)) {
            data.properties().forEach(p -> {
                if (p.getValue().isNull() && schema.isField(p.getKey())) {
                    data.put(p.getKey(), ""); // a field set to null is emptied, as the dataserver reads it
                }
            });
        }
        if ("item".equals(type) && data.path("tags").isArray()) {
            // an empty tag (or one of spaces alone) is no tag; a tag's name is kept without surrounding spaces, as the dataserver keeps it
            var tags = JSON.createArrayNode();
            for (JsonNode t : data.path("tags")) {
                if (t.isObject() && t.path("tag").isValueNode() && t.path("tag").asText().isBlank()) {
                    continue;
                }
                if (t.isObject() && t.path("tag").isTextual()) {
                    ((ObjectNode) t).put("tag", t.path("tag").asText().strip());
                }
                tags.add(t);
            }
            data.set("tags", tags);
        }
        if ("item".equals(type) && data.has("lastRead")) {
            JsonNode lastRead = data.get("lastRead");
            if (lastRead.isNull() || lastRead.isBoolean() && !lastRead.asBoolean() || lastRead.isTextual() && lastRead.asText().isEmpty()) {
                data.remove("lastRead"); // "", null or false clears it
            } else if (client.libraryPath() != null && client.libraryPath().startsWith("groups/")) {
                throw new ZoteroApiException(400, "'lastRead' can only be set in user libraries"); // each reader's own: a setting in groups
            }
        }
        String parent = check(w, type, key, data, existing.map(e -> LibraryView.parse(e.data())).orElse(null));
        if ("item".equals(type)) {
            withoutReverseRelations(w, key, data, client.libraryPath());
        }
        if ("item".equals(type)) {
            for (String date : List.of("dateAdded", "accessDate")) {
                if (data.hasNonNull(date) && !data.path(date).asText().isEmpty()) {
                    String v = data.path(date).asText();
                    data.put(date, ZoteroItemRules.timestamp(v, clock.instant()));
                }
            }
        }
        if (existing.isPresent()) {
            ObjectNode before = LibraryView.parse(existing.get().data());
            ObjectNode compared = data.deepCopy();
            compared.remove("dateModified");
            before.remove("dateModified");
            before.remove("version");
            if (compared.equals(before)) {
                return new Outcome(index, key, null, true, 0, null);
            }
        }
        String now = clock.instant().truncatedTo(ChronoUnit.SECONDS).toString().replace(".000", "");
        if ("item".equals(type)) {
            if (!data.hasNonNull("dateAdded") || data.path("dateAdded").asText().isEmpty()) {
                data.put("dateAdded", existing.map(e -> LibraryView.parse(e.data()).path("dateAdded").asText(now)).orElse(now));
            }
            // the dataserver's rules: a dateModified given is kept if it differs from the stored one, or whatever it is from a
            // Zotero client; otherwise it is now, unless only collections, relations or inPublications changed
            String given = data.hasNonNull("dateModified") && !data.path("dateModified").asText().isEmpty()
                    ? ZoteroItemRules.timestamp(data.path("dateModified").asText(), null) : null;
            String stored = existing.map(e -> LibraryView.parse(e.data()).path("dateModified").asText(null)).orElse(null);
            boolean onlyLinks = stored != null && LINKS.containsAll(changed(LibraryView.parse(existing.get().data()), data));
            data.put("dateModified", given != null && (client.keepsDateModified() || !given.equals(stored)) ? given : onlyLinks ? stored : now);
            for (String array : List.of("tags", "collections")) {
                if (!data.has(array)) {
                    data.putArray(array);
                }
            }
            if (!ZoteroItemRules.NON_BIBLIOGRAPHIC.containsKey(data.path("itemType").asText()) && !data.has("creators")) {
                data.putArray("creators");
            }
        }
        if (!data.has("relations") && !"search".equals(type)) {
            data.putObject("relations");
        }
        boolean trashed = ZoteroItemRules.trashed(data);
        if (!trashed) {
            data.remove("deleted");
        } else if ("item".equals(type)) {
            data.put("deleted", 1); // the API's own words for an item in the trash (true for collections and searches)
        } else {
            data.put("deleted", true);
        }
        boolean changedIt = existing.isEmpty() || !LINKS.containsAll(changed(LibraryView.parse(existing.get().data()), data));
        w.put(type, key, parent, trashed, data.toString(), client.user() < 0 ? null : client.user(), changedIt);
        ObjectNode written = data.deepCopy();
        written.put("version", w.next());
        return new Outcome(index, key, written, false, 0, null);
    }

    /** Drops the control characters XML cannot hold (all but tab, newline, return) from every text, as the dataserver filters them. */
    private static void withoutControlCharacters(JsonNode node) {
        if (node instanceof ObjectNode o) {
            o.properties().forEach(p -> {
                if (p.getValue().isTextual()) {
                    String clean = CONTROL.matcher(p.getValue().asText()).replaceAll("");
                    if (!clean.equals(p.getValue().asText())) {
                        o.put(p.getKey(), clean);
                    }
                } else {
                    withoutControlCharacters(p.getValue());
                }
            });
        } else if (node instanceof com.fasterxml.jackson.databind.node.ArrayNode a) {
            for (int i = 0; i < a.size(); i++) {
                if (a.get(i).isTextual()) {
                    a.set(i, JSON.getNodeFactory().textNode(CONTROL.matcher(a.get(i).asText()).replaceAll("")));
                } else {
                    withoutControlCharacters(a.get(i));
                }
            }
        }
    }

    private static final java.util.regex.Pattern CONTROL = java.util.regex.Pattern.compile("[\\x00-\\x08\\x0B\\x0C\\x0E-\\x1F]");

    /** Refuses what the API refuses (400, 409); answers the object's parent key. */
    private String check(LibraryWrite w, String type, String key, ObjectNode data, ObjectNode before) {
        switch (type) {
            case "item" -> {
                ZoteroItemRules.Refusal refused = ZoteroItemRules.refusal(schema, data, before);
                if (refused != null) {
                    throw refused.data().isEmpty() ? new ZoteroApiException(refused.code(), refused.message())
                            : new ZoteroApiException(refused.code(), refused.message(), refused.data().keySet().iterator().next(),
                            refused.data().values().iterator().next());
                }
                JsonNode creators = data.path("creators");
                if (before == null && creators.size() == 1 && creators.get(0).path("name").asText("").isBlank()
                        && creators.get(0).path("firstName").asText("").isBlank() && creators.get(0).path("lastName").asText("").isBlank()) {
                    data.putArray("creators"); // the template's nameless creator is no creator
                }
                for (JsonNode c : data.path("collections")) {
                    if (w.object("collection", c.asText()).isEmpty()) {
                        throw new ZoteroApiException(409, "Collection " + c.asText() + " not found", "collection", c.asText());
                    }
                }
                return ItemParents.check(w, key, data, before != null);
            }
            case "collection" -> {
                if (data.path("name").asText("").isBlank()) {
                    throw new ZoteroApiException(400, "Collection name cannot be empty");
                }
                if (data.has("relations")) {
                    ZoteroItemRules.Refusal refused = ZoteroItemRules.relations(data.path("relations"), true);
                    if (refused != null) {
                        throw new ZoteroApiException(refused.code(), refused.message());
                    }
                }
                String name = data.path("name").asText();
                if (name.codePointCount(0, name.length()) > ZoteroItemRules.MAX_NAME) {
                    throw new ZoteroApiException(413, "Collection name '" + name.substring(0, name.offsetByCodePoints(0, 50)) + "…' too long", "value", name);
                }
                JsonNode p = data.path("parentCollection");
                // the dataserver reads any false-like value (false, null, "", as pyzotero sends) as no parent
                if (p.isMissingNode() || p.isNull() || p.isBoolean() || p.isTextual() && p.asText().isEmpty()) {
                    data.put("parentCollection", false);
                    return null;
                }
                if (p.asText().equals(key)) {
                    throw new ZoteroApiException(400, "Collection " + key + " cannot be a child of itself");
                }
                Optional<StoredObject> parent = w.object("collection", p.asText());
                if (parent.isEmpty()) {
                    throw new ZoteroApiException(409, "Parent collection " + p.asText() + " not found", "collection", p.asText());
                }
                if (key != null && descends(w, parent.get(), key)) {
                    // the dataserver's way out of a cycle: the new parent, a descendant of this collection, moves to the top
                    ObjectNode moved = LibraryView.parse(parent.get().data());
                    moved.put("parentCollection", false);
                    w.put("collection", parent.get().key(), null, parent.get().trashed(), moved.toString());
                }
                return p.asText();
            }
            default -> {
                if (data.path("name").asText("").isBlank()) {
                    throw new ZoteroApiException(400, "Search name cannot be empty");
                }
                String name = data.path("name").asText();
                if (name.codePointCount(0, name.length()) > ZoteroItemRules.MAX_NAME) {
                    throw new ZoteroApiException(413, "Search name '" + name.substring(0, name.offsetByCodePoints(0, 50)) + "…' too long", "value", name);
                }
                if (!data.path("conditions").isArray() || data.path("conditions").isEmpty()) {
                    throw new ZoteroApiException(400, "'conditions' cannot be empty");
                }
                return null;
            }
        }
    }

    /** What changing only these leaves an item's dateModified (and who last modified it) as it was. */
    private static final java.util.Set<String> LINKS = java.util.Set.of("collections", "relations", "inPublications");

    /** The properties whose values differ between two versions of an object's data (its key, version and dateModified aside). */
    static java.util.Set<String> changed(ObjectNode before, ObjectNode after) {
        java.util.Set<String> out = new java.util.TreeSet<>();
        before.fieldNames().forEachRemaining(out::add);
        after.fieldNames().forEachRemaining(out::add);
        out.removeIf(f -> f.equals("key") || f.equals("version") || f.equals("dateModified")
                || java.util.Objects.equals(before.get(f), after.get(f)));
        return out;
    }

    /** Whether the collection is {@code ancestor}'s descendant (its parent's parent …). */
    private static boolean descends(LibraryWrite w, StoredObject collection, String ancestor) {
        StoredObject c = collection;
        for (int depth = 0; c != null && c.parentKey() != null && depth < 1000; depth++) {
            if (c.parentKey().equals(ancestor)) {
                return true;
            }
            c = w.object("collection", c.parentKey()).orElse(null);
        }
        return false;
    }

    /** Deletes the objects of these keys that exist. */
    void delete(LibraryWrite w, String type, List<String> keys, String libraryPath) {
        for (StoredObject o : w.objects(type, keys)) {
            w.delete(type, o.key());
            if ("item".equals(type)) {
                // where a reader was in the attachment goes with it: the owner's in a user library, every member's in a group
                boolean group = libraryPath.startsWith("groups/");
                w.forgetSetting("lastPageIndex_" + (group ? "g" + libraryPath.substring("groups/".length()) : "u") + "_" + o.key(), group);
            }
        }
    }

    private String newKey() {
        StringBuilder k = new StringBuilder(8);
        for (int i = 0; i < 8; i++) {
            k.append(KEY_ALPHABET.charAt(random.nextInt(KEY_ALPHABET.length())));
        }
        return k.toString();
    }

    static String label(String type) {
        return Character.toUpperCase(type.charAt(0)) + type.substring(1);
    }
}
