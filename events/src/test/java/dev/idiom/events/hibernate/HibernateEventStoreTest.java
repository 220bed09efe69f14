package dev.idiom.events.hibernate;

import dev.idiom.events.EventCodec;
import dev.idiom.events.EventStore;
import dev.idiom.events.SqlEventStoreContract;
import java.time.Clock;
import javax.sql.DataSource;

/** The contract on the Hibernate adapter. */
class HibernateEventStoreTest extends SqlEventStoreContract {
    @Override
    protected EventStore storeOn(DataSource dataSource, Clock clock) {
        return new HibernateEventStore(dataSource, new EventCodec(), clock);
    }
}
