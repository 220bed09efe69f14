package dev.idiom.services.app;

import dev.idiom.events.DigitalEntity;
import dev.idiom.events.Field;
import dev.idiom.events.RecordedEvent;
import java.time.Instant;
import java.util.Collection;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;

/** Per field: which source set its current value, when, and at which version (from the events). */
public final class Provenance {
    private Provenance() {}

    /** Who last set one field. */
    public record FieldSource(String source, Instant at, int version, String eventType) {}

    public static Map<Field, FieldSource> of(UUID id, List<RecordedEvent> history) {
        Map<Field, FieldSource> out = new EnumMap<>(Field.class);
        DigitalEntity state = DigitalEntity.empty(id);
        for (RecordedEvent e : history) {
            DigitalEntity next = state.apply(e.event(), e.recordedAt());
            for (Field f : Field.values()) {
                if (!Objects.equals(state.metadata().get(f), next.metadata().get(f))) {
                    out.put(f, new FieldSource(e.source(), e.recordedAt(), e.version(), e.event().type()));
                }
            }
            state = next;
        }
        for (Field f : Field.values()) {
            Object v = state.metadata().get(f);
            if (v == null || (v instanceof Collection<?> c && c.isEmpty())) {
                out.remove(f);
            }
        }
        return out;
    }
}
