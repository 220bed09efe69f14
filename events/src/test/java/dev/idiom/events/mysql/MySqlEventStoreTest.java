package dev.idiom.events.mysql;

import dev.idiom.events.EventCodec;
import dev.idiom.events.EventStore;
import dev.idiom.events.SqlEventStoreContract;
import java.time.Clock;
import javax.sql.DataSource;

/** The contract on the plain-JDBC adapter (the one the service runs). */
class MySqlEventStoreTest extends SqlEventStoreContract {
    @Override
    protected EventStore storeOn(DataSource dataSource, Clock clock) {
        return new MySqlEventStore(dataSource, new EventCodec(), clock);
    }
}
