package dev.idiom.events.memory;

import dev.idiom.events.accounts.MirrorPlan;
import dev.idiom.events.accounts.StoredToolAccount;
import dev.idiom.events.accounts.SyncState;
import dev.idiom.events.accounts.ToolAccountRepository;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.UnaryOperator;

/** Tool accounts and their engine state in memory, as {@code MySqlToolAccounts} keeps them (times to the microsecond). */
public final class InMemoryToolAccounts implements ToolAccountRepository {
    private final InMemoryDatabase db;

    public InMemoryToolAccounts(InMemoryDatabase db) {
        this.db = db;
    }

    private static Instant micros(Instant at) {
        return at == null ? null : at.truncatedTo(ChronoUnit.MICROS);
    }

    private static StoredToolAccount stored(StoredToolAccount a, String secret, Instant at) {
        return new StoredToolAccount(a.name(), a.kind(), a.baseUrl(), a.account(), secret, a.newRecords(), a.conflictPolicy(), micros(at),
                a.privateLibrary(), a.mirror(), a.direction(), a.deletions());
    }

    @Override
    public void save(StoredToolAccount a) {
        if (a.conflictPolicy() == null) { // the column is NOT NULL
            throw new dev.idiom.events.EventStoreException("tool accounts: Column 'conflict_policy' cannot be null", null);
        }
        synchronized (db.lock) {
            db.accounts.put(a.name(), stored(a, a.sealedSecret(), a.updatedAt()));
        }
    }

    @Override
    public List<StoredToolAccount> list() {
        synchronized (db.lock) {
            return List.copyOf(db.accounts.values());
        }
    }

    @Override
    public Optional<StoredToolAccount> find(String name) {
        synchronized (db.lock) {
            return Optional.ofNullable(db.accounts.get(name));
        }
    }

    @Override
    public Optional<String> cursor(String kind, String account) {
        return row(db.cursors, kind, account);
    }

    private <T> Optional<T> row(Map<String, T> table, String kind, String account) {
        synchronized (db.lock) {
            return Optional.ofNullable(table.get(InMemoryDatabase.accountKey(kind, account)));
        }
    }

    @Override
    public void saveCursor(String kind, String account, String cursor, Instant at) {
        synchronized (db.lock) {
            db.cursors.put(InMemoryDatabase.accountKey(kind, account), cursor);
        }
    }

    private static SyncState micros(SyncState s) {
        return new SyncState(s.kind(), s.account() == null ? "" : s.account(), s.paused(), s.held(), micros(s.lastPullAt()), micros(s.lastPushAt()),
                micros(s.lastCheckAt()), s.divergent());
    }

    @Override
    public SyncState syncState(String kind, String account) {
        synchronized (db.lock) {
            return db.syncStates.getOrDefault(InMemoryDatabase.accountKey(kind, account), SyncState.initial(kind, account == null ? "" : account));
        }
    }

    @Override
    public List<SyncState> syncStates() {
        synchronized (db.lock) {
            return List.copyOf(db.syncStates.values());
        }
    }

    @Override
    public void saveSyncState(SyncState state, Instant at) {
        synchronized (db.lock) {
            db.syncStates.put(InMemoryDatabase.accountKey(state.kind(), state.account()), micros(state));
        }
    }

    @Override
    public SyncState updateSyncState(String kind, String account, UnaryOperator<SyncState> change, Instant at) {
        synchronized (db.lock) {
            SyncState next = micros(change.apply(syncState(kind, account)));
            db.syncStates.put(InMemoryDatabase.accountKey(kind, account), next);
            return next;
        }
    }

    @Override
    public int resealSecrets(Function<StoredToolAccount, String> reseal, Instant at) {
        synchronized (db.lock) {
            List<StoredToolAccount> sealed = db.accounts.values().stream().filter(a -> a.sealedSecret() != null).toList();
            List<StoredToolAccount> next = new ArrayList<>();
            for (StoredToolAccount a : sealed) {
                next.add(stored(a, reseal.apply(a), at)); // a throw here changes none, as the transaction's rollback
            }
            next.forEach(a -> db.accounts.put(a.name(), a));
            return next.size();
        }
    }

    @Override
    public boolean remove(String name, String kind, String account) {
        synchronized (db.lock) {
            String key = InMemoryDatabase.accountKey(kind, account);
            for (Map<String, ?> table : List.<Map<String, ?>>of(db.cursors, db.syncStates, db.mirrorPlans)) {
                table.remove(key);
            }
            return db.accounts.remove(name) != null;
        }
    }

    @Override
    public boolean forget(String name) {
        synchronized (db.lock) {
            return db.accounts.remove(name) != null;
        }
    }

    @Override
    public Optional<MirrorPlan> mirrorPlan(String kind, String account) {
        return row(db.mirrorPlans, kind, account);
    }

    @Override
    public void saveMirrorPlan(String kind, String account, MirrorPlan plan, Instant at) {
        synchronized (db.lock) {
            // another node planning the same rule may be ahead: a position never goes back under one rule; a new rule replaces all
            db.mirrorPlans.merge(InMemoryDatabase.accountKey(kind, account), plan, (was, is) -> !was.rule().equals(is.rule()) ? is
                    : new MirrorPlan(was.rule(), Math.max(was.position(), is.position()), was.head(), Math.max(was.removalsAllowedTo(), is.removalsAllowedTo())));
        }
    }
}
