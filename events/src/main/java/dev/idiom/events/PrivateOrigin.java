package dev.idiom.events;

import java.io.Serializable;
import java.util.List;
import java.util.Objects;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * What of a DE only private copies ever supplied, remembered by the fold so that it stays private
 * when those copies go away (deleted in their tool, unlinked, merged away): privacy follows the
 * content, not the copies that happen to be linked now. Only a curator makes it public on purpose
 * ({@link PrivacyMarked} false), or a public copy that comes to hold the same value.
 *
 * @param whole the DE itself came from a private copy and no public copy has held it since: keys
 *     without the private right must not learn it exists
 * @param values the field values and tags a private copy brought (each still the DE's, held by no public copy)
 */
public record PrivateOrigin(boolean whole, Metadata values) implements Serializable {

    public PrivateOrigin {
        values = values == null ? Metadata.EMPTY : values;
    }

    /** True when {@code value} of {@code field} came from private copies only. */
    public boolean holds(Field field, Object value) {
        Object v = values.get(field);
        return v != null && v.equals(value);
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
     * The origin after {@code event} took the DE from {@code before} to {@code next} with
     * {@code copies}; null when nothing of it is private by origin.
     */
    static PrivateOrigin after(PrivateOrigin was, DigitalEntity before, EntityEvent event, Metadata next, List<Replica> copies) {
        if (event instanceof PrivacyMarked m && !m.marked()) {
            return null; // a curator made it public on purpose
        }
        boolean whole = was != null && was.whole;
        Metadata values = was == null ? Metadata.EMPTY : was.values;
        Metadata prior = null; // what the private copy held before this event; its values that changed are what it brought
        Metadata copy = null;
        if (event instanceof RecordImported i && i.fromTool() && i.privateCopy()) {
            whole |= before.version() == 0;
            prior = before.metadata();
            copy = i.metadata();
        } else if (event instanceof ReplicaLinked l && l.privateCopy()) {
            // a copy re-synced after a pull; a copy new to the DE here was made by a push or moved by a merge, which decides for itself
            prior = before.replica(l.tool(), l.account(), l.replaces() != null ? l.replaces() : l.remoteId()).map(Replica::synced).orElse(null);
            copy = prior == null ? null : l.synced();
        }
        if (copy != null) {
            values = withBrought(values, prior, copy, next);
        }
        List<Replica> shown = copies.stream().filter(r -> !r.privateCopy()).toList();
        whole &= shown.isEmpty();
        values = pruned(values, next, shown);
        return whole || hasValues(values) ? new PrivateOrigin(whole, values) : null;
    }

    /** {@code values} and the values {@code copy} holds otherwise than {@code prior} that the DE took. */
    private static Metadata withBrought(Metadata values, Metadata prior, Metadata copy, Metadata next) {
        Metadata out = values;
        for (Field f : Field.values()) {
            if (f == Field.TAGS) {
                SortedSet<String> tags = new TreeSet<>(out.tags());
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

    /** {@code values} less what the DE no longer holds and what a public copy holds too. */
    private static Metadata pruned(Metadata values, Metadata next, List<Replica> shown) {
        Metadata out = values;
        for (Field f : Field.values()) {
            if (f == Field.TAGS) {
                SortedSet<String> tags = new TreeSet<>(out.tags());
                tags.removeIf(t -> !next.tags().contains(t) || shown.stream().anyMatch(r -> r.synced() != null && r.synced().tags().contains(t)));
                out = out.with(f, tags);
                continue;
            }
            Object v = out.get(f);
            if (v != null && (!v.equals(next.get(f)) || shown.stream().anyMatch(r -> r.synced() != null && Objects.equals(r.synced().get(f), v)))) {
                out = out.with(f, null);
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
