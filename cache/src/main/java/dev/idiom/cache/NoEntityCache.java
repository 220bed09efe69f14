package dev.idiom.cache;

import dev.idiom.events.EntitySnapshot;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.atomic.LongAdder;

/** The no-op twin: every read misses, so MoreInfo goes to the database. */
public final class NoEntityCache implements EntityCache {
    private final LongAdder misses = new LongAdder();

    @Override
    public Optional<EntitySnapshot> get(UUID id) {
        misses.increment();
        return Optional.empty();
    }

    @Override
    public void offer(EntitySnapshot snapshot) {}

    @Override
    public void invalidate(UUID id, int version) {}

    @Override
    public CacheStatistics statistics() {
        return new CacheStatistics(0, misses.sum(), 0, 0, 0);
    }

    @Override
    public String name() {
        return "none";
    }

    @Override
    public void close() {}
}
