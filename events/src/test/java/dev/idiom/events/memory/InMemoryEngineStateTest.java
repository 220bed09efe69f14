package dev.idiom.events.memory;

import dev.idiom.events.EngineStateContract;
import dev.idiom.events.Outbox;
import dev.idiom.events.accounts.ToolAccountRepository;

/** The engine-state contract on the in-memory adapters the engine's decision tests run on. */
class InMemoryEngineStateTest extends EngineStateContract {
    private final InMemoryDatabase memory = new InMemoryDatabase();
    private final Outbox outbox = new InMemoryOutbox(memory, clock);
    private final ToolAccountRepository accounts = new InMemoryToolAccounts(memory);

    @Override
    protected Outbox outbox() {
        return outbox;
    }

    @Override
    protected ToolAccountRepository accounts() {
        return accounts;
    }
}
