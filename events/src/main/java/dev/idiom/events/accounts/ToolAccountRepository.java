package dev.idiom.events.accounts;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The relational state of tool accounts, outside the event log: the accounts and where the last
 * import from each stopped. Adapters sit beside the event-store adapters.
 */
public interface ToolAccountRepository {
    /** Creates the account or replaces the one of the same name. */
    void save(StoredToolAccount account);

    /** Every account, by name. */
    List<StoredToolAccount> list();

    Optional<StoredToolAccount> find(String name);

    /** Where the last import from this tool account stopped, if one did. */
    Optional<String> cursor(String kind, String account);

    void saveCursor(String kind, String account, String cursor, Instant at);
}
