package dev.idiom.events;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * Who may see what of a DE. Keys allowed to see private records (curators, admins, readers given
 * that right) see every DE whole. To every other key:
 * <ul>
 *   <li>a DE a curator marked private, or whose every copy is private in its tool, or that came from a
 *       private copy and was never held by a public one ({@link PrivateOrigin#whole}), does not exist —
 *       whether that copy is still linked, deleted, unlinked or merged away;</li>
 *   <li>of a DE with public and private copies, the private copies are not shown, nor a field value
 *       or tag that only private copies hold or ever brought ({@link PrivateOrigin#values}; a value no
 *       copy brought was set in Idiom and is shown);</li>
 *   <li>Pinboard's private tags (a leading {@code .}) of a Pinboard copy are not shown.</li>
 * </ul>
 * No key sees a shadow: {@link #withoutShadows} is what leaves the store. Pure functions of the DE,
 * so the read path, the search index and the change feed decide alike.
 */
public final class Visibility {
    /** Tools in which a tag with a leading '.' is private to its owner. */
    public static final Set<String> PRIVATE_TAG_TOOLS = Set.of("pinboard");

    private Visibility() {}

    /** True when keys without the right to see private records must not learn the DE exists. */
    public static boolean hidden(DigitalEntity de) {
        return de.markedPrivate() || (!de.replicas().isEmpty() && de.replicas().stream().allMatch(Replica::privateCopy))
                || (de.privateOrigin() != null && de.privateOrigin().whole());
    }

    /** True when the DE shows such keys less than it holds (or nothing at all). */
    public static boolean restricted(DigitalEntity de) {
        return restricted(de, privateTags(de));
    }

    private static boolean restricted(DigitalEntity de, Set<String> privateTags) {
        return hidden(de) || de.replicas().stream().anyMatch(Replica::privateCopy) || !privateTags.isEmpty() || de.privateOrigin() != null;
    }

    /** The DE as a key without the private right sees it; only meaningful when it is not {@link #hidden}. */
    public static DigitalEntity publicView(DigitalEntity de) {
        Set<String> privateTags = privateTags(de); // worked out once, for the test and the view
        if (!restricted(de, privateTags)) {
            return withoutShadows(de);
        }
        List<Replica> shown = de.replicas().stream().filter(r -> !r.privateCopy()).map(Replica::withoutShadow).toList();
        Metadata m = de.metadata();
        Metadata parts = privateParts(de);
        for (Field f : Field.values()) {
            if (f != Field.TAGS && !empty(parts.get(f))) {
                m = m.with(f, null);
            }
        }
        for (String tag : m.tags()) {
            if (parts.tags().contains(tag) || privateTags.contains(tag)) {
                m = m.withoutTag(tag);
            }
        }
        List<Replica> publicCopies = shown.stream().map(r -> new Replica(r.tool(), r.account(), r.remoteId(), r.remoteVersion(),
                withoutParts(withoutTags(r.synced(), privateTags), parts), r.identityHint(), null, false)).toList();
        return new DigitalEntity(de.id(), de.version(), m, publicCopies, de.createdAt(), de.updatedAt(), false, de.lifecycle(), de.detached(),
                de.heldFields());
    }

    /**
     * The DE's field values and tags that only private copies hold, or that a private copy brought
     * ({@link PrivateOrigin}): what no key without the private right is shown.
     */
    public static Metadata privateParts(DigitalEntity de) {
        PrivateOrigin origin = de.privateOrigin() == null ? new PrivateOrigin(false, null) : de.privateOrigin();
        if (de.privateOrigin() == null && de.replicas().stream().noneMatch(Replica::privateCopy)) {
            return Metadata.EMPTY;
        }
        List<Replica> shown = new ArrayList<>();
        List<Replica> withheld = new ArrayList<>();
        for (Replica r : de.replicas()) {
            (r.privateCopy() ? withheld : shown).add(r);
        }
        Metadata m = de.metadata();
        Metadata out = Metadata.EMPTY;
        Set<String> tags = new TreeSet<>();
        for (Field f : Field.values()) {
            if (f == Field.TAGS) {
                for (String tag : m.tags()) {
                    // a value a private copy brought stays private even where Idiom wrote it into a public copy since
                    if (withheld.stream().anyMatch(r -> hasTag(r, tag)) && shown.stream().noneMatch(r -> hasTag(r, tag)) || origin.holdsTag(tag)) {
                        tags.add(tag);
                    }
                }
                continue;
            }
            Object v = m.get(f);
            if (!empty(v) && (heldBy(withheld, f, v) && !heldBy(shown, f, v) || origin.holds(f, v))) {
                out = out.with(f, v);
            }
        }
        return out.with(Field.TAGS, tags);
    }

    /** The DE whole but for its replicas' shadows (the tools' own forms of records stay in the store). */
    public static DigitalEntity withoutShadows(DigitalEntity de) {
        if (de.replicas().stream().allMatch(r -> r.shadow() == null)) {
            return de;
        }
        return new DigitalEntity(de.id(), de.version(), de.metadata(), de.replicas().stream().map(Replica::withoutShadow).toList(),
                de.createdAt(), de.updatedAt(), de.markedPrivate(), de.lifecycle(), de.detached(), de.heldFields(), de.privateOrigin());
    }

    /**
     * Tags private in a tool that has private tags, held by a copy in that tool: they are written
     * only to tools that have private tags, and never shown to keys without the private right.
     */
    public static Set<String> privateTags(DigitalEntity de) {
        Set<String> out = new TreeSet<>();
        for (Replica r : de.replicas()) {
            if (PRIVATE_TAG_TOOLS.contains(r.tool()) && r.synced() != null) {
                r.synced().tags().stream().filter(t -> t.startsWith(".")).forEach(out::add);
            }
        }
        return out;
    }

    private static boolean empty(Object v) {
        return v == null || (v instanceof java.util.Collection<?> c && c.isEmpty());
    }

    private static boolean heldBy(List<Replica> copies, Field f, Object v) {
        return copies.stream().anyMatch(r -> r.synced() != null && Objects.equals(r.synced().get(f), v));
    }

    private static boolean hasTag(Replica r, String tag) {
        return r.synced() != null && r.synced().tags().contains(tag);
    }

    /** A public copy's record less the private values Idiom wrote into it (the curator's replication: not the readers'). */
    private static Metadata withoutParts(Metadata m, Metadata parts) {
        if (m == null) {
            return null;
        }
        Metadata out = withoutTags(m, parts.tags());
        for (Field f : Field.values()) {
            if (f != Field.TAGS && !empty(parts.get(f)) && parts.get(f).equals(out.get(f))) {
                out = out.with(f, null);
            }
        }
        return out;
    }

    private static Metadata withoutTags(Metadata m, Set<String> tags) {
        if (m == null) {
            return null;
        }
        Metadata out = m;
        for (String t : tags) {
            out = out.withoutTag(t);
        }
        return out;
    }
}
