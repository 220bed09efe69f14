package dev.idiom.events;

import java.io.Serializable;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * What of a DE only private copies ever supplied, remembered by the fold so that it stays private
 * when those copies go away (deleted in their tool, unlinked, merged away): privacy follows the
 * content, not the copies that happen to be linked now. Only a curator makes it public on purpose
 * ({@link PrivacyMarked} false), or a public copy that brings the same value itself (its record as
 * imported, or changed in its tool); a copy Idiom writes a value into brings nothing.
 *
 * @param whole the DE itself came from a private copy and no public copy's record has joined it since:
 *     keys without the private right must not learn it exists
 * @param values the field values and tags a private copy brought (each still the DE's, brought by no public copy since)
 */
public record PrivateOrigin(boolean whole, Metadata values) implements Serializable {

    public PrivateOrigin {
        values = values == null ? Metadata.EMPTY : values;
    }

    /** True when {@code value} of {@code field} came from private copies only. */
    public boolean holds(Field field, Object value) {
        Object v = values.get(field);
        return !empty(v) && v.equals(value);
    }

    public boolean holdsTag(String tag) {
        return values.tags().contains(tag);
    }

    boolean hasValues() {
        for (Field f : Field.values()) {
            if (!empty(values.get(f))) {
                return true;
            }
        }
        return false;
    }

    /**
     * The origin after {@code event} took the DE from {@code before} to {@code next}; null when
     * nothing of it is private by origin.
     */
    static PrivateOrigin after(PrivateOrigin was, DigitalEntity before, EntityEvent event, Metadata next) {
        if (event instanceof PrivacyMarked m && !m.marked()) {
            return null; // a curator made it public on purpose
        }
        boolean privateSupply = event instanceof RecordImported i && i.fromTool() && i.privateCopy() || event instanceof ReplicaLinked l && l.privateCopy();
        if (was == null && !privateSupply) {
            return null; // the common case, every fold of a DE with nothing private: no work
        }
        boolean whole = was != null && was.whole;
        Metadata values = was == null ? Metadata.EMPTY : was.values;
        Metadata prior = null; // what the copy held before this event; its values that changed are what it brought
        Metadata copy = null;
        boolean privateCopy = false;
        if (event instanceof RecordImported i && i.fromTool()) {
            whole = i.privateCopy() && (whole || before.version() == 0);
            prior = before.metadata();
            copy = i.metadata();
            privateCopy = i.privateCopy();
        } else if (event instanceof ReplicaLinked l) {
            // a copy re-synced after a pull; a copy new to the DE here was made by a push or moved by a merge, which decides for itself
            prior = before.replica(l.tool(), l.account(), l.replaces() != null ? l.replaces() : l.remoteId()).map(Replica::synced).orElse(null);
            copy = prior == null ? null : l.synced();
            privateCopy = l.privateCopy();
        }
        if (copy != null) {
            Metadata brought = brought(prior, copy, next);
            values = privateCopy ? joined(values, brought) : without(values, brought);
        }
        values = stillHeld(values, next);
        return whole || hasValues(values) ? new PrivateOrigin(whole, values) : null;
    }

    /** The values {@code copy} holds otherwise than {@code prior} that the DE took ({@code next}): what the copy brought. */
    private static Metadata brought(Metadata prior, Metadata copy, Metadata next) {
        Metadata out = Metadata.EMPTY;
        for (Field f : Field.values()) {
            if (f == Field.TAGS) {
                SortedSet<String> tags = new TreeSet<>();
                for (String t : copy.tags()) {
                    if (!prior.tags().contains(t) && next.tags().contains(t)) {
                        tags.add(t);
                    }
                }
                out = out.with(f, tags);
                continue;
            }
            Object v = copy.get(f);
            if (!empty(v) && v.equals(next.get(f)) && !v.equals(prior.get(f))) {
                out = out.with(f, v);
            }
        }
        return out;
    }

    /** {@code values} and what was {@code brought}. */
    private static Metadata joined(Metadata values, Metadata brought) {
        return reshaped(values, t -> t.addAll(brought.tags()), (f, v) -> empty(brought.get(f)) ? v : brought.get(f));
    }

    /** {@code values} less what a public copy brought too. */
    private static Metadata without(Metadata values, Metadata brought) {
        return reshaped(values, t -> t.removeAll(brought.tags()), (f, v) -> !empty(brought.get(f)) && brought.get(f).equals(v) ? null : v);
    }

    /** {@code values} less what the DE no longer holds. */
    private static Metadata stillHeld(Metadata values, Metadata next) {
        return reshaped(values, t -> t.retainAll(next.tags()), (f, v) -> !empty(v) && !v.equals(next.get(f)) ? null : v);
    }

    /** {@code values} with its tags as {@code tags} leaves them and each other field's value as {@code field} gives it. */
    private static Metadata reshaped(Metadata values, java.util.function.Consumer<SortedSet<String>> tags,
            java.util.function.BiFunction<Field, Object, Object> field) {
        SortedSet<String> t = new TreeSet<>(values.tags());
        tags.accept(t);
        Metadata out = values.with(Field.TAGS, t);
        for (Field f : Field.values()) {
            Object v = values.get(f);
            Object now = f == Field.TAGS ? v : field.apply(f, v);
            if (now != v) {
                out = out.with(f, now);
            }
        }
        return out;
    }

    private static boolean hasValues(Metadata m) {
        return new PrivateOrigin(false, m).hasValues();
    }

    private static boolean empty(Object v) {
        return v == null || (v instanceof java.util.Collection<?> c && c.isEmpty());
    }
}
