package dev.idiom.events;

import java.util.UUID;

/**
 * Minor event: a curator settled a conflict ({@link ConflictResolved}) by taking Idiom's value, the
 * tool's, or a value of their own; the DE's field takes {@code value}, the field's pushes held by the
 * {@code ask} policy flow again, and the engine carries the value to every copy as any change.
 *
 * @param conflict the id of the {@link ConflictResolved} event settled
 * @param take {@code idiom}, {@code tool} or {@code value}
 */
public record ConflictSettled(UUID conflict, Field field, Object value, String take) implements EntityEvent {
    public ConflictSettled {
        if (field == Field.TAGS) {
            throw new IllegalArgumentException("tags merge as sets and cannot conflict");
        }
    }
}
