package dev.idiom.services.app;

import dev.idiom.events.InvalidValueException;
import dev.idiom.events.accounts.ApiKeyRepository;
import dev.idiom.events.accounts.StoredApiKey;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Instant;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * API keys: created random (256 bits), stored as their SHA-256 only, named, revocable. Every
 * request but the anonymous few presents one as {@code Authorization: Bearer <key>}. A verified
 * key is remembered for a few seconds, so the hot path costs one hash and a map lookup; a key
 * revoked on another node stops working there within that time.
 */
public final class ApiKeys {
    /** An admin key from the environment (operators' scripts, the test suite); never stored. */
    public static final String ENV_TOKEN = "IDIOM_ADMIN_TOKEN";
    /** The file the first admin key is written to, in the data directory. */
    public static final String ADMIN_KEY_FILE = "admin.key";
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,63}");
    private static final java.time.Duration REMEMBER = java.time.Duration.ofSeconds(5);
    private static final int REMEMBER_MOST = 10_000;

    /**
     * A key as anyone may see it: never the key itself.
     *
     * @param seesPrivate the key sees private records (always so for curators and admins; a reader only if made so)
     */
    public record ApiKey(String name, Role role, Instant createdAt, String createdBy, Instant revokedAt, boolean seesPrivate) {}

    /** A new key and its secret, shown this once. */
    public record Issued(ApiKey key, String secret) {}

    private record Remembered(Caller caller, java.time.Instant until) {}

    private final ApiKeyRepository repository;
    private final Clock clock;
    private final SecureRandom random = new SecureRandom();
    private final byte[] envToken;
    private final ConcurrentHashMap<String, Remembered> verified = new ConcurrentHashMap<>();

    /** @param envToken {@value #ENV_TOKEN}, or null */
    public ApiKeys(ApiKeyRepository repository, Clock clock, String envToken) {
        this.repository = repository;
        this.clock = clock;
        this.envToken = envToken == null || envToken.isBlank() ? null : envToken.strip().getBytes(StandardCharsets.UTF_8);
    }

    public Issued create(String name, Role role, String createdBy) {
        return create(name, role, false, createdBy);
    }

    /** @param privateRecords a reader key that may see private records (curators and admins always may) */
    public Issued create(String name, Role role, boolean privateRecords, String createdBy) {
        if (name == null || !NAME.matcher(name).matches()) {
            throw new InvalidValueException("a key's name is 1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit; got '"
                    + (name == null ? "" : name) + "'");
        }
        byte[] raw = new byte[32];
        random.nextBytes(raw);
        String secret = "idiom_" + Base64.getUrlEncoder().withoutPadding().encodeToString(raw);
        StoredApiKey stored = new StoredApiKey(name, role.id(), hash(secret), clock.instant(), createdBy, null, privateRecords);
        if (!repository.insert(stored)) {
            throw new KeyNameTakenException(name);
        }
        return new Issued(view(stored), secret);
    }

    public List<ApiKey> list() {
        return repository.list().stream().map(ApiKeys::view).toList();
    }

    /** Revokes the key at once on this node (within seconds on others). */
    public void revoke(String name) {
        if (name == null || !NAME.matcher(name).matches() || !repository.revoke(name, clock.instant())) {
            throw new UnknownKeyException(name);
        }
        verified.values().removeIf(r -> r.caller().keyName().equals(name));
    }

    /**
     * The caller presenting this {@code Authorization} header.
     *
     * @throws NotAuthorizedException no bearer key, or one that is unknown or revoked
     */
    /**
     * The caller of a key known without a database lookup (the environment's admin token, or a key
     * verified in the last few seconds), or empty: how a valid key gets through while its address is
     * throttled for another's wrong keys.
     */
    public Optional<Caller> knownWithoutLookup(String authorization) {
        if (authorization == null || !authorization.regionMatches(true, 0, "Bearer ", 0, 7) || authorization.length() == 7) {
            return Optional.empty();
        }
        String key = authorization.substring(7).strip();
        if (envToken != null && MessageDigest.isEqual(envToken, key.getBytes(StandardCharsets.UTF_8))) {
            return Optional.of(new Caller(ENV_TOKEN, Role.ADMIN));
        }
        Remembered r = verified.get(hash(key));
        return r != null && clock.instant().isBefore(r.until()) ? Optional.of(r.caller()) : Optional.empty();
    }

    public Caller authenticate(String authorization) {
        if (authorization == null || !authorization.regionMatches(true, 0, "Bearer ", 0, 7) || authorization.length() == 7) {
            throw new NotAuthorizedException("this needs an API key: send Authorization: Bearer <key> (an admin creates keys with "
                    + "./idiom keys create or POST /api/keys)");
        }
        String key = authorization.substring(7).strip();
        if (envToken != null && MessageDigest.isEqual(envToken, key.getBytes(StandardCharsets.UTF_8))) {
            return new Caller(ENV_TOKEN, Role.ADMIN);
        }
        String hash = hash(key);
        java.time.Instant now = clock.instant();
        Remembered r = verified.get(hash);
        if (r != null && now.isBefore(r.until())) {
            return r.caller();
        }
        StoredApiKey stored = repository.byHash(hash).filter(StoredApiKey::active)
                .orElseThrow(() -> new NotAuthorizedException("this API key is not known, or was revoked"));
        Caller caller = new Caller(stored.name(), Role.parse(stored.role()), stored.seesPrivate());
        if (verified.size() >= REMEMBER_MOST) {
            verified.clear();
        }
        verified.put(hash, new Remembered(caller, now.plus(REMEMBER)));
        return caller;
    }

    /**
     * On a new installation (no active admin key, none from the environment): creates an admin key
     * and writes it to {@code <data>/admin.key}, readable by its owner only.
     *
     * @return the new key, to print once; empty when the installation has an admin key already
     */
    public Optional<String> firstAdminKey(Path dataDir) {
        List<StoredApiKey> keys = repository.list();
        if (envToken != null || keys.stream().anyMatch(k -> k.active() && k.role().equals(Role.ADMIN.id()))) {
            return Optional.empty();
        }
        List<String> taken = keys.stream().map(StoredApiKey::name).toList();
        String name = "admin";
        for (int i = 2; taken.contains(name); i++) {
            name = "admin-" + i;
        }
        Issued issued = create(name, Role.ADMIN, "first start");
        dev.idiom.services.tools.OwnerOnlyFile.write(dataDir.resolve(ADMIN_KEY_FILE), issued.secret());
        return Optional.of(issued.secret());
    }

    private static ApiKey view(StoredApiKey k) {
        Role role = Role.parse(k.role());
        return new ApiKey(k.name(), role, k.createdAt(), k.createdBy(), k.revokedAt(), role.includes(Role.CURATOR) || k.seesPrivate());
    }

    static String hash(String key) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(key.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }
}
