package dev.idiom.cache.ehcache;

import dev.idiom.events.EntitySnapshot;
import java.io.Serializable;

/** A cache value: the snapshot, or only the version that made the entry stale (snapshot null). */
record CachedEntity(int version, EntitySnapshot snapshot) implements Serializable {
    static CachedEntity staleAt(int version) {
        return new CachedEntity(version, null);
    }
}
