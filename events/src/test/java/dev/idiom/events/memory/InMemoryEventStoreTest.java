package dev.idiom.events.memory;

import dev.idiom.events.EventCodec;
import dev.idiom.events.EventStore;
import dev.idiom.events.EventStoreContract;
import dev.idiom.events.Outbox;
import java.time.Clock;
import java.util.UUID;
import javax.sql.DataSource;

/** The contract on the in-memory adapter the engine's decision tests run on: what passes here passes on MariaDB. */
class InMemoryEventStoreTest extends EventStoreContract {
    private final InMemoryDatabase memory = new InMemoryDatabase();

    @Override
    protected boolean needsDatabase() {
        return false;
    }

    @Override
    protected EventStore storeOn(DataSource none, Clock clock) {
        return new InMemoryEventStore(memory, new EventCodec(), clock);
    }

    @Override
    protected Outbox outbox() {
        return new InMemoryOutbox(memory, clock);
    }

    @Override
    protected long storedEvents() {
        synchronized (memory.lock) {
            return memory.events.size();
        }
    }

    @Override
    protected void spoilProjection(UUID id) {
        synchronized (memory.lock) {
            memory.states.put(id, memory.states.get(id).replace("\"version\"", "\"version\" "));
        }
    }
}
