package dev.idiom.services.app.zotero;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.idiom.events.zotero.ServedLibraries;
import dev.idiom.events.zotero.ServedLibraries.ClientKey;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.HexFormat;
import java.util.Optional;

/**
 * The keys Zotero clients present: 24 characters of letters and digits as zotero.org makes them,
 * kept only as a SHA-256, each for one user with the API's access object ({@code user: {library,
 * notes, write, files}, groups: {all | id: {library, write}}}).
 */
public final class ZoteroKeys {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

    private final ServedLibraries store;
    private final Clock clock;
    private final SecureRandom random = new SecureRandom();

    public ZoteroKeys(ServedLibraries store, Clock clock) {
        this.store = store;
        this.clock = clock;
    }

    /** A key of the user with full access to the user's library and its groups; returned once, kept as a hash. */
    public String issue(long userNumber, String name) {
        return issue(userNumber, name, fullAccess());
    }

    public String issue(long userNumber, String name, ObjectNode access) {
        StringBuilder key = new StringBuilder(24);
        for (int i = 0; i < 24; i++) {
            key.append(ALPHABET.charAt(random.nextInt(ALPHABET.length())));
        }
        store.addKey(new ClientKey(hash(key.toString()), userNumber, name, access.toString(), clock.instant()));
        return key.toString();
    }

    /** Full access, as a key made in zotero.org's settings with every box ticked. */
    public static ObjectNode fullAccess() {
        ObjectNode access = JSON.createObjectNode();
        access.putObject("user").put("library", true).put("notes", true).put("write", true).put("files", true);
        access.putObject("groups").putObject("all").put("library", true).put("write", true);
        return access;
    }

    public Optional<ClientKey> find(String key) {
        return key == null || key.isBlank() ? Optional.empty() : store.key(hash(key.strip()));
    }

    /** Renames the key and, when {@code access} is given, grants what it says in place of what it granted. */
    public ClientKey update(ClientKey key, String name, ObjectNode access) {
        ClientKey changed = new ClientKey(key.hash(), key.userNumber(), name, access == null ? key.access() : access.toString(), key.createdAt());
        store.addKey(changed);
        return changed;
    }

    /**
     * What an access object a client asks for grants, as the dataserver stores it: the user's library
     * (with its files) and notes and write when asked; all groups, or each group the user is a member of,
     * with write when asked; anything else is left out. A flag is granted when it is PHP-truthy
     * ({@code true}, a number but 0, a string but "" and "0"), as the dataserver reads them.
     */
    public static ObjectNode granted(JsonNode asked, java.util.function.LongPredicate memberOf) {
        ObjectNode out = JSON.createObjectNode();
        JsonNode user = asked.path("user");
        if (truthy(user.path("library"))) {
            ObjectNode u = out.putObject("user").put("library", true).put("files", true);
            if (truthy(user.path("notes"))) {
                u.put("notes", true);
            }
            if (truthy(user.path("write"))) {
                u.put("write", true);
            }
        }
        ObjectNode groups = JSON.createObjectNode();
        asked.path("groups").properties().forEach(g -> {
            boolean all = g.getKey().equals("all") || g.getKey().equals("0");
            if (all || g.getKey().matches("[0-9]{1,18}") && memberOf.test(Long.parseLong(g.getKey()))) {
                groups.putObject(all ? "all" : g.getKey()).put("library", true).put("write", truthy(g.getValue().path("write")));
            }
        });
        if (!groups.isEmpty()) {
            out.set("groups", groups);
        }
        return out;
    }

    private static boolean truthy(JsonNode v) {
        return v.isBoolean() ? v.booleanValue() : v.isNumber() ? v.doubleValue() != 0 : v.isTextual() && !v.textValue().isEmpty() && !v.textValue().equals("0");
    }

    /** Every key of a user. */
    public java.util.List<ClientKey> forUser(long userNumber) {
        return store.keys(userNumber);
    }

    public boolean revoke(String key) {
        return store.removeKey(hash(key));
    }

    /** The key's access object. */
    public static JsonNode access(ClientKey key) {
        try {
            return JSON.readTree(key.access());
        } catch (java.io.IOException e) {
            throw new IllegalStateException("a stored key's access is not JSON", e);
        }
    }

    static String hash(String key) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(key.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }
}
