package dev.idiom.events;

/**
 * Minor event: one metadata field was set (a null value cleared it). Tags change through
 * {@link TagAdded} and {@link TagRemoved} instead, so concurrent tag edits merge as sets.
 *
 * @param field the field
 * @param value its new, validated value
 */
public record FieldChanged(Field field, Object value) implements EntityEvent {
    public FieldChanged {
        if (field == Field.TAGS) {
            throw new IllegalArgumentException("tags change through TagAdded / TagRemoved");
        }
    }
}
