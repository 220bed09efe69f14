package dev.idiom.events.accounts;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/** The API keys callers present, kept beside the tool accounts. */
public interface ApiKeyRepository {
    /** @return false when a key of that name exists already (revoked ones included: names are not reused) */
    boolean insert(StoredApiKey key);

    /** Every key, revoked ones included, by name. */
    List<StoredApiKey> list();

    /** The key with this hash, revoked or not. */
    Optional<StoredApiKey> byHash(String keyHash);

    /** @return false when no active key has this name */
    boolean revoke(String name, Instant at);
}
