package dev.idiom.events.memory;

import dev.idiom.events.Fingerprint;
import dev.idiom.events.Outbox;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;

/** The outbox in memory, row for row as {@code SqlOutbox} keeps it (its rows are written by the store's appends, under the same lock). */
public final class InMemoryOutbox implements Outbox {
    private final InMemoryDatabase db;
    private final Clock clock;

    public InMemoryOutbox(InMemoryDatabase db, Clock clock) {
        this.db = db;
        this.clock = clock;
    }

    private static String key(UUID entityId, String tool, String account, String remoteId) {
        return entityId + "\n" + Fingerprint.of(tool + "\n" + (account == null ? "" : account) + "\n" + remoteId);
    }

    private static String key(Entry e) {
        return key(e.entityId(), e.tool(), e.account(), e.remoteId());
    }

    /**
     * A push owed, as the upserts do it: a new row is due now; a row there already takes the version
     * ({@code owe}: the higher one, and a parked row is due again only for a newer version; an append's:
     * its version, and a parked row is due again).
     */
    static void enqueue(InMemoryDatabase db, UUID entityId, String tool, String account, String remoteId, int version, Instant at, boolean owe) {
        Instant now = at.truncatedTo(ChronoUnit.MICROS);
        InMemoryDatabase.OutboxRow r = db.outbox.get(key(entityId, tool, account, remoteId));
        if (r == null) {
            r = new InMemoryDatabase.OutboxRow();
            r.entityId = entityId;
            r.tool = tool;
            r.account = account == null ? "" : account;
            r.remoteId = remoteId;
            r.entityVersion = version;
            r.enqueuedAt = now;
            r.dueAt = now;
            db.outbox.put(key(entityId, tool, account, remoteId), r);
            return;
        }
        boolean again = r.parked && (!owe || version > r.entityVersion);
        if (again) {
            r.dueAt = now;
            r.attempts = 0;
            r.lastError = null;
        }
        if (owe) {
            r.parked = version > r.entityVersion ? false : r.parked;
            r.entityVersion = Math.max(r.entityVersion, version);
        } else {
            r.parked = false;
            r.entityVersion = version;
        }
    }

    private static Entry entry(InMemoryDatabase.OutboxRow r) {
        return new Entry(r.entityId, r.tool, r.account, r.remoteId, r.entityVersion, r.enqueuedAt, r.attempts, r.parked, r.lastError);
    }

    private Instant now() {
        return clock.instant().truncatedTo(ChronoUnit.MICROS);
    }

    private boolean due(InMemoryDatabase.OutboxRow r, Instant now) {
        return !r.parked && !r.dueAt.isAfter(now) && (r.leaseUntil == null || r.leaseUntil.isBefore(now));
    }

    @Override
    public List<Entry> claim(String owner, int max, Duration lease, String tool, String account) {
        synchronized (db.lock) {
            Instant now = now();
            List<InMemoryDatabase.OutboxRow> rows = db.outbox.values().stream().filter(r -> due(r, now))
                    .filter(r -> tool == null || r.tool.equals(tool) && r.account.equals(account == null ? "" : account))
                    .filter(r -> !db.paused(r.tool, r.account)).sorted(Comparator.comparing((InMemoryDatabase.OutboxRow r) -> r.dueAt)).limit(max).toList();
            List<Entry> out = new ArrayList<>();
            for (InMemoryDatabase.OutboxRow r : rows) {
                out.add(entry(r));
                r.leaseOwner = owner;
                r.leaseUntil = now.plus(lease).truncatedTo(ChronoUnit.MICROS);
            }
            return out;
        }
    }

    @Override
    public List<String[]> dueAccounts() {
        synchronized (db.lock) {
            Instant now = now();
            LinkedHashSet<String> seen = new LinkedHashSet<>();
            List<String[]> out = new ArrayList<>();
            for (InMemoryDatabase.OutboxRow r : db.outbox.values()) {
                if (due(r, now) && !db.paused(r.tool, r.account) && seen.add(r.tool + "\n" + r.account)) {
                    out.add(new String[] {r.tool, r.account});
                }
            }
            return out;
        }
    }

    @Override
    public void acknowledged(Entry e, int pushedVersion) {
        synchronized (db.lock) {
            InMemoryDatabase.OutboxRow r = db.outbox.get(key(e));
            if (r == null) {
                return;
            }
            if (r.entityVersion <= pushedVersion) {
                db.outbox.remove(key(e));
            } else { // a newer change came meanwhile: due again at once
                r.leaseOwner = null;
                r.leaseUntil = null;
                r.attempts = 0;
                r.lastError = null;
            }
        }
    }

    @Override
    public void doneAll(List<Entry> entries) {
        synchronized (db.lock) {
            entries.forEach(e -> db.outbox.remove(key(e)));
        }
    }

    @Override
    public int forget(String tool, String account) {
        synchronized (db.lock) {
            int before = db.outbox.size();
            db.outbox.values().removeIf(r -> r.tool.equals(tool) && r.account.equals(account == null ? "" : account));
            return before - db.outbox.size();
        }
    }

    @Override
    public void retryAt(Entry e, Instant due, String error) {
        released(e, r -> r.dueAt = due.truncatedTo(ChronoUnit.MICROS), error);
    }

    @Override
    public void park(Entry e, String reason) {
        released(e, r -> r.parked = true, reason);
    }

    /** A push that failed: {@code change} made to its row, one more attempt counted, the reason kept, the lease given back. */
    private void released(Entry e, java.util.function.Consumer<InMemoryDatabase.OutboxRow> change, String why) {
        synchronized (db.lock) {
            InMemoryDatabase.OutboxRow r = db.outbox.get(key(e));
            if (r != null) {
                change.accept(r);
                r.attempts++;
                r.lastError = clip(why);
                r.leaseOwner = null;
                r.leaseUntil = null;
            }
        }
    }

    @Override
    public int unpark(String tool, String account) {
        synchronized (db.lock) {
            int n = 0;
            for (InMemoryDatabase.OutboxRow r : db.outbox.values()) {
                if (r.parked && r.tool.equals(tool) && r.account.equals(account == null ? "" : account)) {
                    r.parked = false;
                    r.attempts = 0;
                    r.dueAt = now();
                    n++;
                }
            }
            return n;
        }
    }

    @Override
    public java.util.Set<java.util.UUID> copiesTried(String tool, String account) {
        synchronized (db.lock) {
            return db.outbox.values().stream().filter(r -> r.tool.equals(tool) && r.account.equals(account == null ? "" : account)
                    && NEW_COPY.equals(r.remoteId) && (r.attempts > 0 || r.leaseOwner != null)).map(r -> r.entityId)
                    .collect(java.util.stream.Collectors.toSet());
        }
    }

    @Override
    public List<Entry> list(String tool, String account, int max) {
        synchronized (db.lock) {
            return db.outbox.values().stream().filter(r -> tool == null || r.tool.equals(tool) && r.account.equals(account == null ? "" : account))
                    .sorted(Comparator.comparing((InMemoryDatabase.OutboxRow r) -> !r.parked).thenComparing(r -> r.enqueuedAt)).limit(max)
                    .map(InMemoryOutbox::entry).toList();
        }
    }

    @Override
    public void owe(List<Owed> owed) {
        synchronized (db.lock) {
            Instant now = now();
            owed.forEach(o -> enqueue(db, o.entityId(), o.tool(), o.account(), o.remoteId(), o.entityVersion(), now, true));
        }
    }

    @Override
    public Map<String, Depth> depth() {
        synchronized (db.lock) {
            Map<String, Depth> out = new TreeMap<>();
            for (InMemoryDatabase.OutboxRow r : db.outbox.values()) {
                out.merge(Outbox.accountKey(r.tool, r.account), new Depth(r.parked ? 0 : 1, r.parked ? 1 : 0, r.enqueuedAt),
                        (a, b) -> new Depth(a.pending() + b.pending(), a.parked() + b.parked(), a.oldest().isBefore(b.oldest()) ? a.oldest() : b.oldest()));
            }
            return out;
        }
    }

    private static String clip(String s) {
        return s == null ? null : s.length() > 1000 ? s.substring(0, 999) + "…" : s;
    }
}
