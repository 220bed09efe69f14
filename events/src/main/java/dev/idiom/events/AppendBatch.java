package dev.idiom.events;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * The decisions of one group commit, without I/O: given the appends waiting, the entities' stored
 * states (read under their row locks) and which of the events' ids were recorded before, which
 * appends go in (in order, each checked against its own expected version on the state the
 * earlier appends of the batch left), which are refused alone, and which are retries of an append
 * already recorded. Every store adapter writes what this decides in one transaction.
 */
public final class AppendBatch {
    /** Where an event id was recorded before this batch. */
    public record Recorded(UUID entityId, long position) {}

    /** One event to insert, in batch order; its position is the batch's first position plus its index. */
    public record Row(UUID entityId, int version, NewEvent event) {}

    /** An entity the batch changes: as stored before it, and after all of the batch's appends. */
    public record Change(DigitalEntity before, DigitalEntity after, String json) {}

    private final List<Append> appends;
    private final Instant now;
    private final EventCodec codec;
    private final List<Row> rows = new ArrayList<>();
    private final Map<UUID, DigitalEntity> before = new LinkedHashMap<>();
    private final Map<UUID, DigitalEntity> current = new HashMap<>();
    private final Map<DigitalEntity, String> serialised = new IdentityHashMap<>();
    private final Object[] decided;
    private List<Change> changes; // per append: Accepted, Integer (same as that earlier append), Recorded, or RuntimeException

    private record Accepted(DigitalEntity state, int lastRow) {}

    /**
     * @param stored the stored state of every entity the appends name that exists (others are new)
     * @param recorded the event ids among the appends' that the store holds already
     */
    public AppendBatch(List<Append> appends, Map<UUID, DigitalEntity> stored, Map<UUID, Recorded> recorded, Instant now, EventCodec codec) {
        this.appends = List.copyOf(appends);
        this.now = now;
        this.codec = codec;
        this.decided = new Object[appends.size()];
        Map<UUID, Integer> inBatch = new HashMap<>(); // event id -> index of the append that took it
        for (int i = 0; i < appends.size(); i++) {
            Append a = appends.get(i);
            try {
                decided[i] = decide(i, a, stored, recorded, inBatch, now);
            } catch (RuntimeException refused) {
                decided[i] = refused;
            }
        }
    }

    private Object decide(int index, Append a, Map<UUID, DigitalEntity> stored, Map<UUID, Recorded> recorded, Map<UUID, Integer> inBatch,
            Instant now) {
        Set<UUID> ids = new HashSet<>();
        Set<Integer> earlier = new HashSet<>();
        int takenInBatch = 0;
        List<Recorded> before = new ArrayList<>();
        for (NewEvent e : a.events()) {
            if (!ids.add(e.eventId())) {
                throw new InvalidValueException("event id " + e.eventId() + " appears twice in one append");
            }
            Integer taken = inBatch.get(e.eventId());
            if (taken != null) {
                earlier.add(taken);
                takenInBatch++;
            }
            Recorded r = recorded.get(e.eventId());
            if (r != null) {
                before.add(r);
            }
        }
        if (!earlier.isEmpty() || !before.isEmpty()) {
            return retry(a, earlier, takenInBatch, before);
        }
        DigitalEntity state = current.computeIfAbsent(a.entityId(), id -> stored.getOrDefault(id, DigitalEntity.empty(id)));
        DigitalEntity next = state.appending(a.expectedVersion(), a.events(), now);
        this.before.putIfAbsent(a.entityId(), state);
        current.put(a.entityId(), next);
        int version = state.version();
        for (NewEvent e : a.events()) {
            rows.add(new Row(a.entityId(), ++version, e));
            inBatch.put(e.eventId(), index);
        }
        return new Accepted(next, rows.size() - 1);
    }

    /** A retried append is recognised only whole: the same ids, all for the same entity. */
    private Object retry(Append a, Set<Integer> earlier, int takenInBatch, List<Recorded> before) {
        int n = a.events().size();
        if (earlier.size() == 1 && takenInBatch == n && before.isEmpty()) {
            Integer first = earlier.iterator().next();
            Append original = appends.get(first);
            if (original.entityId().equals(a.entityId()) && original.events().size() == n && decided[first] instanceof Accepted) {
                return first;
            }
        } else if (earlier.isEmpty() && before.size() == n && before.stream().allMatch(r -> r.entityId().equals(a.entityId()))) {
            return new Recorded(a.entityId(), before.stream().mapToLong(Recorded::position).max().orElseThrow());
        }
        throw new InvalidValueException("event ids were already used by a different append; use new ids for new events");
    }

    /** When the batch's events are recorded (one time for the whole commit). */
    public Instant recordedAt() {
        return now;
    }

    /** The events to insert, in order. */
    public List<Row> rows() {
        return rows;
    }

    /** The entities this batch changes, with their new projection JSON. */
    public List<Change> changes() {
        if (changes == null) { // asked by the writer and again for the outcomes: build once
            List<Change> out = new ArrayList<>();
            before.forEach((id, was) -> out.add(new Change(was, current.get(id), json(current.get(id)))));
            changes = List.copyOf(out);
        }
        return changes;
    }

    /** Appends that retry one recorded by an earlier transaction (index → entity and last position). */
    public Map<Integer, Recorded> retriesOfRecorded() {
        Map<Integer, Recorded> out = new LinkedHashMap<>();
        for (int i = 0; i < decided.length; i++) {
            if (decided[i] instanceof Recorded r) {
                out.put(i, r);
            }
        }
        return out;
    }

    /** Whether any append is refused (stale, or not valid on the state it was decided on). */
    public boolean refusesAny() {
        for (Object d : decided) {
            if (d instanceof RuntimeException) {
                return true;
            }
        }
        return false;
    }

    /**
     * The appends refused as stale. A retry of an append that was recorded is always stale by
     * then (its own events moved the stream), so only these need their ids looked up.
     */
    public List<Append> refusedAsStale() {
        List<Append> out = new ArrayList<>();
        for (int i = 0; i < decided.length; i++) {
            if (decided[i] instanceof StaleVersionException) {
                out.add(appends.get(i));
            }
        }
        return out;
    }

    /** The entities whose projection rows the batch reads (and locks). */
    public static Set<UUID> entityIds(List<Append> appends) {
        Set<UUID> ids = new LinkedHashSet<>();
        appends.forEach(a -> ids.add(a.entityId()));
        return ids;
    }

    /** Every event id the appends carry. */
    public static List<UUID> eventIds(List<Append> appends) {
        return appends.stream().flatMap(a -> a.events().stream()).map(NewEvent::eventId).toList();
    }

    /**
     * Each append's outcome, once the rows were written from {@code firstPosition} on.
     *
     * @param replays the results of {@link #retriesOfRecorded()}, by append index
     */
    public List<AppendOutcome> outcomes(long firstPosition, Map<Integer, AppendResult> replays) {
        List<AppendOutcome> out = new ArrayList<>(decided.length);
        Map<UUID, Change> finals = new HashMap<>();
        changes().forEach(c -> finals.put(c.after().id(), c));
        for (int i = 0; i < decided.length; i++) {
            Object d = decided[i];
            out.add(switch (d) {
                case Accepted a -> AppendOutcome.of(accepted(a, firstPosition, finals));
                case Integer first -> {
                    AppendResult original = accepted((Accepted) decided[first], firstPosition, finals);
                    yield AppendOutcome.of(new AppendResult(original.entity(), original.lastPosition(), true, original.json()));
                }
                case Recorded r -> AppendOutcome.of(replays.get(i));
                case RuntimeException refused -> AppendOutcome.refused(refused);
                default -> throw new IllegalStateException("undecided append " + i);
            });
        }
        return out;
    }

    private AppendResult accepted(Accepted a, long firstPosition, Map<UUID, Change> finals) {
        Change last = finals.get(a.state().id());
        String json = last.after() == a.state() ? last.json() : json(a.state()); // an earlier append to the same entity in this batch
        return new AppendResult(a.state(), firstPosition + a.lastRow(), false, json);
    }

    private String json(DigitalEntity state) {
        return serialised.computeIfAbsent(state, codec::entity);
    }
}
