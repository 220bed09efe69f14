package dev.idiom.services.app;

import dev.idiom.events.InvalidValueException;
import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * What a key may do. Each role includes the ones before it: a curator also reads, an admin also
 * curates.
 */
public enum Role {
    /** portals: MoreInfo, search, history, the change feed */
    READER,
    /** create, update, import, upload, sync, the consistency report and conflicts */
    CURATOR,
    /** tool accounts and their secrets, keys, the admin pages */
    ADMIN;

    public boolean includes(Role needed) {
        return ordinal() >= needed.ordinal();
    }

    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static Role parse(String s) {
        for (Role r : values()) {
            if (r.id().equals(s)) {
                return r;
            }
        }
        throw new InvalidValueException("role must be one of " + Arrays.stream(values()).map(Role::id).collect(Collectors.joining(", "))
                + ", got '" + s + "'");
    }
}
