package dev.idiom.events.memory;

import dev.idiom.events.MatchKeys;
import dev.idiom.events.accounts.MirrorPlan;
import dev.idiom.events.accounts.StoredToolAccount;
import dev.idiom.events.accounts.SyncState;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;

/**
 * What the MariaDB schema holds, in memory, for the engine's decision tests: the events, the
 * projection and its match keys, the outbox, the tool accounts and their engine state. Several
 * stores on one instance are several nodes on one database. Every adapter works under its one lock:
 * a transaction is a synchronized block, so what a test sees is what a serialized database shows.
 */
public final class InMemoryDatabase {
    final Object lock = new Object();

    /** An event as the {@code event} table holds it: its payload as JSON, its time to the microsecond. */
    record StoredEvent(long position, UUID eventId, UUID entityId, int version, String type, String source, String payload, Instant recordedAt) {}

    final List<StoredEvent> events = new ArrayList<>();
    /** Each entity's events' positions, in stream order, by id in its text form (the table's order). */
    final TreeMap<String, List<Integer>> streams = new TreeMap<>();
    /** The projection: each entity's state as stored JSON. */
    final Map<UUID, String> states = new HashMap<>();
    /** The match keys: who holds each, in entity-id text order. */
    final Map<MatchKeys.Key, TreeSet<String>> keys = new HashMap<>();
    final Map<UUID, StoredEvent> byEventId = new HashMap<>();

    /** An outbox row (mutable under the lock, as a row is under its transaction). */
    static final class OutboxRow {
        UUID entityId;
        String tool;
        String account;
        String remoteId;
        int entityVersion;
        Instant enqueuedAt;
        Instant dueAt;
        int attempts;
        boolean parked;
        String lastError;
        String leaseOwner;
        Instant leaseUntil;
    }

    final Map<String, OutboxRow> outbox = new HashMap<>();

    final TreeMap<String, StoredToolAccount> accounts = new TreeMap<>();
    final Map<String, String> cursors = new HashMap<>();
    final TreeMap<String, SyncState> syncStates = new TreeMap<>();
    final Map<String, MirrorPlan> mirrorPlans = new HashMap<>();

    static String accountKey(String kind, String account) {
        return kind + "\n" + (account == null ? "" : account);
    }

    /** The accounts whose engine state says paused (a claim leaves their rows). */
    boolean paused(String tool, String account) {
        SyncState s = syncStates.get(accountKey(tool, account));
        return s != null && s.paused();
    }
}
