package dev.idiom.events;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * Decide: given a DE's current metadata and requested field values, which minor events? A value
 * equal to the current one yields none; tags yield one {@link TagAdded}/{@link TagRemoved} per
 * difference. Pure, so the same request always decides the same way.
 */
public final class Changes {
    private Changes() {}

    /** The events that set {@code field} to {@code value} (already validated). */
    public static List<EntityEvent> toSet(Metadata current, Field field, Object value) {
        List<EntityEvent> events = new ArrayList<>();
        if (field == Field.TAGS) {
            Set<?> wanted = (Set<?>) value;
            for (String tag : current.tags()) {
                if (!wanted.contains(tag)) {
                    events.add(new TagRemoved(tag));
                }
            }
            for (Object tag : new TreeSet<>(wanted)) {
                if (!current.tags().contains(tag)) {
                    events.add(new TagAdded((String) tag));
                }
            }
        } else if (!Objects.equals(current.get(field), value)) {
            events.add(new FieldChanged(field, value));
        }
        return events;
    }

    /** The events of a whole patch, fields in declaration order. */
    public static List<EntityEvent> toSet(Metadata current, Map<Field, Object> patch) {
        List<EntityEvent> events = new ArrayList<>();
        for (Field f : Field.values()) {
            if (patch.containsKey(f)) {
                events.addAll(toSet(current, f, patch.get(f)));
            }
        }
        return events;
    }

    /**
     * The fields {@code after} holds differently from {@code before}, with {@code after}'s values, in
     * declaration order: what a form's edit patches, or what changed meanwhile. A field absent on one
     * side and empty on the other (no tags, no names) is not a difference.
     */
    public static Map<Field, Object> between(Metadata before, Metadata after) {
        Map<Field, Object> out = new java.util.LinkedHashMap<>();
        for (Field f : Field.values()) {
            Object was = before.get(f);
            Object now = after.get(f);
            if (!Objects.equals(was, now) && !(empty(was) && empty(now))) {
                out.put(f, now);
            }
        }
        return out;
    }

    /** No value: absent, or an empty list, set or map. */
    public static boolean empty(Object v) {
        return v == null || v instanceof java.util.Collection<?> c && c.isEmpty() || v instanceof Map<?, ?> m && m.isEmpty();
    }

    /**
     * The metadata of a record created in Idiom (the API, the workspace's form): it needs a title, as
     * the API's contract says; the type defaults to a document. A record arriving from a tool needs
     * less ({@link #describes}): Zotero and BibTeX both hold untitled records.
     */
    public static Metadata forNewRecord(Metadata metadata) {
        if (metadata.title() == null || metadata.title().isBlank()) {
            throw new InvalidValueException("a new entity needs a title");
        }
        return metadata.type() == null ? metadata.with(Field.TYPE, "document") : metadata;
    }

    /**
     * Whether {@code m} says anything of a record beyond its type: a record, titled or not (a letter, a
     * crossref part, an untitled {@code @misc}), rather than nothing; what a tool's record must have to be imported.
     */
    public static boolean describes(Metadata m) {
        for (Field f : Field.values()) {
            Object v = f == Field.TYPE ? null : m.get(f);
            if (v != null && !(v instanceof java.util.Collection<?> c && c.isEmpty()) && !(v instanceof java.util.Map<?, ?> map && map.isEmpty())
                    && !(v instanceof String s && s.isBlank())) {
                return true;
            }
        }
        return false;
    }
}
