package dev.idiom.events.sql;

import dev.idiom.db.Database;
import dev.idiom.db.TestDatabase;
import dev.idiom.events.EngineStateContract;
import dev.idiom.events.Outbox;
import dev.idiom.events.accounts.ToolAccountRepository;
import dev.idiom.events.accounts.mysql.MySqlToolAccounts;
import org.junit.jupiter.api.AfterEach;

/** The engine-state contract on the MariaDB adapters (the service's). */
class SqlEngineStateTest extends EngineStateContract {
    private final Database db = TestDatabase.fresh();
    private final Outbox outbox = new SqlOutbox(db.dataSource(), clock);
    private final ToolAccountRepository accounts = new MySqlToolAccounts(db.dataSource());

    @AfterEach
    void close() {
        db.close();
    }

    @Override
    protected Outbox outbox() {
        return outbox;
    }

    @Override
    protected ToolAccountRepository accounts() {
        return accounts;
    }
}
