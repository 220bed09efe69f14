package dev.idiom.events;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.function.Function;

/**
 * Given events, when a decision, expect events (Axon's fixture style): each rule of a pure
 * decision is one short test, without a database.
 *
 * <pre>given(created("Replication")).when(m -> Changes.toSet(m, Field.VENUE, "CSUR")).expect(new FieldChanged(Field.VENUE, "CSUR"));</pre>
 */
final class DecisionFixture {
    private final DigitalEntity state;
    private List<EntityEvent> decided;

    private DecisionFixture(DigitalEntity state) {
        this.state = state;
    }

    /** The DE these events fold into. */
    static DecisionFixture given(EntityEvent... history) {
        DigitalEntity de = DigitalEntity.empty(UUID.randomUUID());
        for (EntityEvent e : history) {
            de = de.apply(e, Instant.EPOCH);
        }
        return new DecisionFixture(de);
    }

    /** A DE created from this metadata (a title, type misc by default). */
    static EntityEvent created(Metadata m) {
        return new RecordImported(Changes.forNewRecord(m), "idiom", "test");
    }

    static EntityEvent created(String title) {
        return created(Metadata.EMPTY.with(Field.TITLE, title));
    }

    DecisionFixture when(Function<Metadata, List<EntityEvent>> decision) {
        decided = decision.apply(state.metadata());
        return this;
    }

    void expect(EntityEvent... events) {
        assertEquals(List.of(events), decided);
    }

    void expectNothing() {
        assertEquals(List.of(), decided);
    }

    /** The decided events applied: what the DE's metadata becomes. */
    Metadata then() {
        DigitalEntity de = state;
        for (EntityEvent e : new ArrayList<>(decided)) {
            de = de.apply(e, Instant.EPOCH);
        }
        return de.metadata();
    }
}
