package dev.idiom.wrappers;

import dev.idiom.events.Field;
import dev.idiom.events.Metadata;
import java.util.Collection;
import java.util.Objects;
import java.util.Set;

/**
 * A write never replaces a value a record held that Idiom had not read: a field Idiom began to model
 * after the copy was last synced (a Zotero item's call number, a .bib entry's shorttitle, from before
 * an upgrade) is empty in what Idiom knows of the copy, though the record has it. Writing the DE's
 * value there would lose the copy's own without anyone having seen it; instead the write is refused
 * as a remote change, so the engine reads the record and merges it first (a conflict where the DE
 * holds another value, settled by the account's policy or by a curator).
 */
public final class UnreadValues {
    /**
     * The fields the record gained after copies had been synced (the further CSL variables and the
     * tool kinds' extras parts, 2026-11): what a copy synced before holds unread. A field the record
     * gains later joins them.
     */
    static final Set<Field> ADDED_LATER = addedLater();

    private UnreadValues() {}

    private static Set<Field> addedLater() {
        Set<Field> out = java.util.EnumSet.noneOf(Field.class);
        for (Field f : Field.values()) {
            if (f.ordinal() >= Field.TITLE_SHORT.ordinal()) {
                out.add(f);
            }
        }
        return out;
    }

    /**
     * @param synced what Idiom knew the copy held when last synced
     * @param held the copy as it is now (read from the record the write would change)
     * @param wanted what the write would leave there
     * @throws RemoteChangedException where {@code held} has a value {@code synced} lacks and {@code wanted} would replace
     */
    public static void refuseToReplace(Metadata synced, Metadata held, Metadata wanted, Set<Field> kept, String record) {
        for (Field f : kept) {
            if (ADDED_LATER.contains(f) && empty(synced.get(f)) && !empty(held.get(f)) && !Objects.equals(held.get(f), wanted.get(f))) {
                throw new RemoteChangedException(record + " holds a " + f.jsonName() + " Idiom had not read when it last synced it: "
                        + "it is read and merged before anything is written there");
            }
        }
    }

    private static boolean empty(Object v) {
        return v == null || v instanceof Collection<?> c && c.isEmpty();
    }
}
