package dev.idiom.services.app;

import dev.idiom.cache.EntityCache;
import dev.idiom.events.AppendResult;
import dev.idiom.events.EntitySnapshot;
import dev.idiom.events.EventCodec;

/**
 * The store's commits into this node's cache, each as the snapshot an answer gives (the view
 * without shadows, serialised once): the listener runs on the writer's thread before its append
 * returns, so the write door that made the commit takes the same snapshot for its answer instead
 * of serialising the DE a second time.
 */
public final class CommittedSnapshots {
    private final EntityCache cache;
    private final EventCodec codec;
    private final ThreadLocal<EntitySnapshot> last = new ThreadLocal<>();

    public CommittedSnapshots(EntityCache cache, EventCodec codec) {
        this.cache = cache;
        this.codec = codec;
    }

    /** A commit's snapshot into the cache (the composition root registers this as the store's listener). */
    public void committed(AppendResult result) {
        EntitySnapshot s = EntitySnapshot.of(result.entity(), codec);
        last.set(s);
        cache.offer(s);
    }

    /** The snapshot of this commit: the one the listener made on this thread, else made now. */
    EntitySnapshot of(AppendResult result) {
        EntitySnapshot s = last.get();
        last.remove();
        return s != null && s.entity() == result.entity() ? s : EntitySnapshot.of(result.entity(), codec);
    }
}
