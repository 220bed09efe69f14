package dev.idiom.events;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/** Which DEs hold a key (a replica's, a DOI, a URL, a title and author; see {@link MatchKeys}), kept in step with the projection. */
public interface MatchKeyLookup {
    /** The DE that has the copy {@code tool}/{@code account}/{@code remoteId} as a replica, if any. */
    default Optional<UUID> findReplica(String tool, String account, String remoteId) {
        return findKey(MatchKeys.replica(tool, account, remoteId));
    }

    /** The DE holding this exact key (see {@link MatchKeys#hint}), if any. */
    default Optional<UUID> findKey(MatchKeys.Key key) {
        return findKeys(List.of(key)).getOrDefault(key, List.of()).stream().findFirst();
    }

    /**
     * Every DE holding each of these keys, in entity-id order: one round trip for a batch of
     * records' lookups (replica, hint and match keys alike).
     */
    Map<MatchKeys.Key, List<UUID>> findKeys(Collection<MatchKeys.Key> keys);
}
