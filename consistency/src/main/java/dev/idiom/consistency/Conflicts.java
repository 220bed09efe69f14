package dev.idiom.consistency;

import dev.idiom.consistency.report.ConflictEntry;
import dev.idiom.consistency.report.SyncRefusedException;
import dev.idiom.events.ConflictResolved;
import dev.idiom.events.ConflictSettled;
import dev.idiom.events.DigitalEntity;
import dev.idiom.events.EventStore;
import dev.idiom.events.InvalidValueException;
import dev.idiom.events.NewEvent;
import dev.idiom.events.RecordedEvent;
import dev.idiom.events.UnknownEntityException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * The conflicts a curator can settle: each {@link ConflictResolved} (its id is the event's) is
 * {@code open} when the {@code ask} policy left it to a curator (the field is written to no copy
 * meanwhile), {@code settled} when a policy chose, {@code resolved} once a curator chose Idiom's
 * value, the tool's or one of their own ({@link ConflictSettled}: an ordinary change the engine
 * carries to every copy).
 */
public final class Conflicts {
    /** ConflictEntry events read per page of the store's listing by type. */
    private static final int PAGE = 500;
    public static final Set<String> STATES = Set.of("open", "settled", "resolved");
    public static final Set<String> TAKES = Set.of("idiom", "tool", "value");

    private final EventStore store;
    private final OptimisticRetry retry;

    public Conflicts(EventStore store, OptimisticRetry retry) {
        this.store = store;
        this.retry = retry;
    }

    /**
     * Conflicts newest first, before position {@code before} (0: from the newest), at most {@code limit},
     * in {@code state} (null: any).
     */
    public List<ConflictEntry> list(String state, long before, int limit) {
        if (limit < 1 || limit > 1000) {
            throw new InvalidValueException("limit must be between 1 and 1000, got " + limit);
        }
        if (state != null && !STATES.contains(state)) {
            throw new InvalidValueException("state is one of " + new java.util.TreeSet<>(STATES) + ", got '" + state + "'");
        }
        long head = store.headPosition();
        Listing l = last;
        if (l != null && l.head() == head && java.util.Objects.equals(l.state(), state) && l.before() == before && l.limit() == limit) {
            return l.entries();
        }
        List<ConflictEntry> out = read(state, before, limit);
        last = new Listing(head, state, before, limit, out);
        return out;
    }

    /** The last listing and the store's head it was read at: conflicts, their settling and their DEs are all events, so it stands until the head moves. */
    private record Listing(long head, String state, long before, int limit, List<ConflictEntry> entries) {}

    private volatile Listing last;

    private List<ConflictEntry> read(String state, long before, int limit) {
        Map<UUID, ConflictSettled> settled = settled();
        List<ConflictEntry> out = new ArrayList<>();
        long from = before <= 0 ? Long.MAX_VALUE : before;
        while (out.size() < limit) {
            List<RecordedEvent> page = store.ofType(ConflictResolved.class.getSimpleName(), from, PAGE);
            if (page.isEmpty()) {
                break;
            }
            Map<UUID, DigitalEntity> des = store.loadAll(page.stream().map(RecordedEvent::entityId).distinct().toList());
            for (RecordedEvent e : page) {
                ConflictEntry c = of(e, des.get(e.entityId()), settled.get(e.eventId()));
                if (state == null || state.equals(c.state())) {
                    out.add(c);
                    if (out.size() == limit) {
                        break;
                    }
                }
            }
            from = page.getLast().position();
        }
        return List.copyOf(out);
    }

    /** The conflict with this id; 404 if there is none. */
    public ConflictEntry find(UUID id) {
        long from = Long.MAX_VALUE;
        while (true) {
            List<RecordedEvent> page = store.ofType(ConflictResolved.class.getSimpleName(), from, PAGE);
            if (page.isEmpty()) {
                throw new UnknownEntityException("no conflict with id " + id);
            }
            for (RecordedEvent e : page) {
                if (e.eventId().equals(id)) {
                    return of(e, store.load(e.entityId()).orElse(null), settled().get(id));
                }
            }
            from = page.getLast().position();
        }
    }

    /**
     * A curator settles conflict {@code id}: {@code take} is {@code idiom} (Idiom's value then),
     * {@code tool} (the tool's) or {@code value} ({@code value}, in the field's JSON form). The DE's
     * field takes it and the engine carries it to every copy; a conflict resolved before is refused (409).
     */
    public DigitalEntity resolve(UUID id, String take, com.fasterxml.jackson.databind.JsonNode value, String source) {
        if (take == null || !TAKES.contains(take)) {
            throw new InvalidValueException("take is one of idiom, tool or value, got '" + take + "'");
        }
        ConflictEntry c = find(id);
        if (c.settledBy() != null) {
            throw new SyncRefusedException("conflict " + id + " was resolved already (took " + c.settledBy().take() + ")");
        }
        ConflictResolved conflict = c.conflict();
        Object chosen = switch (take) {
            case "idiom" -> conflict.idiomValue();
            case "tool" -> conflict.remoteValue();
            default -> {
                if (value == null) {
                    throw new InvalidValueException("take \"value\" needs the value: {\"take\": \"value\", \"value\": …}");
                }
                yield conflict.field().fromJson(value);
            }
        };
        ConflictSettled settled = new ConflictSettled(id, conflict.field(), chosen, take);
        UUID entity = c.event().entityId();
        return retry.run("resolving conflict " + id, () -> {
            DigitalEntity de = store.load(entity).orElseThrow(() -> new UnknownEntityException(entity));
            DeLifecycle.refuseUnlessLive(de);
            return store.append(entity, de.version(), List.of(new NewEvent(UUID.randomUUID(), source, settled))).entity();
        });
    }

    private static ConflictEntry of(RecordedEvent e, DigitalEntity de, ConflictSettled settledBy) {
        ConflictResolved c = (ConflictResolved) e.event();
        String state = settledBy != null ? "resolved" : ConflictResolved.ASK.equals(c.policy()) ? "open" : "settled";
        return new ConflictEntry(e.eventId(), e, de == null ? null : de.metadata().title(), state, settledBy);
    }

    /** Every curator's settlement, by the conflict it settled. */
    private Map<UUID, ConflictSettled> settled() {
        Map<UUID, ConflictSettled> out = new HashMap<>();
        long from = Long.MAX_VALUE;
        while (true) {
            List<RecordedEvent> page = store.ofType(ConflictSettled.class.getSimpleName(), from, PAGE);
            if (page.isEmpty()) {
                return out;
            }
            page.forEach(e -> out.putIfAbsent(((ConflictSettled) e.event()).conflict(), (ConflictSettled) e.event()));
            from = page.getLast().position();
        }
    }
}
