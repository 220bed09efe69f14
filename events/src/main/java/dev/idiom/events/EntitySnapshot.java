package dev.idiom.events;

import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A DE as it is read: the whole state (shadows included, for the engine) and the JSON an answer
 * gives of it ({@link EventCodec#view}: no shadows), made once, so a cached read can be written out
 * without serialising again.
 */
public record EntitySnapshot(DigitalEntity entity, byte[] json) implements Serializable {

    public static EntitySnapshot of(String storedJson, EventCodec codec) {
        return of(codec.entity(storedJson), codec);
    }

    public static EntitySnapshot of(DigitalEntity entity, EventCodec codec) {
        return new EntitySnapshot(entity, codec.view(entity).getBytes(StandardCharsets.UTF_8));
    }

    public int version() {
        return entity.version();
    }

    // by content, so a cache holding copies (off-heap) can compare-and-replace
    @Override
    public boolean equals(Object o) {
        return o instanceof EntitySnapshot s && entity.equals(s.entity) && Arrays.equals(json, s.json);
    }

    @Override
    public int hashCode() {
        return entity.hashCode();
    }
}
